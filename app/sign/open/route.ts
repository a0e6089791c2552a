import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { loadByToken, redeemGrant, SignerError } from "@/lib/esign/signer-access";
import { frameAncestorsForToken, frameAncestorsHeader } from "@/lib/esign/framing";
import { prefersJson } from "@/lib/http/accept";
import { observed } from "@/lib/http/observe";
import { jsonReply } from "@/lib/http/json-reply";

// Signing URLs open here (the token rides in the query). A reusable link goes on to the signing
// page; a single-use one is redeemed now — exactly once — and its session handed to the page in
// the fragment, which never reaches a server or a log.
export const GET = observed(async function GET(req: Request): Promise<Response> {
  const token = new URL(req.url).searchParams.get("token") ?? "";
  const base = getConfig().baseUrl;
  const client = await db();
  try {
    const loaded = await loadByToken(client, token);
    const csp = frameAncestorsHeader(await frameAncestorsForToken(client, token));
    if (!loaded.grant) return redirect(`${base}/sign/${token}`, csp);
    const { session } = await redeemGrant(client, token);
    return redirect(`${base}/sign/${token}#s=${session}`, csp);
  } catch (err) {
    if (!(err instanceof SignerError)) throw err;
    const gone = err.kind === "gone";
    if (prefersJson(req)) {
      // docs/contract.md "Embedded signing": a program opening a used single-use URL gets the signing error body.
      const message = gone ? "This signing URL was already used (single-use URLs work once); request a new one." : "This signing URL is not valid.";
      const code = gone ? "SigningUrlNotRedeemable" : "SigningUrlNotFound";
      return jsonReply({ message, type: code, error: message, code }, { status: gone ? 410 : 404, headers: { "cache-control": "no-store" } });
    }
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${gone ? "Link already used" : "Link not valid"}</title></head><body style="font-family:system-ui,sans-serif;display:flex;min-height:90vh;align-items:center;justify-content:center;margin:0;padding:16px;background:#f8fafc"><main role="status" style="max-width:28rem;background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:24px;text-align:center"><h1 style="font-size:20px;margin:0 0 8px">${gone ? "This signing link was already used" : "This link does not work"}</h1><p style="color:#475569;font-size:14px;margin:0">${gone ? "One-time signing links work once and for about five minutes. Go back to the app you came from to get a new one." : "Ask the sender for a new link."}</p></main></body></html>`;
    // Framed like the page itself: an allowed embedding app shows this notice; others get a blank frame.
    const csp = frameAncestorsHeader(await frameAncestorsForToken(client, token));
    return new Response(html, {
      status: gone ? 410 : 404,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "content-security-policy": csp },
    });
  }
});

function redirect(location: string, csp: string): Response {
  return new Response(null, { status: 303, headers: { location, "content-security-policy": csp, "cache-control": "no-store" } });
}

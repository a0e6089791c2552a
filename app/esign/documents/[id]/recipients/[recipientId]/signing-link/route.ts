import { getConfig } from "@/lib/config";
import { signingUrlDeps } from "@/lib/esign/embedded";
import { issueSigningUrl } from "@/lib/esign/signing-urls";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";

// Deprecated (docs/contract.md "Embedded signing"): same checks and audit as POST signing-url, and says so in headers,
// errors included.
const handler = apiRoute(signingOperations.getSigningLink, async ({ req, principal, params }) => {
  const result = await issueSigningUrl(await signingUrlDeps(), principal, params.id, { recipientId: params.recipientId }, requestMeta(req), {
    deprecatedLink: true,
  });
  return dataResponse({ results: result });
});

export async function GET(req: Request, ctx: { params: Promise<{ id: string; recipientId: string }> }): Promise<Response> {
  const res = await handler(req, ctx);
  const { id } = await ctx.params;
  const headers = new Headers(res.headers);
  headers.set("Deprecation", "true");
  headers.set("Link", `<${getConfig().baseUrl}/esign/documents/${encodeURIComponent(id)}/signing-url>; rel="successor-version"`);
  return new Response(res.body, { status: res.status, headers });
}

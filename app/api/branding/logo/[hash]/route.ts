import { db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/errors";
import { observed } from "@/lib/http/observe";
import { logoByHash } from "@/lib/orgs/branding";

// An organization's logo, public on purpose: signers and mail clients load it without signing in. Its
// address is the image's SHA-256 (unguessable, and a new logo is a new address: cached for good).
export const GET = observed(async function GET(_req: Request, { params }: { params: Promise<{ hash: string }> }): Promise<Response> {
  try {
    const logo = await logoByHash(await db(), (await params).hash);
    if (!logo) throw new NotFoundError("No such logo", "LogoNotFound");
    return new Response(new Uint8Array(logo.bytes), {
      headers: {
        "content-type": logo.type,
        "cache-control": "public, max-age=31536000, immutable",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'",
      },
    });
  } catch (err) {
    return errorResponse(err, "signer");
  }
});

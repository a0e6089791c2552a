import { openSigningSession } from "@/lib/esign/signing";
import { esignDeps } from "@/lib/esign/service";
import { errorResponse } from "@/lib/http/errors";
import { requestMeta } from "@/lib/http/request-meta";
import { signerSessionOf } from "@/lib/http/signer-session";
import { observed } from "@/lib/http/observe";
import { jsonReply } from "@/lib/http/json-reply";

// Signer-facing: the link's token is the credential (plus a session where a check applies).
export const GET = observed(async function GET(req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  try {
    return jsonReply({ data: await openSigningSession(await esignDeps(), (await params).token, requestMeta(req), signerSessionOf(req)) });
  } catch (err) {
    return errorResponse(err, "signer");
  }
});

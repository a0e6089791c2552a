import { z } from "zod";
import { declineDocument } from "@/lib/esign/decline";
import { signingDeps } from "@/lib/esign/service";
import { errorResponse } from "@/lib/http/errors";
import { observed } from "@/lib/http/observe";
import { requestMeta } from "@/lib/http/request-meta";
import { signerLanguageOf, signerSessionOf } from "@/lib/http/signer-session";
import { parseJsonBody } from "@/lib/http/validation";
import { jsonReply } from "@/lib/http/json-reply";

const REASON_RULE = "reason is required: say in 1 to 1000 characters why you decline";
const body = z.object({
  reason: z.string({ error: REASON_RULE }).trim().min(1, REASON_RULE).max(1000, REASON_RULE),
});

// Signer-facing (decisions.md "Declining"): the link's token is the credential, plus a session where a check applies.
export const POST = observed(async function POST(req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  try {
    const { reason } = await parseJsonBody(body, req);
    return jsonReply({ data: await declineDocument(await signingDeps(), (await params).token, reason, requestMeta(req), signerSessionOf(req)) });
  } catch (err) {
    return errorResponse(err, "signer", signerLanguageOf(req));
  }
});

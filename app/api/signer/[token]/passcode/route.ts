import { passcodeDeps } from "@/lib/esign/embedded";
import { sendPasscode } from "@/lib/esign/passcodes";
import { errorResponse } from "@/lib/http/errors";
import { signerLanguageOf } from "@/lib/http/signer-session";
import { requestMeta } from "@/lib/http/request-meta";
import { observed } from "@/lib/http/observe";
import { jsonReply } from "@/lib/http/json-reply";

export const POST = observed(async function POST(req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  try {
    return jsonReply({ data: await sendPasscode(await passcodeDeps(), (await params).token, requestMeta(req)) });
  } catch (err) {
    return errorResponse(err, "signer", signerLanguageOf(req));
  }
});

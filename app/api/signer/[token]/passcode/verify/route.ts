import { z } from "zod";
import { passcodeDeps } from "@/lib/esign/embedded";
import { verifyPasscode } from "@/lib/esign/passcodes";
import { errorResponse } from "@/lib/http/errors";
import { signerLanguageOf } from "@/lib/http/signer-session";
import { requestMeta } from "@/lib/http/request-meta";
import { parseJsonBody } from "@/lib/http/validation";
import { observed } from "@/lib/http/observe";
import { jsonReply } from "@/lib/http/json-reply";

const body = z.object({ code: z.string().trim().max(20) });

export const POST = observed(async function POST(req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  try {
    const { code } = await parseJsonBody(body, req);
    return jsonReply({ data: await verifyPasscode(await passcodeDeps(), (await params).token, code, requestMeta(req)) });
  } catch (err) {
    return errorResponse(err, "signer", signerLanguageOf(req));
  }
});

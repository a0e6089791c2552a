import { z } from "zod";
import { submitSignature } from "@/lib/esign/signing";
import { signingDeps } from "@/lib/esign/service";
import { errorResponse } from "@/lib/http/errors";
import { requestMeta } from "@/lib/http/request-meta";
import { parseJsonBody } from "@/lib/http/validation";
import { signerLanguageOf, signerSessionOf } from "@/lib/http/signer-session";
import { observed } from "@/lib/http/observe";
import { jsonReply } from "@/lib/http/json-reply";

const body = z.object({ values: z.record(z.string(), z.string().max(2_500_000)) });

export const POST = observed(async function POST(req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  try {
    const { values } = await parseJsonBody(body, req);
    return jsonReply({ data: await submitSignature(await signingDeps(), (await params).token, values, requestMeta(req), signerSessionOf(req)) });
  } catch (err) {
    return errorResponse(err, "signer", signerLanguageOf(req));
  }
});

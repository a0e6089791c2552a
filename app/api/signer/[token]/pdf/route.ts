import { signerPdf } from "@/lib/esign/signing";
import { esignDeps } from "@/lib/esign/service";
import { inline } from "@/lib/http/download";
import { errorResponse } from "@/lib/http/errors";
import { signerSessionOf } from "@/lib/http/signer-session";
import { observed } from "@/lib/http/observe";

export const GET = observed(async function GET(req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  try {
    return inline(await signerPdf(await esignDeps(), (await params).token, signerSessionOf(req)), "application/pdf", "document.pdf");
  } catch (err) {
    return errorResponse(err, "signer");
  }
});

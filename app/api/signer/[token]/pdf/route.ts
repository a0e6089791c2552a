import { signerPdf } from "@/lib/esign/signing";
import { esignDeps } from "@/lib/esign/service";
import { inline } from "@/lib/http/download";
import { errorResponse } from "@/lib/http/errors";

export async function GET(_req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  try {
    return inline(await signerPdf(await esignDeps(), (await params).token), "application/pdf", "document.pdf");
  } catch (err) {
    return errorResponse(err, "signer");
  }
}

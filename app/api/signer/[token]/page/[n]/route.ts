import { signerPdf } from "@/lib/esign/signing";
import { esignDeps } from "@/lib/esign/service";
import { errorResponse } from "@/lib/http/errors";
import { parsePageImageRequest } from "@/lib/http/page-image";
import { signerSessionOf } from "@/lib/http/signer-session";
import { renderPage } from "@/lib/pdf/raster";
import { observed } from "@/lib/http/observe";

export const GET = observed(async function GET(req: Request, { params }: { params: Promise<{ token: string; n: string }> }): Promise<Response> {
  try {
    const { token, n } = await params;
    const { page, width } = parsePageImageRequest(n, req.url);
    const png = await renderPage(await signerPdf(await esignDeps(), token, signerSessionOf(req)), page, width);
    return new Response(new Uint8Array(png), { headers: { "content-type": "image/png", "cache-control": "private, max-age=300" } });
  } catch (err) {
    return errorResponse(err, "signer");
  }
});

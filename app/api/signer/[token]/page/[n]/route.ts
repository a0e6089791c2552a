import { signerPdf } from "@/lib/esign/signing";
import { esignDeps } from "@/lib/esign/service";
import { errorResponse } from "@/lib/http/errors";
import { renderPage } from "@/lib/pdf/raster";
import { ValidationError } from "@/lib/errors";

export async function GET(req: Request, { params }: { params: Promise<{ token: string; n: string }> }): Promise<Response> {
  try {
    const { token, n } = await params;
    const page = Number(n);
    if (!Number.isInteger(page) || page < 1 || page > 10_000) throw new ValidationError("Bad page number", [{ field: "n", message: "must be a page number" }], "BadPage");
    const width = Math.min(2000, Math.max(300, Number(new URL(req.url).searchParams.get("w")) || 1100));
    const png = await renderPage(await signerPdf(await esignDeps(), token), page, width);
    return new Response(new Uint8Array(png), { headers: { "content-type": "image/png", "cache-control": "private, max-age=300" } });
  } catch (err) {
    return errorResponse(err, "signer");
  }
}

import { WRITERS } from "@/lib/auth/roles";
import { documentPdf } from "@/lib/esign/documents";
import { esignDeps } from "@/lib/esign/service";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { parsePageImageRequest } from "@/lib/http/page-image";
import { renderPage } from "@/lib/pdf/raster";

// Page images for the field placer (the same rendering signers see).
export const GET = dashboardRoute<{ id: string; n: string }>({ roles: WRITERS }, async ({ req, ctx, params }) => {
  const { page, width } = parsePageImageRequest(params.n, req.url);
  const { data } = await documentPdf(await esignDeps(), ctx.org.id, params.id);
  const png = await renderPage(data, page, width);
  return new Response(new Uint8Array(png), { headers: { "content-type": "image/png", "cache-control": "private, max-age=300" } });
});

import { ANY_ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { parsePageImageRequest } from "@/lib/http/page-image";
import { requireUuid } from "@/lib/http/validation";
import { pdfConverter } from "@/lib/pdf/converter";
import { fileStorage } from "@/lib/storage";
import { templatePreviewPage } from "@/lib/templates/preview";

// One page of the template's preview as a PNG (the same rasterizer as the signing page's images).
export const GET = dashboardRoute<{ id: string; n: string }>({ roles: ANY_ROLE }, async ({ req, ctx, params }) => {
  const id = requireUuid(params.id, "Template not found", "TemplateNotFound");
  const { page, width } = parsePageImageRequest(params.n, req.url);
  const png = await templatePreviewPage(await db(), fileStorage(), pdfConverter(), ctx.org.id, id, page, width);
  return new Response(new Uint8Array(png), { headers: { "content-type": "image/png", "cache-control": "private, max-age=300" } });
});

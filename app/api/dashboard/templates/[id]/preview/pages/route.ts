import { ANY_ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { requireUuid } from "@/lib/http/validation";
import { pdfConverter } from "@/lib/pdf/converter";
import { fileStorage } from "@/lib/storage";
import { templatePreviewPageCount } from "@/lib/templates/preview";
import { jsonReply } from "@/lib/http/json-reply";

// How many pages the template's preview has, so the detail page can show each as an image.
export const GET = dashboardRoute<{ id: string }>({ roles: ANY_ROLE }, async ({ ctx, params }) => {
  const id = requireUuid(params.id, "Template not found", "TemplateNotFound");
  const pageCount = await templatePreviewPageCount(await db(), fileStorage(), pdfConverter(), ctx.org.id, id);
  return jsonReply({ data: { pageCount } }, { headers: { "cache-control": "private, no-store" } });
});

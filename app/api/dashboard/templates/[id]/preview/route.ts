import { ANY_ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { inline } from "@/lib/http/download";
import { requireUuid } from "@/lib/http/validation";
import { pdfConverter } from "@/lib/pdf/converter";
import { fileStorage } from "@/lib/storage";
import { templatePreviewPdf } from "@/lib/templates/preview";

// The template as it is (placeholders visible), converted to PDF: the detail page's "Open as PDF".
export const GET = dashboardRoute<{ id: string }>({ roles: ANY_ROLE }, async ({ ctx, params }) => {
  const id = requireUuid(params.id, "Template not found", "TemplateNotFound");
  const { name, pdf } = await templatePreviewPdf(await db(), fileStorage(), pdfConverter(), ctx.org.id, id);
  return inline(pdf, "application/pdf", `${name}.pdf`);
});

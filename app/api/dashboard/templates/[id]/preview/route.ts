import { buffer } from "node:stream/consumers";
import { ANY_ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { inline } from "@/lib/http/download";
import { requireUuid } from "@/lib/http/validation";
import { pdfConverter } from "@/lib/pdf/converter";
import { fileStorage } from "@/lib/storage";
import { templateFile } from "@/lib/templates/templates";

// The template as it is (placeholders visible), converted to PDF for the detail page's preview.
export const GET = dashboardRoute<{ id: string }>({ roles: ANY_ROLE }, async ({ req, ctx, params }) => {
  const file = await templateFile(await db(), fileStorage(), ctx.org.id, requireUuid(params.id, "Template not found", "TemplateNotFound"));
  const pdf = await pdfConverter().convert(await buffer(file.data.body), file.kind as "docx" | "pptx", { signal: req.signal });
  return inline(pdf, "application/pdf", `${file.name}.pdf`);
});

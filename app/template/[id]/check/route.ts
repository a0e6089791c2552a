import { db } from "@/lib/db/client";
import { templateOperations } from "@/lib/templates/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requireUuid } from "@/lib/http/validation";
import { pdfConverter } from "@/lib/pdf/converter";
import { fileStorage } from "@/lib/storage";
import { checkStoredTemplate } from "@/lib/templates/templates";

// The template doctor: reads the template, writes nothing, so every role may ask.
export const POST = apiRoute(templateOperations.checkTemplate, async ({ principal, params }) =>
  dataResponse(
    await checkStoredTemplate(await db(), fileStorage(), principal.orgId, requireUuid(params.id, "Template not found", "TemplateNotFound"), () =>
      pdfConverter().fonts(),
    ),
  ),
);

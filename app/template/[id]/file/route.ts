import { db } from "@/lib/db/client";
import { templateOperations } from "@/lib/templates/operations";
import { apiRoute } from "@/lib/http/api-route";
import { attachment } from "@/lib/http/download";
import { requireUuid } from "@/lib/http/validation";
import { fileStorage } from "@/lib/storage";
import { templateFile } from "@/lib/templates/templates";

// Downloads follow the deliverable rule: viewers read metadata but never download files.
export const GET = apiRoute(templateOperations.downloadTemplateFile, async ({ principal, params }) => {
  const file = await templateFile(await db(), fileStorage(), principal.orgId, requireUuid(params.id, "Template not found", "TemplateNotFound"));
  return attachment(file.data, file.fileType, `${file.name}.${file.kind}`);
});

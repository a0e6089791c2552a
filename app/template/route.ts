import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { ValidationError } from "@/lib/errors";
import { templateOperations } from "@/lib/templates/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { listField, textField, withMultipart } from "@/lib/http/multipart";
import { parseWith } from "@/lib/http/validation";
import { fileStorage } from "@/lib/storage";
import { templateTooLarge } from "@/lib/templates/template-file-errors";
import { uploadTemplateFields } from "@/lib/templates/schemas";
import { uploadTemplate } from "@/lib/templates/templates";

// Template management is for administrators and contributors; every role may read.
export const POST = apiRoute(templateOperations.uploadTemplate, async ({ req, principal }) => {
  const { maxUploadBytes } = getConfig();
  return withMultipart(req, { maxFileBytes: maxUploadBytes, tooLarge: () => templateTooLarge(maxUploadBytes) }, async ({ file, fields }) => {
    if (!file) throw new ValidationError("Attach the template as the multipart field `file`", [{ field: "file", message: "required" }]);
    const folder = textField(fields, "templateFolderId");
    const input = parseWith(uploadTemplateFields, {
      name: textField(fields, "name"),
      description: textField(fields, "description"),
      templateFolderId: folder === undefined || folder === "" || folder === "null" ? undefined : folder,
      tags: listField(fields, "tags"),
    });
    const template = await uploadTemplate(await db(), fileStorage(), principal, { ...input, file }, { maxBytes: maxUploadBytes });
    return dataResponse(template, { status: 201 });
  });
});

import { SENDERS } from "@/lib/auth/roles";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { ValidationError } from "@/lib/errors";
import { dataResponse } from "@/lib/http/api-route";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { listField, textField, withMultipart } from "@/lib/http/multipart";
import { parseWith } from "@/lib/http/validation";
import { fileStorage } from "@/lib/storage";
import { templateTooLarge } from "@/lib/templates/template-file-errors";
import { uploadTemplateFields } from "@/lib/templates/schemas";
import { uploadTemplate } from "@/lib/templates/templates";

// The dashboard's upload (XMLHttpRequest, so the browser can show progress), on the session.
export const POST = dashboardRoute({ roles: SENDERS }, async ({ req, ctx }) => {
  const { maxUploadBytes } = getConfig();
  return withMultipart(req, { maxFileBytes: maxUploadBytes, tooLarge: () => templateTooLarge(maxUploadBytes) }, async ({ file, fields }) => {
    if (!file) throw new ValidationError("Choose a .docx or .pptx file", [{ field: "file", message: "required" }]);
    const folder = textField(fields, "templateFolderId");
    const input = parseWith(uploadTemplateFields, {
      name: textField(fields, "name") || undefined,
      templateFolderId: folder ? folder : undefined,
      tags: listField(fields, "tags"),
    });
    const template = await uploadTemplate(
      await db(),
      fileStorage(),
      { orgId: ctx.org.id, userId: ctx.user.id },
      { ...input, file },
      { maxBytes: maxUploadBytes },
    );
    return dataResponse(template, { status: 201 });
  });
});

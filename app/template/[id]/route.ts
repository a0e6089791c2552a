import { db } from "@/lib/db/client";
import { templateOperations } from "@/lib/templates/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requireUuid } from "@/lib/http/validation";
import { deleteTemplate, getTemplate, updateTemplate } from "@/lib/templates/templates";

const NOT_FOUND = ["Template not found", "TemplateNotFound"] as const;

export const GET = apiRoute(templateOperations.getTemplate, async ({ principal, params }) =>
  dataResponse(await getTemplate(await db(), principal.orgId, requireUuid(params.id, ...NOT_FOUND))),
);

export const PATCH = apiRoute(templateOperations.updateTemplate, async ({ principal, params, json }) => {
  const id = requireUuid(params.id, ...NOT_FOUND);
  const input = await json();
  return dataResponse(await updateTemplate(await db(), principal, id, input));
});

export const DELETE = apiRoute(templateOperations.deleteTemplate, async ({ principal, params }) => {
  const { id } = await deleteTemplate(await db(), principal.orgId, requireUuid(params.id, ...NOT_FOUND));
  return dataResponse({ message: "Template deleted", templateId: id });
});

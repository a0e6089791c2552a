import { ANY_ROLE, SENDERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { parseJsonBody, requireUuid } from "@/lib/http/validation";
import { updateTemplateBody } from "@/lib/templates/schemas";
import { deleteTemplate, getTemplate, updateTemplate } from "@/lib/templates/templates";

type Params = { id: string };
const NOT_FOUND = ["Template not found", "TemplateNotFound"] as const;

export const GET = apiRoute<Params>({ family: "listing", roles: ANY_ROLE }, async ({ principal, params }) =>
  dataResponse(await getTemplate(await db(), principal.orgId, requireUuid(params.id, ...NOT_FOUND))),
);

export const PATCH = apiRoute<Params>({ family: "listing", roles: SENDERS }, async ({ req, principal, params }) => {
  const id = requireUuid(params.id, ...NOT_FOUND);
  const input = await parseJsonBody(updateTemplateBody, req);
  return dataResponse(await updateTemplate(await db(), principal, id, input));
});

export const DELETE = apiRoute<Params>({ family: "listing", roles: SENDERS }, async ({ principal, params }) => {
  const { id } = await deleteTemplate(await db(), principal.orgId, requireUuid(params.id, ...NOT_FOUND));
  return dataResponse({ message: "Template deleted", templateId: id });
});

import { db } from "@/lib/db/client";
import { templateOperations } from "@/lib/templates/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requireUuid } from "@/lib/http/validation";
import { deleteFolder, getFolder, updateFolder } from "@/lib/templates/folders";

const NOT_FOUND = ["Folder not found", "FolderNotFound"] as const;

export const GET = apiRoute(templateOperations.getTemplateFolder, async ({ principal, params }) =>
  dataResponse(await getFolder(await db(), principal.orgId, requireUuid(params.id, ...NOT_FOUND))),
);

export const PATCH = apiRoute(templateOperations.updateTemplateFolder, async ({ principal, params, json }) => {
  const id = requireUuid(params.id, ...NOT_FOUND);
  return dataResponse(await updateFolder(await db(), principal, id, await json()));
});

export const DELETE = apiRoute(templateOperations.deleteTemplateFolder, async ({ principal, params }) => {
  const { id } = await deleteFolder(await db(), principal.orgId, requireUuid(params.id, ...NOT_FOUND));
  return dataResponse({ message: "Folder deleted", folderId: id });
});

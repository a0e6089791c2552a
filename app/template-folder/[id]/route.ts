import { ANY_ROLE, SENDERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { parseJsonBody, requireUuid } from "@/lib/http/validation";
import { deleteFolder, getFolder, updateFolder } from "@/lib/templates/folders";
import { updateFolderBody } from "@/lib/templates/schemas";

type Params = { id: string };
const NOT_FOUND = ["Folder not found", "FolderNotFound"] as const;

export const GET = apiRoute<Params>({ family: "listing", roles: ANY_ROLE }, async ({ principal, params }) =>
  dataResponse(await getFolder(await db(), principal.orgId, requireUuid(params.id, ...NOT_FOUND))),
);

export const PATCH = apiRoute<Params>({ family: "listing", roles: SENDERS }, async ({ req, principal, params }) => {
  const id = requireUuid(params.id, ...NOT_FOUND);
  return dataResponse(await updateFolder(await db(), principal, id, await parseJsonBody(updateFolderBody, req)));
});

export const DELETE = apiRoute<Params>({ family: "listing", roles: SENDERS }, async ({ principal, params }) => {
  const { id } = await deleteFolder(await db(), principal.orgId, requireUuid(params.id, ...NOT_FOUND));
  return dataResponse({ message: "Folder deleted", folderId: id });
});

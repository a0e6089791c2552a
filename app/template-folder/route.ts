import { SENDERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { parseJsonBody } from "@/lib/http/validation";
import { createFolder } from "@/lib/templates/folders";
import { createFolderBody } from "@/lib/templates/schemas";

export const POST = apiRoute({ family: "listing", roles: SENDERS }, async ({ req, principal }) => {
  const input = await parseJsonBody(createFolderBody, req);
  return dataResponse(await createFolder(await db(), principal, input), { status: 201 });
});

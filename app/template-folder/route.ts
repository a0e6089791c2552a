import { db } from "@/lib/db/client";
import { templateOperations } from "@/lib/templates/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { createFolder } from "@/lib/templates/folders";

export const POST = apiRoute(templateOperations.createTemplateFolder, async ({ principal, json }) => {
  const input = await json();
  return dataResponse(await createFolder(await db(), principal, input), { status: 201 });
});

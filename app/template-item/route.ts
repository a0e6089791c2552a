import { sql } from "@/lib/db/sql";
import { templateOperations } from "@/lib/templates/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { listTemplateItems } from "@/lib/templates/listing";

export const GET = apiRoute(templateOperations.listTemplateItems, async ({ principal, query, admission }) => {
  return dataResponse(await listTemplateItems(await sql(), principal.orgId, query(), admission));
});

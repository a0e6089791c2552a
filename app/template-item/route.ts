import { ANY_ROLE } from "@/lib/auth/roles";
import { sql } from "@/lib/db/sql";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { parseQuery } from "@/lib/http/validation";
import { listTemplateItems } from "@/lib/templates/listing";
import { listTemplateItemsQuery } from "@/lib/templates/schemas";

export const GET = apiRoute({ family: "listing", roles: ANY_ROLE }, async ({ req, principal }) => {
  const query = parseQuery(listTemplateItemsQuery, new URL(req.url).searchParams);
  return dataResponse(await listTemplateItems(await sql(), principal.orgId, query));
});

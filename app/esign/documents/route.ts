import { ANY_ROLE } from "@/lib/auth/roles";
import { listDocuments } from "@/lib/esign/list";
import { sql } from "@/lib/db/sql";
import { listDocumentsQuery } from "@/lib/esign/schemas";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { parseQuery } from "@/lib/http/validation";

export const GET = apiRoute({ family: "signing", roles: ANY_ROLE }, async ({ req, principal }) =>
  dataResponse(await listDocuments(await sql(), principal.orgId, parseQuery(listDocumentsQuery, new URL(req.url).searchParams))),
);

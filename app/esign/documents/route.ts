import { listDocuments } from "@/lib/esign/list";
import { sql } from "@/lib/db/sql";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute(signingOperations.listSigningDocuments, async ({ principal, query, admission }) =>
  dataResponse(await listDocuments(await sql(), principal.orgId, query(), admission)),
);

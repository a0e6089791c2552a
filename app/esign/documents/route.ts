import { ANY_ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { listDocuments } from "@/lib/esign/documents";
import { listDocumentsQuery } from "@/lib/esign/schemas";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { parseQuery } from "@/lib/http/validation";

export const GET = apiRoute({ family: "signing", roles: ANY_ROLE }, async ({ req, principal }) =>
  dataResponse(await listDocuments(await db(), principal.orgId, parseQuery(listDocumentsQuery, new URL(req.url).searchParams))),
);

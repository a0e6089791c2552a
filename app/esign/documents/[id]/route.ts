import { db } from "@/lib/db/client";
import { getDocument } from "@/lib/esign/documents";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute(signingOperations.getSigningDocument, async ({ principal, params }) =>
  dataResponse(await getDocument(await db(), principal.orgId, params.id)),
);

import { db } from "@/lib/db/client";
import { documentStatusOf } from "@/lib/esign/documents";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute(signingOperations.getSigningDocumentStatus, async ({ principal, params }) => {
  return dataResponse(await documentStatusOf(await db(), principal.orgId, params.id));
});

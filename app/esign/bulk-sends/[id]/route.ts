import { db } from "@/lib/db/client";
import { getBulkSend } from "@/lib/esign/bulk-send";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute(signingOperations.getBulkSend, async ({ principal, params }) =>
  dataResponse(await getBulkSend(await db(), principal.orgId, params.id)),
);

import { db } from "@/lib/db/client";
import { getBulkSend, resumeStalledBulkSend } from "@/lib/esign/bulk-send";
import { signingOperations } from "@/lib/esign/operations";
import { esignDeps } from "@/lib/esign/service";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";

// Reading a batch also takes up rows left queued by a stopped process (lib/esign/bulk-send.ts).
export const GET = apiRoute(signingOperations.getBulkSend, async ({ req, principal, params }) => {
  await resumeStalledBulkSend(await esignDeps(), principal.orgId, params.id, requestMeta(req));
  return dataResponse(await getBulkSend(await db(), principal.orgId, params.id));
});

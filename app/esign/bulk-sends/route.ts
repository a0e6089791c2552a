import { createBulkSend, getBulkSend } from "@/lib/esign/bulk-send";
import { signingOperations } from "@/lib/esign/operations";
import { esignDeps } from "@/lib/esign/service";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";

// Rows are checked and recorded now; the background worker sends the valid ones (GET shows progress).
export const POST = apiRoute(signingOperations.createBulkSend, async ({ req, principal, json }) => {
  const deps = await esignDeps();
  const id = await createBulkSend(deps, principal, await json(), requestMeta(req));
  return dataResponse(await getBulkSend(deps.db, principal.orgId, id), { status: 201 });
});

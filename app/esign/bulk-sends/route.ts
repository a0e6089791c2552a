import { createBulkSend, getBulkSend, processBulkSend } from "@/lib/esign/bulk-send";
import { signingOperations } from "@/lib/esign/operations";
import { esignDeps } from "@/lib/esign/service";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";
import { log } from "@/lib/log";

// Rows are checked and recorded now; the valid ones are sent after the reply (GET shows progress).
export const POST = apiRoute(signingOperations.createBulkSend, async ({ req, principal, json }) => {
  const deps = await esignDeps();
  const id = await createBulkSend(deps, principal, await json());
  const reply = await getBulkSend(deps.db, principal.orgId, id);
  void processBulkSend(deps, principal, id, requestMeta(req)).catch((err) => log.error({ bulkSendId: id, err: (err as Error).message }, "bulk send stopped"));
  return dataResponse(reply, { status: 201 });
});

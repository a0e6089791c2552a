import { createDeliverable } from "@/lib/deliverables/deliverables";
import { listDeliverables } from "@/lib/deliverables/list";
import { sql } from "@/lib/db/sql";
import { deliverableDeps } from "@/lib/deliverables/service";
import { deliverableOperations } from "@/lib/deliverables/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute(deliverableOperations.listDeliverables, async ({ principal, query, admission }) => {
  return dataResponse(await listDeliverables(await sql(), principal.orgId, query(), admission));
});

export const POST = apiRoute(deliverableOperations.createDeliverable, async ({ req, principal, json, admission }) => {
  const body = await json();
  const deliverable = await createDeliverable(await deliverableDeps(), principal, body, { signal: req.signal, admission });
  return dataResponse({ results: { deliverable } });
});

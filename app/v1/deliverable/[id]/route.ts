import { db } from "@/lib/db/client";
import { deleteDeliverable, getDeliverable, updateDeliverable } from "@/lib/deliverables/deliverables";
import { deliverableOperations } from "@/lib/deliverables/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute(deliverableOperations.getDeliverable, async ({ principal, params, query }) => {
  const { showTags } = query();
  return dataResponse({ results: await getDeliverable(await db(), principal.orgId, params.id, showTags) });
});

export const PATCH = apiRoute(deliverableOperations.updateDeliverable, async ({ principal, params, json }) => {
  await updateDeliverable(await db(), principal, params.id, await json());
  return dataResponse({ message: "Deliverable updated", deliverableId: params.id });
});

export const DELETE = apiRoute(deliverableOperations.deleteDeliverable, async ({ principal, params }) => {
  await deleteDeliverable(await db(), principal.orgId, params.id);
  return dataResponse({ message: "Deliverable deleted", deliverableId: params.id });
});

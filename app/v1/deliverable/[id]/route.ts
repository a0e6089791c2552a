import { ANY_ROLE, WRITERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { deleteDeliverable, getDeliverable, updateDeliverable } from "@/lib/deliverables/deliverables";
import { getDeliverableQuery, updateDeliverableBody } from "@/lib/deliverables/schemas";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { parseJsonBody, parseQuery } from "@/lib/http/validation";

type Params = { id: string };

export const GET = apiRoute<Params>({ family: "deliverable", roles: ANY_ROLE }, async ({ req, principal, params }) => {
  const { showTags } = parseQuery(getDeliverableQuery, new URL(req.url).searchParams);
  return dataResponse({ results: await getDeliverable(await db(), principal.orgId, params.id, showTags) });
});

export const PATCH = apiRoute<Params>({ family: "deliverable", roles: WRITERS }, async ({ req, principal, params }) => {
  await updateDeliverable(await db(), principal, params.id, await parseJsonBody(updateDeliverableBody, req));
  return dataResponse({ message: "Deliverable updated", deliverableId: params.id });
});

export const DELETE = apiRoute<Params>({ family: "deliverable", roles: WRITERS }, async ({ principal, params }) => {
  await deleteDeliverable(await db(), principal.orgId, params.id);
  return dataResponse({ message: "Deliverable deleted", deliverableId: params.id });
});

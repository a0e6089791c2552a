import { ANY_ROLE, WRITERS } from "@/lib/auth/roles";
import { createDeliverable } from "@/lib/deliverables/deliverables";
import { listDeliverables } from "@/lib/deliverables/list";
import { sql } from "@/lib/db/sql";
import { createDeliverableBody, listDeliverablesQuery } from "@/lib/deliverables/schemas";
import { deliverableDeps } from "@/lib/deliverables/service";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { parseJsonBody, parseQuery } from "@/lib/http/validation";

export const GET = apiRoute({ family: "deliverable", roles: ANY_ROLE }, async ({ req, principal }) => {
  const query = parseQuery(listDeliverablesQuery, new URL(req.url).searchParams);
  return dataResponse(await listDeliverables(await sql(), principal.orgId, query));
});

export const POST = apiRoute({ family: "deliverable", roles: WRITERS, idempotent: true }, async ({ req, principal }) => {
  const body = await parseJsonBody(createDeliverableBody, req);
  const deliverable = await createDeliverable(await deliverableDeps(), principal, body, req.signal);
  return dataResponse({ results: { deliverable } });
});

import { WRITERS } from "@/lib/auth/roles";
import { createDeliverable } from "@/lib/deliverables/deliverables";
import { createDeliverableBody } from "@/lib/deliverables/schemas";
import { deliverableDeps } from "@/lib/deliverables/service";
import { dataResponse } from "@/lib/http/api-route";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { parseJsonBody } from "@/lib/http/validation";

export const POST = dashboardRoute({ roles: WRITERS }, async ({ req, ctx, plan }) => {
  const body = await parseJsonBody(createDeliverableBody, req);
  const deliverable = await createDeliverable(await deliverableDeps(), { orgId: ctx.org.id, userId: ctx.user.id, plan }, body, { signal: req.signal });
  return dataResponse({ results: { deliverable } });
});

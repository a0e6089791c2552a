import { webhookOperations } from "@/lib/webhooks/operations";
import { apiRoute } from "@/lib/http/api-route";
import { listDeliveries } from "@/lib/webhooks/delivery-admin";
import { webhookDeps } from "@/lib/webhooks/service";

export const GET = apiRoute(webhookOperations.listWebhookDeliveries, async ({ principal, params, query }) => {
  const q = query();
  return Response.json({ data: await listDeliveries((await webhookDeps()).db, principal.orgId, params.name, q) });
});

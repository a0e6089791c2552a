import { webhookOperations } from "@/lib/webhooks/operations";
import { apiRoute } from "@/lib/http/api-route";
import { listDeliveries } from "@/lib/webhooks/delivery-admin";
import { webhookDeps } from "@/lib/webhooks/service";
import { jsonReply } from "@/lib/http/json-reply";

export const GET = apiRoute(webhookOperations.listWebhookDeliveries, async ({ principal, params, query }) => {
  const q = query();
  return jsonReply({ data: await listDeliveries((await webhookDeps()).db, principal.orgId, params.name, q) });
});

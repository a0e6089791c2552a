import { webhookOperations } from "@/lib/webhooks/operations";
import { apiRoute } from "@/lib/http/api-route";
import { replayDelivery } from "@/lib/webhooks/delivery-admin";
import { webhookDeps } from "@/lib/webhooks/service";
import { jsonReply } from "@/lib/http/json-reply";

export const POST = apiRoute(webhookOperations.replayWebhookDelivery, async ({ principal, params }) => {
  const data = await replayDelivery(await webhookDeps(), principal.orgId, params.name, params.deliveryId);
  return jsonReply({ data, message: "Delivery replayed as a new delivery." });
});

import { webhookOperations } from "@/lib/webhooks/operations";
import { apiRoute } from "@/lib/http/api-route";
import { replayDelivery } from "@/lib/webhooks/delivery-admin";
import { webhookDeps } from "@/lib/webhooks/service";

export const POST = apiRoute(webhookOperations.replayWebhookDelivery, async ({ principal, params }) => {
  const data = await replayDelivery(await webhookDeps(), principal.orgId, params.name, params.deliveryId);
  return Response.json({ data, message: "Delivery replayed as a new delivery." });
});

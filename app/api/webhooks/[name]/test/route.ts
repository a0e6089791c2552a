import { webhookOperations } from "@/lib/webhooks/operations";
import { apiRoute } from "@/lib/http/api-route";
import { testWebhook } from "@/lib/webhooks/delivery-admin";
import { webhookDeps } from "@/lib/webhooks/service";
import { jsonReply } from "@/lib/http/json-reply";

export const POST = apiRoute(webhookOperations.testWebhook, async ({ principal, params, json }) => {
  const input = await json();
  const data = await testWebhook(await webhookDeps(), principal.orgId, params.name, input);
  return jsonReply({ data, message: `Sent a test ${data.deliveries[0]?.eventType ?? "event"} to ${data.summary.total} URL(s).` });
});

import { webhookOperations } from "@/lib/webhooks/operations";
import { apiRoute } from "@/lib/http/api-route";
import { webhookDeps } from "@/lib/webhooks/service";
import { createWebhook, listWebhooks } from "@/lib/webhooks/webhooks";
import { jsonReply } from "@/lib/http/json-reply";

export const POST = apiRoute(webhookOperations.createWebhook, async ({ principal, json }) => {
  const input = await json();
  const data = await createWebhook(await webhookDeps(), principal, input);
  return jsonReply({ data, message: "Webhook created. Save the secret now: it is not shown again." }, { status: 201 });
});

export const GET = apiRoute(webhookOperations.listWebhooks, async ({ principal }) => {
  return jsonReply({ data: { results: await listWebhooks((await webhookDeps()).sql, principal.orgId) } });
});

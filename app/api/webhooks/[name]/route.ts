import { webhookOperations } from "@/lib/webhooks/operations";
import { apiRoute } from "@/lib/http/api-route";
import { webhookDeps } from "@/lib/webhooks/service";
import { deleteWebhook, getWebhook, updateWebhook } from "@/lib/webhooks/webhooks";
import { jsonReply } from "@/lib/http/json-reply";

export const GET = apiRoute(webhookOperations.getWebhook, async ({ principal, params }) => {
  return jsonReply({ data: await getWebhook((await webhookDeps()).db, principal.orgId, params.name) });
});

export const PATCH = apiRoute(webhookOperations.updateWebhook, async ({ principal, params, json }) => {
  const input = await json();
  return jsonReply({ data: await updateWebhook(await webhookDeps(), principal.orgId, params.name, input), message: "Webhook updated." });
});

export const DELETE = apiRoute(webhookOperations.deleteWebhook, async ({ principal, params }) => {
  return jsonReply({ data: await deleteWebhook((await webhookDeps()).db, principal.orgId, params.name), message: "Webhook deleted." });
});

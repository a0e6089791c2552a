import { webhookOperations } from "@/lib/webhooks/operations";
import { apiRoute } from "@/lib/http/api-route";
import { webhookDeps } from "@/lib/webhooks/service";
import { regenerateSecret } from "@/lib/webhooks/webhooks";
import { jsonReply } from "@/lib/http/json-reply";

export const POST = apiRoute(webhookOperations.regenerateWebhookSecret, async ({ principal, params }) => {
  const data = await regenerateSecret(await webhookDeps(), principal.orgId, params.name);
  return jsonReply({ data, message: "Secret regenerated. Save it now: it is not shown again; the old secret no longer signs deliveries." });
});

import { ADMINS } from "@/lib/auth/roles";
import { apiRoute } from "@/lib/http/api-route";
import { parseJsonBody } from "@/lib/http/validation";
import { testWebhook } from "@/lib/webhooks/delivery-admin";
import { webhookDeps } from "@/lib/webhooks/service";
import { testWebhookSchema } from "@/lib/webhooks/webhooks";

export const POST = apiRoute<{ name: string }>({ family: "webhook", roles: ADMINS, idempotent: true }, async ({ req, principal, params }) => {
  const input = await parseJsonBody(testWebhookSchema, req);
  const data = await testWebhook(await webhookDeps(), principal.orgId, params.name, input);
  return Response.json({ data, message: `Sent a test ${data.deliveries[0]?.eventType ?? "event"} to ${data.summary.total} URL(s).` });
});

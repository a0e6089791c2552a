import { ADMINS } from "@/lib/auth/roles";
import { apiRoute } from "@/lib/http/api-route";
import { parseJsonBody } from "@/lib/http/validation";
import { webhookDeps } from "@/lib/webhooks/service";
import { createWebhook, createWebhookSchema, listWebhooks } from "@/lib/webhooks/webhooks";

export const POST = apiRoute({ family: "webhook", roles: ADMINS }, async ({ req, principal }) => {
  const input = await parseJsonBody(createWebhookSchema, req);
  const data = await createWebhook(await webhookDeps(), principal, input);
  return Response.json({ data, message: "Webhook created. Save the secret now: it is not shown again." }, { status: 201 });
});

export const GET = apiRoute({ family: "webhook", roles: ADMINS }, async ({ principal }) => {
  return Response.json({ data: { results: await listWebhooks((await webhookDeps()).db, principal.orgId) } });
});

import { ADMINS } from "@/lib/auth/roles";
import { apiRoute } from "@/lib/http/api-route";
import { parseJsonBody } from "@/lib/http/validation";
import { webhookDeps } from "@/lib/webhooks/service";
import { deleteWebhook, getWebhook, updateWebhook, updateWebhookSchema } from "@/lib/webhooks/webhooks";

type P = { name: string };

export const GET = apiRoute<P>({ family: "webhook", roles: ADMINS }, async ({ principal, params }) => {
  return Response.json({ data: await getWebhook((await webhookDeps()).db, principal.orgId, params.name) });
});

export const PATCH = apiRoute<P>({ family: "webhook", roles: ADMINS }, async ({ req, principal, params }) => {
  const input = await parseJsonBody(updateWebhookSchema, req);
  return Response.json({ data: await updateWebhook(await webhookDeps(), principal.orgId, params.name, input), message: "Webhook updated." });
});

export const DELETE = apiRoute<P>({ family: "webhook", roles: ADMINS }, async ({ principal, params }) => {
  return Response.json({ data: await deleteWebhook((await webhookDeps()).db, principal.orgId, params.name), message: "Webhook deleted." });
});

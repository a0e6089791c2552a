import { ADMINS } from "@/lib/auth/roles";
import { apiRoute } from "@/lib/http/api-route";
import { webhookDeps } from "@/lib/webhooks/service";
import { regenerateSecret } from "@/lib/webhooks/webhooks";

export const POST = apiRoute<{ name: string }>({ family: "webhook", roles: ADMINS }, async ({ principal, params }) => {
  const data = await regenerateSecret(await webhookDeps(), principal.orgId, params.name);
  return Response.json({ data, message: "Secret regenerated. Save it now: it is not shown again; the old secret no longer signs deliveries." });
});

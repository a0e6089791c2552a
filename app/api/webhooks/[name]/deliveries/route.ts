import { ADMINS } from "@/lib/auth/roles";
import { apiRoute } from "@/lib/http/api-route";
import { parseQuery } from "@/lib/http/validation";
import { listDeliveries } from "@/lib/webhooks/delivery-admin";
import { webhookDeps } from "@/lib/webhooks/service";
import { listDeliveriesQuery } from "@/lib/webhooks/webhooks";

export const GET = apiRoute<{ name: string }>({ family: "webhook", roles: ADMINS }, async ({ req, principal, params }) => {
  const q = parseQuery(listDeliveriesQuery, new URL(req.url).searchParams);
  return Response.json({ data: await listDeliveries((await webhookDeps()).db, principal.orgId, params.name, q) });
});

import { z } from "zod";
import { ADMINS } from "@/lib/auth/roles";
import { apiRoute } from "@/lib/http/api-route";
import { parseJsonBody } from "@/lib/http/validation";
import { testWebhook } from "@/lib/webhooks/delivery";
import { webhookDeps } from "@/lib/webhooks/service";

const body = z.object({ eventType: z.string().trim().min(1).max(100).optional(), payload: z.record(z.string(), z.unknown()).optional() });

export const POST = apiRoute<{ name: string }>({ family: "webhook", roles: ADMINS }, async ({ req, principal, params }) => {
  const input = await parseJsonBody(body, req);
  const data = await testWebhook(await webhookDeps(), principal.orgId, params.name, input);
  return Response.json({ data, message: `Sent a test ${data.deliveries[0]?.eventType ?? "event"} to ${data.summary.total} URL(s).` });
});

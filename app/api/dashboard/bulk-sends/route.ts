import { SENDERS } from "@/lib/auth/roles";
import { bulkSendSchema, createBulkSend, getBulkSend, processBulkSend } from "@/lib/esign/bulk-send";
import { esignDeps } from "@/lib/esign/service";
import { dataResponse } from "@/lib/http/api-route";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { requestMeta } from "@/lib/http/request-meta";
import { parseJsonBody } from "@/lib/http/validation";
import { log } from "@/lib/log";

// The dashboard's bulk send: as POST /esign/bulk-sends, the signed-in user sending; the page follows progress with GET.
export const POST = dashboardRoute({ roles: SENDERS }, async ({ req, ctx }) => {
  const deps = await esignDeps();
  const actor = { orgId: ctx.org.id, userId: ctx.user.id };
  const id = await createBulkSend(deps, actor, await parseJsonBody(bulkSendSchema, req));
  const reply = await getBulkSend(deps.db, ctx.org.id, id);
  void processBulkSend(deps, actor, id, requestMeta(req)).catch((err) => log.error({ bulkSendId: id, err: (err as Error).message }, "bulk send stopped"));
  return dataResponse(reply, { status: 201 });
});

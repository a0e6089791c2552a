import { SENDERS } from "@/lib/auth/roles";
import { bulkSendSchema, createBulkSend, getBulkSend } from "@/lib/esign/bulk-send";
import { esignDeps } from "@/lib/esign/service";
import { dataResponse } from "@/lib/http/api-route";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { requestMeta } from "@/lib/http/request-meta";
import { parseJsonBody } from "@/lib/http/validation";

// The dashboard's bulk send: as POST /esign/bulk-sends, the signed-in user sending; the page follows progress with GET.
export const POST = dashboardRoute({ roles: SENDERS }, async ({ req, ctx }) => {
  const deps = await esignDeps();
  const actor = { orgId: ctx.org.id, userId: ctx.user.id };
  const id = await createBulkSend(deps, actor, await parseJsonBody(bulkSendSchema, req), requestMeta(req));
  return dataResponse(await getBulkSend(deps.db, ctx.org.id, id), { status: 201 });
});

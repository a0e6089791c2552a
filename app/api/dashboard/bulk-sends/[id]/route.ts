import { ANY_ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { getBulkSend, resumeStalledBulkSend } from "@/lib/esign/bulk-send";
import { esignDeps } from "@/lib/esign/service";
import { dataResponse } from "@/lib/http/api-route";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { requestMeta } from "@/lib/http/request-meta";

// Reading a batch also takes up rows left queued by a stopped process (lib/esign/bulk-send.ts).
export const GET = dashboardRoute<{ id: string }>({ roles: ANY_ROLE }, async ({ req, ctx, params }) => {
  await resumeStalledBulkSend(await esignDeps(), ctx.org.id, params.id, requestMeta(req));
  return dataResponse(await getBulkSend(await db(), ctx.org.id, params.id));
});

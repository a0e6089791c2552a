import { ANY_ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { getBulkSend } from "@/lib/esign/bulk-send";
import { dataResponse } from "@/lib/http/api-route";
import { dashboardRoute } from "@/lib/http/dashboard-route";

export const GET = dashboardRoute<{ id: string }>({ roles: ANY_ROLE }, async ({ ctx, params }) =>
  dataResponse(await getBulkSend(await db(), ctx.org.id, params.id)),
);

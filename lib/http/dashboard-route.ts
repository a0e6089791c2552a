// Route handlers the dashboard calls from the browser (uploads with progress, generation, file
// previews): authenticated by the next-auth session instead of an API key.
import { dashboardContext, type DashboardContext } from "@/lib/auth/dashboard";
import { requireFeature, requireRole, type LicenseFeature, type Role } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { UnauthenticatedError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/errors";
import { noteCaller, observed } from "@/lib/http/observe";
import { loadPlan } from "@/lib/orgs/plan";
import type { Plan } from "@/lib/auth/roles";

export interface DashboardRouteContext<P> {
  req: Request;
  ctx: DashboardContext;
  plan: Plan;
  params: P;
}

export function dashboardRoute<P = Record<string, never>>(
  options: { roles: readonly Role[]; feature?: LicenseFeature },
  handler: (c: DashboardRouteContext<P>) => Promise<Response>,
): (req: Request, route: { params: Promise<P> }) => Promise<Response> {
  return observed(async (req: Request, route: { params: Promise<P> }) => {
    try {
      const ctx = await dashboardContext();
      if (!ctx) throw new UnauthenticatedError("Sign in to the dashboard first");
      noteCaller({ orgId: ctx.org.id });
      requireRole(ctx.role, options.roles);
      const plan = await loadPlan(await db(), ctx.org.id);
      if (options.feature) requireFeature(plan, options.feature);
      return await handler({ req, ctx, plan, params: await route.params });
    } catch (err) {
      return errorResponse(err, "deliverable");
    }
  });
}

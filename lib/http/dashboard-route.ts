// Route handlers the dashboard calls from the browser (uploads with progress, generation, file
// previews): authenticated by the next-auth session instead of an API key.
import { dashboardContext, type DashboardContext } from "@/lib/auth/dashboard";
import { loginPath } from "@/lib/auth/login-redirect";
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
      if (!ctx) {
        // A link followed in the browser (a download) gets the login page, then comes back here.
        if (isPageNavigation(req)) return loginRedirect(req);
        throw new UnauthenticatedError("Sign in to the dashboard first");
      }
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

/** A GET the browser makes to show the reply as a page or save it, rather than a script's fetch. */
function isPageNavigation(req: Request): boolean {
  if (req.method !== "GET") return false;
  const dest = req.headers.get("sec-fetch-dest");
  if (dest) return dest === "document";
  return (req.headers.get("accept") ?? "").includes("text/html");
}

function loginRedirect(req: Request): Response {
  const url = new URL(req.url);
  // A relative Location: the server may sit behind a proxy that knows its public origin better.
  return new Response(null, { status: 303, headers: { location: loginPath(url.pathname + url.search), "cache-control": "no-store" } });
}

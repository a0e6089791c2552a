// Wraps a REST route handler: authenticate the key, check role and license feature, apply the
// rate limit, run the handler, and turn any thrown error into the family's contract shape. Logged and
// given a request id by observed().
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { authenticateApiRequest } from "@/lib/auth/authenticate";
import { requireFeature, requireRole, type LicenseFeature, type Role } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { errorResponse, type ErrorFamily } from "@/lib/http/errors";
import { withIdempotency } from "@/lib/http/idempotency";
import { noteCaller, observed } from "@/lib/http/observe";

export interface ApiRouteOptions {
  family: ErrorFamily;
  roles: readonly Role[];
  feature?: LicenseFeature;
  /** Honours an Idempotency-Key header (docs/contract.md "Idempotency"). */
  idempotent?: boolean;
}

export interface ApiContext<P> {
  req: Request;
  principal: ApiPrincipal;
  params: P;
}

type RouteContext<P> = { params: Promise<P> };

export function apiRoute<P = Record<string, never>>(
  options: ApiRouteOptions,
  handler: (ctx: ApiContext<P>) => Promise<Response>,
): (req: Request, ctx: RouteContext<P>) => Promise<Response> {
  return observed(async (req: Request, ctx: RouteContext<P>) => {
    try {
      const principal = await authenticateApiRequest(req.headers);
      noteCaller({ orgId: principal.orgId, keyPrefix: principal.keyPrefix });
      requireRole(principal.role, options.roles);
      if (options.feature) requireFeature(principal.plan, options.feature);
      const params = await ctx.params;
      const run = () => handler({ req, principal, params });
      return await (options.idempotent ? withIdempotency(await db(), principal.orgId, req, run) : run());
    } catch (err) {
      return errorResponse(err, options.family);
    }
  });
}

/** `{ data }` envelope used by every JSON reply of the contract. */
export function dataResponse(data: unknown, init?: ResponseInit): Response {
  return Response.json({ data }, init);
}

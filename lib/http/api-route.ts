// Binds a REST route handler to its operation record (lib/<area>/operations.ts): authenticate the
// key, check the record's roles and license feature, apply the rate limit, honour Idempotency-Key
// where the record says so, run the handler, and turn any thrown error into the record's error
// family. A record that only reads runs while its key is admitted (ADR 0020); one whose first statement
// can carry the admission does so (ADR 0022). Logged and given a request id by observed().
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { identifyApiKey } from "@/lib/auth/authenticate";
import type { FoldedAdmission } from "@/lib/auth/rate-limit";
import { requireFeature, requireRole, samePlan } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { directRoute } from "@/lib/http/direct-route";
import { errorResponse } from "@/lib/http/errors";
import { IDEMPOTENCY_HEADER, withIdempotency } from "@/lib/http/idempotency";
import { parseJsonBody, parseQuery } from "@/lib/http/validation";
import { noteCaller, observed, type ObserveOptions } from "@/lib/http/observe";
import type { Operation, OperationAuth } from "@/lib/openapi/types";
import type { z } from "zod";
import { jsonReply } from "@/lib/http/json-reply";

/** An operation that needs an API key. */
export type KeyedOperation = Operation & { auth: OperationAuth };
/** An operation anyone may call (health, readiness, this API's description). */
export type PublicOperation = Operation & { auth: null };

/** `{id}` segments of an OpenAPI path, as the route's params. */
type ParamNames<S extends string> = S extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never;
export type PathParams<S extends string> = { [K in ParamNames<S>]: string };

type QueryOf<O> = O extends { query: infer Q extends z.ZodType } ? z.output<Q> : never;
type JsonOf<O> = O extends { body: { json: infer B extends z.ZodType } } ? z.output<B> : never;

export interface ApiContext<O extends KeyedOperation> {
  req: Request;
  principal: ApiPrincipal;
  params: PathParams<O["path"]>;
  /** The query string, parsed with the record's query schema (400 on a bad value). */
  query: () => QueryOf<O>;
  /** The JSON body, parsed with the record's JSON body schema (400 on a bad value). Called by the
   *  handler, not before it, so a missing resource can still answer 404 before a bad body's 400. */
  json: () => Promise<JsonOf<O>>;
  /**
   * For a record with foldsAdmission, when the key is not yet admitted: the admission its first statement
   * must carry and settle (ADR 0022); the plan that settle() returns, not the principal's, is this request's.
   */
  admission?: FoldedAdmission;
}

type RouteContext<P> = { params: Promise<P> };

export function apiRoute<O extends KeyedOperation>(
  operation: O,
  handler: (ctx: ApiContext<O>) => Promise<Response>,
): (req: Request, ctx: RouteContext<PathParams<O["path"]>>) => Promise<Response> {
  const { family, roles, feature } = operation.auth;
  const { query: querySchema, body } = operation;
  return directRoute(
    observed(async (req: Request, ctx: RouteContext<PathParams<O["path"]>>) => {
      try {
        const key = await identifyApiKey(req.headers);
        noteCaller({ orgId: key.assumed.orgId, keyPrefix: key.assumed.keyPrefix });
        const params = await ctx.params;
        const query = () => parseQuery(mustHave(querySchema, operation, "query"), new URL(req.url).searchParams) as QueryOf<O>;
        const json = () => parseJsonBody(mustHave(body?.json, operation, "JSON body"), req) as Promise<JsonOf<O>>;
        const run = (principal: ApiPrincipal, admission?: FoldedAdmission) => handler({ req, principal, params, query, json, admission });
        // The admission carried by the handler's first statement (ADR 0022), where the database can carry
        // it; a record that also only reads runs ahead of its admission otherwise (below). Not for a record
        // with a license feature (its 403 depends on the fresh plan) nor a request with an Idempotency-Key
        // (its replay must come after the admission).
        const folded =
          operation.foldsAdmission && !feature && key.mayRunAhead && !req.headers.has(IDEMPOTENCY_HEADER) && permitted(key.assumed) ? key.fold() : null;
        if (folded) {
          const result = await outcome(run(key.assumed, folded));
          await key.admit(); // its 401 or 429 comes first, whatever the handler answered
          return unwrap(result);
        }
        if (operation.readsOnly && key.mayRunAhead && permitted(key.assumed)) {
          // Read while the key is admitted (one database round trip less); answered only once it is.
          const admitted = key.admit();
          const ahead = outcome(run(key.assumed));
          const principal = await admitted;
          if (samePlan(principal.plan, key.assumed.plan)) return await ahead.then(unwrap);
          // The plan changed since it was last read here: read again (below) under the new one.
          ahead.then(discard);
        }
        const principal = await key.admit();
        authorize(principal);
        return await (operation.idempotent ? withIdempotency(await db(), principal.orgId, req, () => run(principal)) : run(principal));
      } catch (err) {
        return errorResponse(err, family);
      }
    }),
  );

  /** The record's roles and license feature: the 403 the caller gets. */
  function authorize(principal: ApiPrincipal): void {
    requireRole(principal.role, roles);
    if (feature) requireFeature(principal.plan, feature);
  }
  /** authorize() without throwing: before the admission, whose 401 or 429 comes before any 403. */
  function permitted(principal: ApiPrincipal): boolean {
    try {
      authorize(principal);
      return true;
    } catch {
      return false;
    }
  }
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };
const outcome = <T>(p: Promise<T>): Promise<Outcome<T>> =>
  p.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
function unwrap<T>(o: Outcome<T>): T {
  if (!o.ok) throw o.error;
  return o.value;
}
/** A reply made under a plan that changed meanwhile: its body is never read. */
function discard(o: Outcome<Response>): void {
  if (o.ok) void o.value.body?.cancel().catch(() => {});
}

function mustHave<T>(schema: T | undefined, operation: Operation, what: string): T {
  // The types already forbid it; this guards a record edited without its route.
  if (!schema) throw new Error(`${operation.operationId} declares no ${what} schema`);
  return schema;
}

/** Binds a keyless route handler to its operation record. */
export function publicRoute<A extends unknown[]>(
  _operation: PublicOperation,
  handler: (req: Request, ...rest: A) => Promise<Response>,
  options?: ObserveOptions,
): (req: Request, ...rest: A) => Promise<Response> {
  return directRoute(observed(handler, options));
}

/** `{ data }` envelope used by every JSON reply of the contract. */
export function dataResponse(data: unknown, init?: ResponseInit): Response {
  return jsonReply({ data }, init);
}

// A route handler that needs nothing of Next.js's request context (no next/headers, cookies(),
// redirect() or after()): it reads its web Request and answers a Response. Quire's server
// (scripts/quire-server.cjs, ADR 0025) calls such a handler itself instead of going through Next.js's
// request pipeline. apiRoute and publicRoute mark theirs; the dashboard's and the signing page's
// handlers, which read the session through next-auth, are left to Next.js.

/** The marker; scripts/quire-server.cjs looks for the same registered symbol (a unit test holds them in step). */
export const DIRECT_ROUTE = Symbol.for("quire.direct-route");

/** Marks `handler` as callable outside Next.js's request pipeline, and returns it. */
export function directRoute<A extends unknown[]>(handler: (req: Request, ...rest: A) => Promise<Response>): (req: Request, ...rest: A) => Promise<Response> {
  Object.defineProperty(handler, DIRECT_ROUTE, { value: true });
  return handler;
}

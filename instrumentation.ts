import type { Instrumentation } from "next";

export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { onServerStart } = await import("@/lib/server/startup");
    await onServerStart();
  }
}

// Errors while rendering a page or running a server action, as a JSON line with the request id.
// Route handlers log their own (lib/http/observe.ts). The route pattern is logged, never the path,
// which may hold a signing token.
export const onRequestError: Instrumentation.onRequestError = async (err, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs" || context.routeType === "route") return;
  const [{ log }, { REQUEST_ID_HEADER, saneRequestId }] = await Promise.all([import("@/lib/log"), import("@/lib/http/request-id")]);
  const reqId = saneRequestId(request.headers[REQUEST_ID_HEADER]) ?? undefined;
  log.error({ err, reqId, method: request.method, route: context.routePath, routeType: context.routeType }, "request failed");
};

// Every route handler runs through observed(): it opens the request's log context (so each line the
// handler and the domain code write carries reqId), returns X-Request-Id, and writes one access-log
// line per request. apiRoute() and dashboardRoute() use it; other handlers wrap their exports in it.
import { loggablePath, REQUEST_ID_HEADER, requestIdFrom } from "@/lib/http/request-id";
import { refuseMalformedUrl } from "@/lib/http/url-guard";
import { accessLog, log, requestContext, runWithRequestContext, type RequestContext } from "@/lib/log";

export interface ObserveOptions {
  /** Level of the access-log line: probes polled every few seconds use "debug". */
  accessLog?: "info" | "debug";
}

export function observed<A extends unknown[]>(
  handler: (req: Request, ...rest: A) => Response | Promise<Response>,
  options: ObserveOptions = {},
): (req: Request, ...rest: A) => Promise<Response> {
  const level = options.accessLog ?? "info";
  return async (req, ...rest) => {
    // proxy.ts has already replaced a missing or unsafe incoming id; this covers requests it skipped.
    const context: RequestContext = { reqId: requestIdFrom(req.headers) };
    const started = performance.now();
    let status = 500;
    return runWithRequestContext(context, async () => {
      try {
        const res = withRequestId(refuseMalformedUrl(req.url) ?? (await handler(req, ...rest)), context.reqId);
        status = res.status;
        return res;
      } catch (err) {
        // Next.js answers 500 itself; the error is logged here so the line carries the request id.
        log.error({ err }, "unhandled error");
        throw err;
      } finally {
        // Duration to the response head; a streamed body may take longer. Path without query or tokens.
        accessLog[level](
          {
            method: req.method,
            path: loggablePath(req.url),
            status,
            durationMs: Math.round(performance.now() - started),
            orgId: context.orgId,
            keyPrefix: context.keyPrefix,
          },
          "request",
        );
      }
    });
  };
}

/** Records who is calling, once authenticated, for the access log. */
export function noteCaller(caller: { orgId: string; keyPrefix?: string }): void {
  const context = requestContext();
  if (context) Object.assign(context, caller);
}

function withRequestId(res: Response, reqId: string): Response {
  try {
    res.headers.set(REQUEST_ID_HEADER, reqId);
    return res;
  } catch {
    // Immutable headers (Response.redirect, a proxied fetch response): copy the response.
    const copy = new Response(res.body, res);
    copy.headers.set(REQUEST_ID_HEADER, reqId);
    return copy;
  }
}

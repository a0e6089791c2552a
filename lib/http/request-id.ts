// Request ids and log-safe request paths. Kept free of Node-only imports: proxy.ts uses it too.

export const REQUEST_ID_HEADER = "x-request-id";

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The value when it is safe to echo and log as a request id (1-128 of A-Z a-z 0-9 . _ : -). */
export function saneRequestId(value: unknown): string | null {
  return typeof value === "string" && SANE_ID.test(value) ? value : null;
}

/** The caller's X-Request-Id when it is safe to echo and log, else a fresh one. */
export function requestIdFrom(headers: Headers): string {
  return saneRequestId(headers.get(REQUEST_ID_HEADER)) ?? crypto.randomUUID();
}

// Path segments that are credentials: signing-link tokens (/sign/<token>, /api/signer/<token>/…),
// masked wherever they appear so a mistyped path cannot leak one either.
const TOKEN_IN_PATH = /\/(sign|signer)\/(?!open(?:\/|$))[^/]+/g;

/**
 * The request path as it may appear in a log: no query string (signing tokens ride in `?token=`,
 * page images in `?s=`), token segments replaced by `:token`.
 */
export function loggablePath(url: string): string {
  let pathname: string;
  try {
    // Relative paths get a base prepended, so "//host/…" cannot be read as a host.
    pathname = new URL(url.startsWith("/") ? `http://x${url}` : url).pathname;
  } catch {
    return "(unparsable)";
  }
  return pathname.replace(TOKEN_IN_PATH, "/$1/:token").slice(0, 300);
}

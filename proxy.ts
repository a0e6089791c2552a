// Runs before page requests and before any request whose path holds a `%` (see the matcher):
// - Request ids: a sane incoming X-Request-Id is kept, anything else replaced by a fresh one; it is
//   passed on to the page or handler and returned on pages and Next.js's own error pages (API replies
//   get theirs from observed(), lib/http/observe.ts).
// - Malformed URLs: a path segment or query parameter that is not valid percent-encoding, or that
//   decodes to a NUL or a lone surrogate, is answered 400 here in the endpoint family's shape (Next.js
//   would otherwise fail with a plain-text 500 before any route runs).
// - Framing policy for the hosted signing page: Content-Security-Policy frame-ancestors from the
//   organization's allowedFrameAncestors (docs/contract.md "Embedded signing"). Page components cannot set response
//   headers, so it is decided here, before the page renders.
import { NextResponse, type NextRequest } from "next/server";
import { PAGE_PATH_HEADER } from "@/lib/auth/login-redirect";
import { db } from "@/lib/db/client";
import { frameAncestorsForToken, frameAncestorsHeader } from "@/lib/esign/framing";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/lib/http/request-id";
import { refuseMalformedUrl } from "@/lib/http/url-guard";

const SIGNING_PAGE = /^\/sign\/([^/]+)$/;

export async function proxy(req: NextRequest) {
  const reqId = requestIdFrom(req.headers);
  // The raw URL: Next.js's parsed one may already have tried (and failed) to decode it.
  const refused = refuseMalformedUrl(req.url);
  if (refused) {
    refused.headers.set(REQUEST_ID_HEADER, reqId);
    return refused;
  }
  const headers = new Headers(req.headers);
  headers.set(REQUEST_ID_HEADER, reqId);
  // For the login redirect of a signed-out dashboard page (lib/auth/dashboard.ts): where to come back to.
  headers.set(PAGE_PATH_HEADER, req.nextUrl.pathname + req.nextUrl.search);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set(REQUEST_ID_HEADER, reqId);

  const token = SIGNING_PAGE.exec(req.nextUrl.pathname)?.[1];
  if (token && token !== "open") {
    const origins = await frameAncestorsForToken(await db(), token);
    if (origins) res.headers.set("content-security-policy", frameAncestorsHeader(origins));
  }
  return res;
}

// Where it runs: pages (request id, framing policy) and any path holding a `%` (a segment Next.js cannot
// decode fails with a plain-text 500 before any route runs). Not API requests otherwise: invoking a proxy
// roughly doubles Next.js's own cost per request (0.8 ms of CPU on a bare route, measured by `npm run
// bench`), and every route handler already sets the request id and refuses malformed URLs in observed()
// (lib/http/observe.ts). Not for build assets (immutable files), and not for requests with a large or
// streamed body: Next.js hands a proxy a copy of the body, buffering all of it (and cutting it at 10 MB)
// before the route runs, which would break streamed uploads. The literals must stay inline: Next.js reads
// them statically; the API prefixes are lib/http/families.ts's (a unit test holds them in step).
export const config = {
  matcher: [
    {
      source: "/((?!_next/static|_next/image|favicon.ico|(?:api|v1|esign|turbosign|tag|template|template-item|template-folder|embed\\.js)(?:/|$)).*)",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    {
      source: "/((?!_next/static|_next/image|favicon.ico|(?:api|v1|esign|turbosign|tag|template|template-item|template-folder|embed\\.js)(?:/|$)).*)",
      has: [{ type: "header", key: "content-length", value: "\\d{1,6}" }],
      missing: [{ type: "header", key: "transfer-encoding" }],
    },
    {
      source: "/(.*%.*)",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    { source: "/(.*%.*)", has: [{ type: "header", key: "content-length", value: "\\d{1,6}" }], missing: [{ type: "header", key: "transfer-encoding" }] },
  ],
};

// Runs before every request except build assets and large uploads (see the matcher):
// - Request ids: a sane incoming X-Request-Id is kept, anything else replaced by a fresh one; it is
//   passed on to the handler (route wrappers log with it) and returned on every response, pages,
//   API replies and Next.js's own error pages alike.
// - Malformed URLs: a path segment or query parameter that is not valid percent-encoding, or that
//   decodes to a NUL or a lone surrogate, is answered 400 here in the endpoint family's shape (Next.js
//   would otherwise fail with a plain-text 500 before any route runs).
// - Framing policy for the hosted signing page: Content-Security-Policy frame-ancestors from the
//   organization's allowedFrameAncestors (docs/contract.md "Embedded signing"). Page components cannot set response
//   headers, so it is decided here, before the page renders.
import { NextResponse, type NextRequest } from "next/server";
import { db } from "@/lib/db/client";
import { frameAncestorsForToken, frameAncestorsHeader } from "@/lib/esign/framing";
import { errorResponse } from "@/lib/http/errors";
import { familyOfPath } from "@/lib/http/families";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/lib/http/request-id";
import { refuseUnstorable, urlProblems } from "@/lib/http/text-safety";

const SIGNING_PAGE = /^\/sign\/([^/]+)$/;

export async function proxy(req: NextRequest) {
  const reqId = requestIdFrom(req.headers);
  const refused = malformedUrl(req);
  if (refused) {
    refused.headers.set(REQUEST_ID_HEADER, reqId);
    return refused;
  }
  const headers = new Headers(req.headers);
  headers.set(REQUEST_ID_HEADER, reqId);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set(REQUEST_ID_HEADER, reqId);

  const token = SIGNING_PAGE.exec(req.nextUrl.pathname)?.[1];
  if (token && token !== "open") {
    const origins = await frameAncestorsForToken(await db(), token);
    if (origins) res.headers.set("content-security-policy", frameAncestorsHeader(origins));
  }
  return res;
}

function malformedUrl(req: NextRequest): Response | null {
  // The raw URL: Next.js's parsed one may already have tried (and failed) to decode it.
  const url = new URL(req.url);
  try {
    refuseUnstorable(urlProblems(url));
    return null;
  } catch (err) {
    const family = familyOfPath(url.pathname);
    if (family) return errorResponse(err, family);
    return new Response("Bad request: the address is not a valid URL.", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
}

// Not for build assets (immutable files), and not for requests with a large or streamed body: Next.js
// hands a proxy a copy of the body, buffering all of it (and cutting it at 10 MB) before the route
// runs, which would break streamed uploads. Those are all route handlers, where observed()
// (lib/http/observe.ts) gives them their id. The literals must stay inline: Next.js reads them statically.
export const config = {
  matcher: [
    { source: "/((?!_next/static|_next/image|favicon.ico).*)", missing: [{ type: "header", key: "content-length" }, { type: "header", key: "transfer-encoding" }] },
    { source: "/((?!_next/static|_next/image|favicon.ico).*)", has: [{ type: "header", key: "content-length", value: "\\d{1,6}" }], missing: [{ type: "header", key: "transfer-encoding" }] },
  ],
};

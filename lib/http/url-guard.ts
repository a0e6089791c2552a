// A URL whose path or query does not decode to text PostgreSQL can store (bad percent-encoding, NUL,
// a lone surrogate) is answered 400 before anything runs: in the endpoint family's shape for API paths,
// as plain text for pages. proxy.ts applies it where Next.js would fail first (a path holding a `%`),
// observed() on every route handler (the proxy does not run for most API requests: issue 17, goal 3).
import { errorResponse } from "@/lib/http/errors";
import { familyOfPath } from "@/lib/http/families";
import { refuseUnstorable, urlProblems } from "@/lib/http/text-safety";

/** The 400 for a malformed URL, or null when it is fine (most URLs hold no `%`, and are not parsed again). */
export function refuseMalformedUrl(rawUrl: string): Response | null {
  if (!rawUrl.includes("%")) return null;
  const url = new URL(rawUrl);
  try {
    refuseUnstorable(urlProblems(url));
    return null;
  } catch (err) {
    const family = familyOfPath(url.pathname);
    if (family) return errorResponse(err, family);
    return new Response("Bad request: the address is not a valid URL.", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
}

// GET /embed.js: the embed script (lib/sdk/embed.ts, bundled at build time by scripts/build-embed.mjs).
// Public, no credentials: any site may load it (CORS *, cross-origin resource policy). Cached for a
// short while and revalidated by ETag, so a redeploy reaches embedding pages within minutes.
import { bundle, etag } from "@/lib/sdk/embed-bundle.generated";
import { observed } from "@/lib/http/observe";

const HEADERS = {
  "content-type": "text/javascript; charset=utf-8",
  "cache-control": "public, max-age=300, stale-while-revalidate=86400",
  etag,
  "access-control-allow-origin": "*",
  "cross-origin-resource-policy": "cross-origin",
  "x-content-type-options": "nosniff",
};

export const GET = observed(function GET(req: Request): Response {
  const match = req.headers.get("if-none-match");
  if (match?.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers: HEADERS });
  return new Response(bundle, { status: 200, headers: HEADERS });
});

// Quire's server (scripts/quire-server.cjs, ADR 0025): which requests it hands to a route handler itself,
// and which handlers may be called that way. What it serves is driven over HTTP by every integration
// test (tests/support/quire-server.ts starts it) and by tests/integration/server.test.ts.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { apiRoute, publicRoute } from "@/lib/http/api-route";
import { DIRECT_ROUTE } from "@/lib/http/direct-route";
import { JSON_TEXT } from "@/lib/http/json-reply";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { serviceOperations } from "@/lib/server/operations";
import { signingOperations } from "@/lib/esign/operations";

interface RouteTarget {
  file: string;
  params: Record<string, string>;
}
const server = createRequire(import.meta.url)("../../scripts/quire-server.cjs") as {
  DIRECT_ROUTE: symbol;
  JSON_TEXT: symbol;
  routeTree: (manifest: Record<string, string>, file: (entry: string) => string) => unknown;
  prefixRewrites: (rewrites: unknown) => [string, string][];
  matcher: (tree: unknown, rewrites: [string, string][]) => (pathname: string) => RouteTarget | null;
};

// As the build writes them: app-path-routes-manifest.json and routes-manifest.json's rewrites.
const manifest = {
  "/esign/documents/route": "/esign/documents",
  "/esign/documents/[id]/route": "/esign/documents/[id]",
  "/esign/documents/[id]/signing-url/route": "/esign/documents/[id]/signing-url",
  "/esign/single/prepare-for-signing/route": "/esign/single/prepare-for-signing",
  "/template/[id]/route": "/template/[id]",
  "/template/[id]/copy/route": "/template/[id]/copy",
  "/template/folder/items/route": "/template/folder/items",
  "/api/auth/[...nextauth]/route": "/api/auth/[...nextauth]",
  "/(dashboard)/deliverables/[id]/page": "/deliverables/[id]",
};
const rewrites = {
  beforeFiles: [],
  afterFiles: [
    { source: "/turbosign/:path*", destination: "/esign/:path*", regex: "^/turbosign(?:/(.*))?$" },
    { source: "/favicon.ico", destination: "/favicon.svg", regex: "^/favicon\\.ico$" },
    { source: "/old/:path*", destination: "/esign/:path*", has: [{ type: "header", key: "x-old" }] },
  ],
  fallback: [],
};
const match = server.matcher(
  server.routeTree(manifest, (entry) => `app${entry}.js`),
  server.prefixRewrites(rewrites),
);

describe("Quire's server: which route a path reaches", () => {
  it("finds static routes and fills a segment's param", () => {
    expect(match("/esign/documents")).toEqual({ file: "app/esign/documents/route.js", params: {} });
    expect(match("/esign/documents/d-1/signing-url")).toEqual({ file: "app/esign/documents/[id]/signing-url/route.js", params: { id: "d-1" } });
  });

  it("ranks a static segment before a param, and falls back to the param when the static branch has no route", () => {
    expect(match("/template/folder/items")?.file).toBe("app/template/folder/items/route.js");
    expect(match("/template/folder")).toEqual({ file: "app/template/[id]/route.js", params: { id: "folder" } });
    expect(match("/template/folder/copy")).toEqual({ file: "app/template/[id]/copy/route.js", params: { id: "folder" } });
  });

  it("follows next.config.ts's prefix rewrite (the hosted service's /turbosign paths), and no conditional one", () => {
    expect(match("/turbosign/documents/d-2")).toEqual({ file: "app/esign/documents/[id]/route.js", params: { id: "d-2" } });
    expect(match("/old/documents")).toBeNull();
    expect(match("/favicon.ico")).toBeNull();
  });

  it("leaves to Next.js what it handles itself: pages, catch-alls, trailing slashes, encoded paths, unknown paths", () => {
    for (const pathname of ["/deliverables/x", "/api/auth/session", "/esign/documents/", "/esign/documents/d%2F1", "/esign/nothing/here", "/", "/esign"])
      expect(match(pathname), pathname).toBeNull();
  });

  it("leaves to Next.js the paths it redirects to their normal form: empty and dot segments", () => {
    for (const pathname of [
      "//esign/documents",
      "/esign//documents",
      "/turbosign//documents",
      "/esign/documents/.",
      "/esign/documents/..",
      "/esign/./documents",
      "/x/../esign/documents",
    ])
      expect(match(pathname), pathname).toBeNull();
    // A dot inside a segment is an ordinary character.
    expect(match("/esign/documents/d.1")).toEqual({ file: "app/esign/documents/[id]/route.js", params: { id: "d.1" } });
    expect(match("/esign/documents/..d")).toEqual({ file: "app/esign/documents/[id]/route.js", params: { id: "..d" } });
  });
});

describe("Quire's server: which handlers it calls itself", () => {
  it("uses the marker lib/http/direct-route.ts declares, and the symbol lib/http/json-reply.ts keeps a reply's text under", () => {
    expect(server.DIRECT_ROUTE).toBe(DIRECT_ROUTE);
    expect(server.JSON_TEXT).toBe(JSON_TEXT);
  });

  it("calls the REST API's handlers, not the dashboard's (they read the session through Next.js)", () => {
    const marked = (handler: object) => (handler as Record<symbol, unknown>)[DIRECT_ROUTE] === true;
    expect(marked(apiRoute(signingOperations.listSigningDocuments, async () => new Response()))).toBe(true);
    expect(marked(publicRoute(serviceOperations.getOpenApiDocument, async () => new Response()))).toBe(true);
    expect(marked(dashboardRoute({ roles: ["administrator"] }, async () => new Response()))).toBe(false);
  });
});

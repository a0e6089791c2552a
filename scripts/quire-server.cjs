// Quire's HTTP server (ADR 0025). Next.js serves everything, as `next start` would, except a request
// for a route handler marked direct (lib/http/direct-route.ts: apiRoute and publicRoute, the REST API),
// which is handed to that handler here. Next.js's request pipeline (routing, its web Request, its async
// contexts and the reply's streaming) costs about as much CPU as the API work itself: 0.75-1.0 ms of a
// 1.1-2.5 ms request (docs/performance.md, 2026-12-02 (evening)). The handler called is the one Next.js
// compiled and loads itself, the same module instance (Node's require cache), so the database pools,
// caches and background workers are one per process, as before.
//
// Plain CommonJS: it runs as it is, from the repository (scripts/serve.sh) and from the Docker image's
// standalone output (copied beside its server.js). Usage: node quire-server.cjs [-p port] [-H hostname].
"use strict";
const fs = require("node:fs");
const http = require("node:http");
const path = require("node:path");
const { Readable } = require("node:stream");
const { pipeline } = require("node:stream/promises");

/** The marker lib/http/direct-route.ts puts on a handler that needs nothing of Next.js's request context. */
const DIRECT_ROUTE = Symbol.for("quire.direct-route");
/** Where lib/http/json-reply.ts keeps a JSON reply's text beside its Response. */
const JSON_TEXT = Symbol.for("quire.json-text");

/** The app's directory: this file's own in the standalone output, the repository's otherwise. */
const dir = fs.existsSync(path.join(__dirname, ".next")) ? __dirname : path.resolve(__dirname, "..");

function option(short, long) {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    if (args[i] === short || args[i] === long) return args[i + 1];
    if (args[i].startsWith(`${long}=`)) return args[i].slice(long.length + 1);
  }
  return undefined;
}

const port = Number(option("-p", "--port") ?? process.env.PORT ?? 3000);
const hostname = option("-H", "--hostname") ?? process.env.HOSTNAME ?? undefined;
/** The hostname Next.js is told it serves (its x-forwarded-host when a request has no Host). */
const nextHostname = hostname ?? "localhost";

/** A JSON file of the build, or undefined when the build did not write it. */
function buildFile(name) {
  const file = path.join(dir, ".next", name);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;
}

const emptyNode = () => ({ static: new Map(), param: null, file: null });

/**
 * The route handlers' URL patterns from the build's app-path-routes-manifest.json (`/a/[id]/route` ->
 * `/a/[id]`), as a tree of path segments; `file(entry)` names an entry's compiled module. Catch-all
 * segments are left to Next.js.
 */
function routeTree(manifest, file) {
  const root = emptyNode();
  for (const [entry, pattern] of Object.entries(manifest)) {
    if (!entry.endsWith("/route") || pattern.includes("[...") || pattern.includes("[[")) continue;
    let node = root;
    for (const segment of pattern.split("/").filter(Boolean)) {
      const param = /^\[(\w+)\]$/.exec(segment)?.[1];
      if (param) {
        node.param ??= { name: param, node: emptyNode() };
        node = node.param.node;
      } else {
        if (!node.static.has(segment)) node.static.set(segment, emptyNode());
        node = node.static.get(segment);
      }
    }
    node.file = file(entry);
  }
  return root;
}

/** The prefix rewrites (`/a/:path*` -> `/b/:path*`) among the build's routes-manifest.json rewrites. */
function prefixRewrites(rewrites) {
  const all = Array.isArray(rewrites) ? rewrites : [...(rewrites?.beforeFiles ?? []), ...(rewrites?.afterFiles ?? [])];
  const prefix = /^(\/[\w.-]+)\/:path\*$/;
  return all.flatMap((r) => {
    const from = prefix.exec(r.source)?.[1];
    const to = prefix.exec(r.destination)?.[1];
    return from && to && !r.has && !r.missing ? [[`${from}/`, `${to}/`]] : [];
  });
}

/**
 * Paths Next.js answers before any route: one holding `%` (proxy.ts refuses malformed ones) and ones it
 * redirects to their normal form (308): an empty segment (`//`), a dot segment (`/./`, `/../`), a
 * trailing `/`.
 */
const LEFT_TO_NEXT = /%|\/\/|\/\.\.?(?:\/|$)|.\/$/;

/**
 * A path's route file and params, or null: static segments before a `[param]`, as Next.js ranks them.
 * Paths Next.js answers first (LEFT_TO_NEXT) are left to it.
 */
function matcher(tree, rewrites) {
  return (pathname) => {
    if (LEFT_TO_NEXT.test(pathname)) return null;
    for (const [from, to] of rewrites) if (pathname.startsWith(from)) pathname = to + pathname.slice(from.length);
    const walk = (node, segments, i) => {
      if (i === segments.length) return node.file ? { file: node.file, params: {} } : null;
      const child = node.static.get(segments[i]);
      const found = child && walk(child, segments, i + 1);
      if (found || !node.param) return found ?? null;
      const below = walk(node.param.node, segments, i + 1);
      if (below) below.params[node.param.name] = segments[i];
      return below;
    };
    return walk(tree, pathname.split("/").filter(Boolean), 0);
  };
}

/** Route modules by file: their methods, once Next.js's module has loaded its handlers. */
const handlers = new Map();

async function directHandler(file, method) {
  let methods = handlers.get(file);
  if (!methods) {
    const { routeModule } = require(file);
    await routeModule.ensureUserland();
    methods = routeModule.userland;
    handlers.set(file, methods);
  }
  const handler = methods[method];
  return typeof handler === "function" && handler[DIRECT_ROUTE] === true ? handler : null;
}

/** A Host header fit for a URL; anything else is read as localhost (handlers read only path and query). */
const SANE_HOST = /^(?:[\w.-]+|\[[\da-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The web Request Next.js would give the handler, its signal aborted when the client leaves (a create
 * then answers 499 and removes what it wrote); null when the request cannot be one (Next.js answers it).
 */
function webRequest(req, res) {
  let url;
  const headers = new Headers();
  try {
    url = new URL(req.url, `http://${SANE_HOST.test(req.headers.host ?? "") ? req.headers.host : "localhost"}`);
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  } catch {
    return null;
  }
  // What Next.js adds to every request its handlers see, unless a proxy in front set them (its
  // base-server.js): the client's address is the audit trail's when no proxy names one.
  const https = (req.headers["x-forwarded-proto"] ?? (req.socket.encrypted ? "https" : "http")) === "https";
  const forwarded = {
    "x-forwarded-host": req.headers.host ?? nextHostname,
    "x-forwarded-port": String(port),
    "x-forwarded-proto": https ? "https" : "http",
    "x-forwarded-for": req.socket.remoteAddress,
  };
  for (const [name, value] of Object.entries(forwarded)) if (value !== undefined && !headers.has(name)) headers.set(name, value);
  const left = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) left.abort();
  });
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? Readable.toWeb(req) : undefined,
    duplex: hasBody ? "half" : undefined,
    signal: left.signal,
  });
}

/** Calls a direct handler with the request, as Next.js would, and writes its Response; false if Next.js must answer. */
async function serveDirect(handler, params, req, res, compress) {
  const request = webRequest(req, res);
  if (!request) return false;
  let response;
  try {
    response = await handler(request, { params: Promise.resolve(params) });
  } catch {
    // observed() has logged it with the request id; Next.js answers a thrown handler the same way.
    if (!res.headersSent) res.writeHead(500).end();
    return true;
  }
  // Compressed as Next.js compresses its own replies (its copy of `compression`, unless next.config.ts
  // says `compress: false`): gzip for a client that accepts it, above 1 KB.
  compress?.(req, res, () => {});
  const out = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") out[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  // A JSON reply's text as jsonReply() wrote it, while its body is unread: written as it is, in one
  // piece with its length, and the body stream left unread (reading it back cost more than the
  // JSON.stringify that made it).
  const text = response.bodyUsed ? undefined : response[JSON_TEXT];
  if (typeof text === "string") {
    out["content-length"] = String(Buffer.byteLength(text));
    res.writeHead(response.status, out);
    res.end(req.method === "HEAD" ? undefined : text);
    return true;
  }
  res.writeHead(response.status, out);
  if (!response.body || req.method === "HEAD") {
    res.end();
    return true;
  }
  // Other JSON replies are built in memory too: written in one piece. Files stream.
  if (response.headers.get("content-type")?.startsWith("application/json")) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return true;
  }
  await pipeline(Readable.fromWeb(response.body), res).catch(() => {
    // The client left mid-file: the stream is cancelled, nothing to answer.
  });
  return true;
}

async function main() {
  // Paths Quire reads at run time (migrations, the UNO helper, the native cache) are the app's.
  process.chdir(dir);
  // The config the build resolved, as the standalone output's server.js passes it: the standalone
  // output cannot load next.config.ts (its compiler is not traced), and the server runs what was built.
  const conf = buildFile("required-server-files.json")?.config;
  if (conf) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(conf);
  const next = require(require.resolve("next", { paths: [dir] }));
  const app = next({ dir, dev: false, hostname: nextHostname, port, ...(conf ? { conf } : {}) });
  await app.prepare();
  const nextHandle = app.getRequestHandler();
  const compress = conf?.compress === false ? null : require(require.resolve("next/dist/compiled/compression", { paths: [dir] }))();

  const match = matcher(
    routeTree(buildFile("app-path-routes-manifest.json") ?? {}, (entry) => path.join(dir, ".next", "server", "app", `${entry}.js`)),
    prefixRewrites(buildFile("routes-manifest.json")?.rewrites),
  );
  const server = http.createServer(async (req, res) => {
    try {
      const q = req.url.indexOf("?");
      const target = req.url.startsWith("/") ? match(q < 0 ? req.url : req.url.slice(0, q)) : null;
      const handler = target && (await directHandler(target.file, req.method));
      if (!handler || !(await serveDirect(handler, target.params, req, res, compress))) await nextHandle(req, res);
    } catch (err) {
      console.error(err);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    }
  });
  const keepAlive = Number.parseInt(process.env.KEEP_ALIVE_TIMEOUT ?? "", 10);
  if (Number.isFinite(keepAlive) && keepAlive >= 0) server.keepAliveTimeout = keepAlive;
  server.listen(port, hostname, () => {
    console.log(`Quire listening on http://${nextHostname}:${port}`);
  });
}

module.exports = { DIRECT_ROUTE, JSON_TEXT, routeTree, prefixRewrites, matcher };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

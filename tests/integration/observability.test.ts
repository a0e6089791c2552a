// Observability over HTTP against the built server (own instance, LOG_LEVEL=info): every response
// carries an X-Request-Id (the caller's when sane, a fresh one otherwise), every API request leaves
// one JSON access-log line with that id, domain log lines written while serving carry it too, and no
// credential that requests carry (API key, cookie, signing token, passcode, signer session) reaches
// the log file. Quire's server answers the REST API itself and leaves the rest to Next.js. Last, with no
// NEXT_MANUAL_SIG_HANDLE set, the server shuts down cleanly on SIGTERM.
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { as, call } from "../support/api";
import { latestMailTo, orgWith, passcodeApi, prepareDoc, signingUrlOf, tokenOfUrl } from "../support/embedded";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let quire: RunningQuire;
let smtpPort: number;

type LogLine = {
  level: number;
  msg: string;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  durationMs?: number;
  orgId?: string;
  keyPrefix?: string;
  [k: string]: unknown;
};

const logText = () => fs.readFileSync(path.join(quire.server.dataDir, "server.log"), "utf8");
const logLines = (): LogLine[] =>
  logText()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as LogLine);
/** The access-log lines of one request id (waits briefly: the line is written as the reply leaves). */
const accessLines = (reqId: string) =>
  vi.waitFor(
    () => {
      const lines = logLines().filter((l) => l.reqId === reqId && l.msg === "request");
      expect(lines.length).toBeGreaterThan(0);
      return lines;
    },
    { timeout: 5_000, interval: 50 },
  );

beforeAll(async () => {
  // A closed port: every email fails to send, which the mailer logs (inside the request) and records.
  smtpPort = await new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
  quire = await startQuireServer((process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase, {
    extraEnv: { LOG_LEVEL: "info", SMTP_URL: `smtp://127.0.0.1:${smtpPort}` },
  });
});

afterAll(async () => {
  await quire?.stop();
});

describe(`request ids and access logs (${process.env.QUIRE_TEST_DB ?? "pglite"})`, () => {
  it("echoes a sane X-Request-Id and makes one up otherwise, on REST replies, errors and pages", async () => {
    const { baseUrl, seed } = quire.server;
    const api = as(baseUrl, seed);
    const sent = (id: string) => ({ headers: { "x-request-id": id } });

    const ok = await api("/api/whoami", sent("obs-ok.1:A_b"));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toBe("obs-ok.1:A_b");
    const okFresh = await api("/api/whoami");
    expect(okFresh.headers.get("x-request-id")).toMatch(UUID);

    const unauthenticated = await call(baseUrl, "/api/whoami", sent("obs-401"));
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("x-request-id")).toBe("obs-401");
    const invalid = await api("/template-folder", { method: "POST", body: { name: 42 } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("x-request-id")).toMatch(UUID);
    const missing = await api("/v1/deliverable/00000000-0000-0000-0000-000000000000", sent("obs-404"));
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-request-id")).toBe("obs-404");

    // A large body: the proxy leaves it alone (Next.js would buffer it), the route wrapper sets the id.
    const big = { name: "x".repeat(1_500_000) };
    const largeSent = await api("/template-folder", { method: "POST", body: big, headers: { "x-request-id": "obs-large" } });
    expect(largeSent.status).toBe(400);
    expect(largeSent.headers.get("x-request-id")).toBe("obs-large");
    expect((await api("/template-folder", { method: "POST", body: big })).headers.get("x-request-id")).toMatch(UUID);
    expect((await api("/template-folder", { method: "POST", body: big, headers: { "x-request-id": "bad id" } })).headers.get("x-request-id")).toMatch(UUID);

    // Pages: the login page, the dashboard (redirects to it), an unknown path, the signing page.
    for (const [p, status] of [
      ["/login", 200],
      ["/", 307],
      ["/no-such-page", 404],
      ["/sign/not-a-real-token-0123456789", 200],
    ] as const) {
      const page = await call(baseUrl, p, { headers: { accept: "text/html", "x-request-id": `obs-page-${status}` } });
      expect([p, page.status]).toEqual([p, status]);
      expect([p, page.headers.get("x-request-id")]).toEqual([p, `obs-page-${status}`]);
      const fresh = await call(baseUrl, p, { headers: { accept: "text/html" } });
      expect([p, fresh.headers.get("x-request-id")]).toEqual([p, expect.stringMatching(UUID)]);
    }
    // The signing page keeps its framing policy.
    expect((await call(baseUrl, "/sign/not-a-real-token-0123456789")).headers.get("content-security-policy")).toBe("frame-ancestors 'none'");

    // Unsafe ids are not echoed (nor logged).
    for (const bad of ["has space", "x".repeat(129), "a/b", "<script>"]) {
      const r = await api("/api/whoami", sent(bad));
      expect(r.headers.get("x-request-id")).toMatch(UUID);
    }
    expect(logText()).not.toContain("<script>");
  });

  it("writes one JSON access-log line per API request with the id, route, status, duration and caller", async () => {
    const { baseUrl, seed } = quire.server;
    const ok = await as(baseUrl, seed)("/api/whoami?limit=5", { headers: { "x-request-id": "obs-access-ok" } });
    const [line, ...more] = await accessLines("obs-access-ok");
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      service: "quire",
      method: "GET",
      path: "/api/whoami",
      status: 200,
      orgId: seed.orgId,
      keyPrefix: ok.json.data.keyPrefix,
    });
    expect(line.durationMs).toEqual(expect.any(Number));

    await call(baseUrl, "/api/whoami", { headers: { "x-request-id": "obs-access-401" } });
    expect((await accessLines("obs-access-401"))[0]).toMatchObject({ method: "GET", path: "/api/whoami", status: 401 });
    expect((await accessLines("obs-access-401"))[0].orgId).toBeUndefined();

    await as(baseUrl, seed)("/template-folder", { method: "POST", body: { name: 42 }, headers: { "x-request-id": "obs-access-400" } });
    expect((await accessLines("obs-access-400"))[0]).toMatchObject({ method: "POST", path: "/template-folder", status: 400, orgId: seed.orgId });
  });

  it("leaves no API key, cookie, signing token, passcode or signer session in the log; domain lines carry the request id", async () => {
    const server = quire.server;
    const { baseUrl } = server;
    const org = await orgWith(server, { enabled: true, allowIdentityOverride: true });
    const apiKey = org.keys.contributor;
    const cookie = "next-auth.session-token=cookie-secret-value-0123456789abcdef";
    const prep = await prepareDoc(
      baseUrl,
      org,
      [{ name: "Lou Logs", email: "lou.logs@example.com", identityVerification: { mode: "otp", channel: "email" } }],
      {},
      {},
    );
    expect(prep.status, prep.text).toBe(200);
    const link = await signingUrlOf(baseUrl, org, prep.json.data.documentId, { recipientId: prep.json.data.recipients[0].id });
    expect(link.status, link.text).toBe(200);
    const token = tokenOfUrl(link.json.data.results.url);

    expect((await call(baseUrl, `/sign/${token}`, { headers: { accept: "text/html", cookie } })).status).toBe(200);
    const otp = passcodeApi(baseUrl, token);
    const sendId = "obs-passcode-send";
    const sent = await call(baseUrl, `/api/signer/${token}/passcode`, { method: "POST", body: {}, headers: { "x-request-id": sendId } });
    expect(sent.status, sent.text).toBe(200);
    const code = /\b(\d{6})\b/.exec((await latestMailTo(baseUrl, org, "lou.logs@example.com", "signing_passcode"))!.text)![1];
    expect((await otp.verify(code === "000000" ? "111111" : "000000")).status).toBe(400);
    const verifyId = "obs-passcode-verify";
    const right = await call(baseUrl, `/api/signer/${token}/passcode/verify`, { method: "POST", body: { code }, headers: { "x-request-id": verifyId } });
    expect(right.status, right.text).toBe(200);
    const session = right.json.data.session as string;
    expect((await call(baseUrl, `/api/signer/${token}`, { headers: { "x-signer-session": session } })).json.data.state).toBe("ready");
    expect((await fetch(`${baseUrl}/api/signer/${token}/page/1?s=${session}`)).status).toBe(200);
    expect((await as(baseUrl, org, "contributor")("/api/whoami", { headers: { cookie } })).status).toBe(200);
    // Last: opening the link redeems it.
    const opened = await call(baseUrl, `/sign/open?token=${token}`, { headers: { cookie } });
    expect(opened.status).toBe(303);

    // The requests were logged, under their ids, with the token masked.
    expect((await accessLines(verifyId))[0]).toMatchObject({ method: "POST", path: "/api/signer/:token/passcode/verify", status: 200 });
    expect((await accessLines(sendId))[0]).toMatchObject({ path: "/api/signer/:token/passcode", status: 200 });
    // The mailer's failure (the SMTP port is closed) was logged while serving the send: same id.
    const mailFailure = logLines().find((l) => l.msg === "email could not be sent" && l.reqId === sendId);
    expect(mailFailure, "mail failure logged with the request id").toBeTruthy();
    expect(mailFailure!.level).toBe(50);

    await accessLines((await call(baseUrl, "/api/whoami", { headers: { "x-request-id": "obs-last" } })).headers.get("x-request-id")!);
    const text = logText();
    // The secret is everything after `qk_<12 hex>_`; base64url may itself contain "_", so no split.
    const keySecret = /^qk_[0-9a-f]{12}_(.{43})$/.exec(apiKey)![1];
    const secrets = { apiKey, keySecret, cookie: "cookie-secret-value-0123456789abcdef", token, session };
    for (const [name, value] of Object.entries(secrets)) expect([name, text.includes(value)]).toEqual([name, false]);
    // Six digits could hide inside a timestamp: look for the code standing alone.
    expect(new RegExp(`(?<![0-9])${code}(?![0-9])`).test(text)).toBe(false);
  });
});

/**
 * A GET with node:http, the body as the bytes that came over the wire (fetch would decompress them),
 * the path sent as written (a URL would remove its dot segments).
 */
function rawGet(pathname: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(quire.server.baseUrl, { method, headers, path: pathname }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

// scripts/quire-server.cjs (ADR 0025): a REST API route handler is called by Quire's server itself,
// everything else goes through Next.js. Next.js marks what it serves with its router's Vary header.
describe("Quire's server: the REST API answered directly, the rest by Next.js", () => {
  const viaNextJs = (headers: http.IncomingHttpHeaders) => /\brsc\b/.test(String(headers.vary ?? ""));

  it("answers API routes itself, gzipped for a client that accepts it as Next.js would, /turbosign as /esign", async () => {
    const key = { authorization: `Bearer ${quire.server.seed.keys.administrator}`, "x-service-org-id": quire.server.seed.orgId };
    const doc = await rawGet("/api/openapi.json", { "accept-encoding": "gzip" });
    expect(doc.status).toBe(200);
    expect(viaNextJs(doc.headers)).toBe(false);
    expect(doc.headers["content-encoding"]).toBe("gzip");
    expect(doc.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(zlib.gunzipSync(doc.body).toString("utf8")).openapi).toMatch(/^3\./);
    const plain = await rawGet("/api/openapi.json");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(plain.body.toString("utf8"))).toEqual(JSON.parse(zlib.gunzipSync(doc.body).toString("utf8")));

    const [esign, turbosign] = await Promise.all([rawGet("/esign/documents?limit=5", key), rawGet("/turbosign/documents?limit=5", key)]);
    expect([esign.status, turbosign.status]).toEqual([200, 200]);
    expect([viaNextJs(esign.headers), viaNextJs(turbosign.headers)]).toEqual([false, false]);
    expect(JSON.parse(turbosign.body.toString("utf8"))).toEqual(JSON.parse(esign.body.toString("utf8")));
    expect(turbosign.headers["x-request-id"]).toMatch(UUID);
    // The query as the client sent it: a name that is not valid percent-encoding is refused (url-guard.ts).
    const malformed = await rawGet("/api/whoami?%zz=1", key);
    expect([malformed.status, JSON.parse(malformed.body.toString("utf8")).error]).toEqual([400, "InvalidText"]);
    // Like Next.js, it tells a handler the client's address (x-forwarded-for) when no proxy did: the
    // audit trail records it.
    const name = "Überprüfung — 契約 ✍️";
    const prepared = await prepareDoc(quire.server.baseUrl, quire.server.seed, [{ name: "Ada", email: "ada.direct@example.com" }], { documentName: name });
    const trail = await rawGet(`/esign/documents/${prepared.json.data.documentId}/audit-trail`, key);
    const created = JSON.parse(trail.body.toString("utf8")).data.auditTrail.find((e: { actionType: string }) => e.actionType === "created");
    expect(created.ip).toBe("127.0.0.1");
    // A JSON reply is written from the text its handler made (lib/http/json-reply.ts), with its length
    // in bytes, not characters; its gzip is of the same text.
    for (const encoding of [{}, { "accept-encoding": "gzip" }] as Record<string, string>[]) {
      const listed = await rawGet("/esign/documents?limit=100", { ...key, ...encoding });
      const text = listed.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(listed.body) : listed.body;
      if (!("accept-encoding" in encoding)) expect(Number(listed.headers["content-length"])).toBe(listed.body.length);
      expect(listed.headers["content-type"]).toBe("application/json");
      const names = JSON.parse(text.toString("utf8")).data.results.map((d: { name: string }) => d.name);
      expect(names).toContain(name);
    }
    // The handlers called directly are the modules Next.js loaded, not a second copy of them: one
    // embedded database (a second would start a second thread on the same directory).
    if ((process.env.QUIRE_TEST_DB ?? "pglite") === "pglite")
      expect(logLines().filter((l) => l.msg === "embedded database running on its own thread").length).toBe(1);
  });

  it("leaves pages, paths to redirect, an encoded path and a HEAD request to Next.js", async () => {
    const login = await rawGet("/login");
    expect(login.status).toBe(200);
    expect(viaNextJs(login.headers)).toBe(true);
    // A trailing slash, an empty or a dot segment: Next.js's redirect to the path's normal form.
    const redirects = [
      ["/api/health/", "/api/health"],
      ["//api/health", "/api/health"],
      ["/esign//documents?limit=1", "/esign/documents?limit=1"],
      ["/esign/documents/..", "/esign"],
    ];
    for (const [odd, normal] of redirects) {
      const res = await rawGet(odd);
      expect([res.status, res.headers.location], odd).toEqual([308, normal]);
    }
    // proxy.ts refuses it in the endpoint family's shape.
    const encoded = await rawGet("/esign/documents/%E0%A4%A");
    expect(encoded.status).toBe(400);
    expect(JSON.parse(encoded.body.toString("utf8"))).toHaveProperty("error");
    const head = await rawGet("/api/health", {}, "HEAD");
    expect([head.status, head.body.length, viaNextJs(head.headers)]).toEqual([200, 0, true]);
  });
});

describe("shutdown without NEXT_MANUAL_SIG_HANDLE", () => {
  it("handles the signal itself and exits 0 on SIGTERM", async () => {
    const exit = await quire.terminate("SIGTERM");
    expect(exit).toEqual({ code: 0, signal: null });
    const done = logLines().find((l) => l.msg === "shutdown complete");
    expect(done).toMatchObject({ clean: true });
  });
});

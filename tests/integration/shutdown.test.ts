// Graceful shutdown of the built server (own instance, NEXT_MANUAL_SIG_HANDLE=true as the Docker image
// and `npm start` run it). While a Test Webhook call (an HTTP request) and a worker delivery both wait
// on a slow HTTPS receiver, the process gets SIGTERM: it refuses new connections at once, the request
// still gets its normal reply, the worker's attempt is recorded as delivered with no lease left, each
// delivery reaches the receiver once, and the process exits 0 within SHUTDOWN_TIMEOUT_MS.
import net from "node:net";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { as } from "../support/api";
import { prepareDoc } from "../support/embedded";
import { startReceiver, webhookTestEnv } from "../support/https-receiver";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";

const DB = (process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase;
/**
 * How long the receiver holds a delivery before answering 200: the worker's (a voided document) past
 * the Test Webhook request's, so the exit must wait for the worker too, not only for requests.
 */
const WORKER_HOLD_MS = 6_000;
const REQUEST_HOLD_MS = 3_000;
const SHUTDOWN_TIMEOUT_MS = 20_000;

let quire: RunningQuire;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const secret = { value: "" };

beforeAll(async () => {
  quire = await startQuireServer(DB, {
    extraEnv: webhookTestEnv({
      WEBHOOK_TIMEOUT_MS: "10000",
      NEXT_MANUAL_SIG_HANDLE: "true",
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      LOG_LEVEL: "info",
    }),
  });
  receiver = await startReceiver({
    secret: () => secret.value,
    respond: (_, d) => ({ status: 200, delayMs: d.headers["x-service-event"] === "signature.document.voided" ? WORKER_HOLD_MS : REQUEST_HOLD_MS }),
  });
});

afterAll(async () => {
  await receiver?.close();
  await quire?.stop();
});

/** Rows straight from the database the stopped server leaves behind. */
async function query<T>(sql: string): Promise<T[]> {
  const { env, dataDir } = quire.server;
  if (DB === "postgres") {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  }
  // Opening the embedded database also proves the server closed it and let go of DATA_DIR.
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(path.join(dataDir, "pglite"));
  try {
    return (await db.query<T>(sql)).rows;
  } finally {
    await db.close();
  }
}

function connectRefused(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve("connected")));
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? String(err)));
  });
}

describe(`graceful shutdown on SIGTERM (${DB})`, () => {
  it("finishes the request and the webhook delivery in flight, refuses new connections and exits 0", async () => {
    const { baseUrl, seed } = quire.server;
    const port = Number(new URL(baseUrl).port);
    const api = as(baseUrl, seed);
    const created = await api("/api/webhooks", { method: "POST", body: { name: "signature", urls: [receiver.url], events: ["signature.document.voided"] } });
    expect(created.status, created.text).toBe(201);
    secret.value = created.json.data.secret;

    // A worker delivery in flight: a voided document's event, held by the receiver.
    const prep = await prepareDoc(baseUrl, seed, [{ name: "Sid Shutdown", email: "sid@example.com" }]);
    expect(prep.status, prep.text).toBe(200);
    const voided = await as(
      baseUrl,
      seed,
      "contributor",
    )(`/esign/documents/${prep.json.data.documentId}/void`, { method: "POST", body: { reason: "shutdown test" } });
    expect(voided.status, voided.text).toBe(200);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 15_000, interval: 50 });

    // An HTTP request in flight: Test Webhook sends while the caller waits.
    let settled = false;
    const testCall = api("/api/webhooks/signature/test", { method: "POST", body: {} }).finally(() => (settled = true));
    await vi.waitFor(() => expect(receiver.received).toHaveLength(2), { timeout: 10_000, interval: 20 });

    const signalled = Date.now();
    const exit = quire.terminate("SIGTERM");
    // The listener closes at once, while both are still being served.
    await vi.waitFor(async () => expect(await connectRefused(port)).toBe("ECONNREFUSED"), { timeout: 2_000, interval: 50 });
    expect(settled).toBe(false);

    const reply = await testCall;
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.data.summary).toEqual({ total: 1, successful: 1, failed: 0, errors: [] });
    expect(reply.json.data.deliveries[0]).toMatchObject({ status: "delivered", attemptCount: 1, httpStatus: 200 });
    expect(Date.now() - signalled).toBeGreaterThan(REQUEST_HOLD_MS / 2);

    expect(await exit).toEqual({ code: 0, signal: null });
    // It waited for the worker's attempt (answered about WORKER_HOLD_MS after it was sent), within the limit.
    expect(Date.now() - receiver.received[0].receivedAt).toBeGreaterThanOrEqual(WORKER_HOLD_MS);
    expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_TIMEOUT_MS);

    // Both deliveries done, each sent once, no lease held, one attempt recorded each.
    const rows = await query<{ id: string; eventType: string; status: string; attemptCount: number; leaseUntil: Date | null; attempts: number }>(
      `SELECT d."id", d."eventType", d."status", d."attemptCount", d."leaseUntil", (SELECT count(*)::int FROM "webhook_attempt" a WHERE a."deliveryId" = d."id") AS "attempts" FROM "webhook_delivery" d ORDER BY d."createdOn"`,
    );
    expect(rows.map(({ eventType, status, attemptCount, leaseUntil, attempts }) => ({ eventType, status, attemptCount, leaseUntil, attempts }))).toEqual([
      { eventType: "signature.document.voided", status: "delivered", attemptCount: 1, leaseUntil: null, attempts: 1 },
      { eventType: "signature.document.completed", status: "delivered", attemptCount: 1, leaseUntil: null, attempts: 1 },
    ]);
    expect(receiver.received.map((r) => r.headers["x-service-delivery"]).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(receiver.received.every((r) => r.signatureValid)).toBe(true);

    const log = fs
      .readFileSync(path.join(quire.server.dataDir, "server.log"), "utf8")
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { msg: string; [k: string]: unknown });
    expect(log.find((l) => l.msg === "shutting down: finishing requests in flight")).toMatchObject({ signal: "SIGTERM", inFlight: 1 });
    expect(log.find((l) => l.msg === "shutdown complete")).toMatchObject({ clean: true });
  });
});

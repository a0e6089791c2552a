// The webhook queue is durable: the server is killed (SIGKILL, no shutdown) while deliveries wait
// for their next attempt, and started again on the same DATA_DIR and database; every delivery then
// completes, and no attempt reaches the receiver twice. Runs on PGlite and on PostgreSQL, as the suite does.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { as } from "../support/api";
import { prepareDoc } from "../support/embedded";
import { startReceiver, webhookTestEnv } from "../support/https-receiver";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";

let quire: RunningQuire;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const secret = { value: "" };
/** First attempt of each delivery gets a 503; every later one a 200. */
const seen = new Map<string, number>();

beforeAll(async () => {
  // Back-off x0.2: the first retry waits 12 s, long enough to kill the server while every delivery waits.
  quire = await startQuireServer((process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase, { extraEnv: webhookTestEnv({ WEBHOOK_RETRY_SCALE: "0.2" }) });
  receiver = await startReceiver({
    secret: () => secret.value,
    respond: (_, d) => {
      const id = String(d.headers["x-service-delivery"]);
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      return { status: n === 1 ? 503 : 200 };
    },
  });
});

afterAll(async () => {
  await receiver?.close();
  await quire?.stop();
});

type Delivery = { id: string; status: string; attemptCount: number; eventType: string; url: string };

describe(`webhook deliveries across a hard restart (${process.env.QUIRE_TEST_DB ?? "pglite"})`, () => {
  it("finishes every retrying delivery after the restart, each attempt sent once", async () => {
    const { baseUrl, seed } = quire.server;
    const api = as(baseUrl, seed);
    const urls = Array.from({ length: 5 }, (_, i) => `${receiver.url}?n=${i}`);
    const created = await api("/api/webhooks", {
      method: "POST",
      body: { name: "signature", urls, events: ["signature.document.completed", "signature.document.voided"] },
    });
    expect(created.status, created.text).toBe(201);
    secret.value = created.json.data.secret;

    // A real event (a voided document, sent by the worker) and a test event (sent at once by the endpoint).
    const prep = await prepareDoc(baseUrl, seed, [{ name: "Rita Restart", email: "rita@example.com" }]);
    expect(prep.status, prep.text).toBe(200);
    const voided = await as(
      baseUrl,
      seed,
      "contributor",
    )(`/esign/documents/${prep.json.data.documentId}/void`, { method: "POST", body: { reason: "restart test" } });
    expect(voided.status, voided.text).toBe(200);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(5), { timeout: 30_000, interval: 100 });
    const test = await api("/api/webhooks/signature/test", { method: "POST", body: {} });
    expect(test.json.data.summary).toEqual({ total: 5, successful: 5, failed: 0, errors: [] });

    const list = async () => (await api("/api/webhooks/signature/deliveries?limit=100")).json.data.results as Delivery[];
    const waiting = await vi.waitFor(
      async () => {
        const all = await list();
        expect(all).toHaveLength(10);
        expect(all.every((d) => d.status === "retrying" && d.attemptCount === 1)).toBe(true);
        return all;
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(receiver.received).toHaveLength(10);

    await quire.restart({ hard: true });

    const done = await vi.waitFor(
      async () => {
        const all = await list();
        expect(all.map((d) => d.status)).toEqual(Array(10).fill("delivered"));
        return all;
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(done.map((d) => d.id).sort()).toEqual(waiting.map((d) => d.id).sort());
    expect(done.every((d) => d.attemptCount === 2)).toBe(true);
    // Each delivery reached the receiver exactly twice (the 503 and the 200), every time signed.
    expect(receiver.received).toHaveLength(20);
    for (const d of done) expect([d.id, seen.get(d.id)]).toEqual([d.id, 2]);
    expect(receiver.received.every((r) => r.signatureValid)).toBe(true);
    // One delivery per URL for each of the two events.
    expect(
      done
        .filter((d) => d.eventType === "signature.document.voided")
        .map((d) => d.url)
        .sort(),
    ).toEqual([...urls].sort());
    expect(
      done
        .filter((d) => d.eventType === "signature.document.completed")
        .map((d) => d.url)
        .sort(),
    ).toEqual([...urls].sort());
  });
});

// npm run bench -- --only webhooks: fan-out throughput of the durable delivery queue to a local HTTPS
// receiver (N events x 10 URLs, signed, each verified by the receiver), and Test Webhook over HTTP.
import crypto from "node:crypto";
import os from "node:os";
import { startQuireServer } from "../tests/support/quire-server";
import { createBenchWebhook } from "./bench-shared";

export async function benchWebhooks(requests: number) {
  const EVENTS = Math.max(10, requests);
  const URLS = 10;
  const total = EVENTS * URLS;
  console.log(`\n## Webhook fan-out on embedded PGlite: ${EVENTS} events x ${URLS} URLs = ${total} signed deliveries to a local HTTPS receiver`);
  const { startReceiver, webhookTestEnv } = await import("../tests/support/https-receiver");
  const secret = { value: "" };
  const rx = await startReceiver({ secret: () => secret.value });
  const urls = Array.from({ length: URLS }, (_, i) => `${rx.url}?u=${i}`);
  let orgId = "";
  // The events are recorded before the server starts (the embedded database belongs to one process at a
  // time); its delivery worker then fans them out and sends them as soon as it is up.
  const { server, stop } = await startQuireServer("pglite", {
    extraEnv: { QUIRE_RATE_LIMIT_DISABLED: "true", ...webhookTestEnv({ WEBHOOK_TIMEOUT_MS: "10000", WEBHOOK_RETRY_SCALE: "1" }) },
    async beforeStart(env, seed) {
      orgId = seed.orgId;
      const hook = await createBenchWebhook(env, seed.orgId, urls, (db) =>
        db.domainEvent
          .createMany({
            data: Array.from({ length: EVENTS }, (_, i) => ({ orgId: seed.orgId, type: "signature.document.completed", payload: { documentId: crypto.randomUUID(), name: `Bench document ${i}`, completedAt: new Date().toISOString() } })),
          })
          .then(() => undefined),
      );
      secret.value = hook.secret;
    },
  });
  try {
    const deadline = Date.now() + 300_000;
    while (rx.received.length < total && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      process.stderr.write(`  received ${rx.received.length}/${total}\r`);
    }
    process.stderr.write("\n");
    if (rx.received.length < total) throw new Error(`only ${rx.received.length} of ${total} deliveries arrived`);
    const first = rx.received[0].receivedAt;
    const last = rx.received[total - 1].receivedAt;
    const headers = { authorization: `Bearer ${server.seed.keys.administrator}`, "x-service-org-id": orgId };
    const listed = await fetch(`${server.baseUrl}/api/webhooks/signature/deliveries?status=delivered&limit=1`, { headers }).then((r) => r.json());
    console.log(`| what | deliveries | seconds | deliveries/s |\n|---|---:|---:|---:|`);
    console.log(`| queue fan-out (worker: fan out, claim, sign, POST, record) | ${total} | ${((last - first) / 1000).toFixed(2)} | ${((total - 1) / ((last - first) / 1000)).toFixed(0)} |`);

    // Test Webhook over HTTP: each call creates and sends one delivery per URL before it answers.
    const calls = 40;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < calls) {
          next++;
          const res = await fetch(`${server.baseUrl}/api/webhooks/signature/test`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: "{}" });
          if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(`| Test Webhook over HTTP, 8 concurrent callers, ${calls} calls | ${calls * URLS} | ${seconds.toFixed(2)} | ${((calls * URLS) / seconds).toFixed(0)} |`);
    const valid = rx.received.filter((d) => d.signatureValid).length;
    console.log(`\n${valid} of ${rx.received.length} requests carried a valid signature; ${listed.data.totalRecords} deliveries recorded as delivered (${os.cpus().length} cores).`);
  } finally {
    await stop();
    await rx.close();
  }
}


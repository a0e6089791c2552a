// npm run bench: performance figures, printed, never asserted.
//   Template listing: 5,000 templates, limit 100, sorted: raw SQL vs Quire's listing function vs
//   GET /template-item over HTTP, p50/p99, on the embedded PGlite and on PostgreSQL when reachable.
//   Generation (on the sample templates): raw docxtemplater fill vs Quire's fill; raw warm
//   LibreOffice conversion vs Quire's create-with-PDF over HTTP; throughput of 8 concurrent creates.
//   Sealing: a completed document of 1, 10 and 100 pages sealed, beside the bare signature as a floor
//   (scripts/bench-sealing.ts).
//   Webhooks: fan-out throughput (deliveries/s) of the durable queue to a local HTTPS receiver (N events x
//   10 URLs, signed, each verified by the receiver), and Test Webhook over HTTP from 8 concurrent callers.
//   Load (autocannon, against the built server): list endpoints at a fixed 200 requests/s, signing-URL issuance
//   at the highest rate 8 connections reach, deliverable creation with PDF from 3 connections; p50/p99, rate
//   achieved, non-2xx and errors. Exits non-zero when a scenario's failures pass --max-error-pct.
// Options: --db pglite|postgres|both (default both; for load: PostgreSQL when reachable, else PGlite; also
//   QUIRE_BENCH_DB), --requests N (default 200), --only listing|generation|sealing|webhooks|load, --seconds N (load:
//   length of each timed scenario, default 10), --rate N (load: list rate, default 200), --pdf-requests N
//   (load, default 60), --max-error-pct P (load, default 0.5).
//   e.g. `npm run bench -- --only webhooks`, `npm run bench -- --only load --db pglite`
import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { POSTGRES_ADMIN_URL, startQuireServer, type TestDatabase } from "../tests/support/quire-server";
import { benchLoad } from "./bench-load";
import { benchSealing } from "./bench-sealing";
import { CONTRACT_VARIABLES, createBenchWebhook, postgresReachable } from "./bench-shared";

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    requests: { type: "string", default: "200" },
    only: { type: "string" },
    seconds: { type: "string", default: "10" },
    rate: { type: "string", default: "200" },
    "pdf-requests": { type: "string", default: "60" },
    "max-error-pct": { type: "string", default: "0.5" },
  },
});
const REQUESTS = Number(values.requests);
const TEMPLATES = 5_000;
const LIMIT = 100;
const root = path.resolve(__dirname, "..");

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(label: string, fn: (offset: number) => Promise<unknown>, requests = REQUESTS): Promise<{ label: string; p50: number; p99: number }> {
  for (let i = 0; i < 10; i++) await fn(0); // warm up
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) {
    const offset = Math.floor(Math.random() * (TEMPLATES / LIMIT)) * LIMIT;
    const started = performance.now();
    await fn(offset);
    samples.push(performance.now() - started);
    if (i % 10 === 9) process.stderr.write(`  ${label}: ${i + 1}/${requests}\r`);
  }
  process.stderr.write("\n");
  return { label, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function benchListing(kind: TestDatabase) {
  console.log(`\n## Template listing on ${kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}: ${TEMPLATES.toLocaleString("en")} templates, limit ${LIMIT}, column0=name order0=asc, ${REQUESTS} requests at random offsets`);
  const rows: { label: string; p50: number; p99: number }[] = [];
  const { server, stop } = await startQuireServer(kind, {
    extraEnv: { QUIRE_RATE_LIMIT_DISABLED: "true" },
    async beforeStart(env, seed) {
      // The embedded database belongs to one process at a time: fill and measure it here, then close it.
      Object.assign(process.env, env);
      const { db, closeDb } = await import("../lib/db/client");
      const { listTemplateItems } = await import("../lib/templates/listing");
      const client = await db();
      const user = await client.apiKey.findFirstOrThrow({ where: { orgId: seed.orgId }, select: { userId: true } });
      process.stderr.write(`  inserting ${TEMPLATES} templates…\n`);
      const folders = Array.from({ length: 50 }, (_, i) => ({ id: crypto.randomUUID(), orgId: seed.orgId, name: `Folder ${i}`, createdBy: user.userId }));
      await client.templateFolder.createMany({ data: folders });
      const tags = await Promise.all(
        Array.from({ length: 10 }, (_, i) => client.tag.create({ data: { orgId: seed.orgId, label: `bench-${i}`, createdBy: user.userId } })),
      );
      const templates = Array.from({ length: TEMPLATES }, (_, i) => ({
        id: crypto.randomUUID(),
        orgId: seed.orgId,
        folderId: i % 3 === 0 ? null : folders[i % folders.length].id,
        name: `${["Contract", "Offer", "Invoice", "Proposal", "NDA"][i % 5]} ${crypto.randomBytes(4).toString("hex")}`,
        kind: "docx",
        fileType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        fileSize: 10_000 + i,
        storageKey: `bench/${i}.docx`,
        placeholders: [{ placeholder: "{Name}", name: "Name" }],
        createdBy: user.userId,
      }));
      for (let i = 0; i < templates.length; i += 1000) await client.template.createMany({ data: templates.slice(i, i + 1000) });
      await client.templateTag.createMany({ data: templates.flatMap((t, i) => [{ templateId: t.id, tagId: tags[i % 10].id }, { templateId: t.id, tagId: tags[(i * 7) % 10].id }]), skipDuplicates: true });

      rows.push(
        await time("raw SQL, same page", (offset) =>
          client.$queryRawUnsafe(
            `SELECT t.id, t.name, t.description, t."isActive", t."folderId", t."createdBy", u.email, t."fileSize", t."fileType", t."createdOn", t."updatedOn"
             FROM template t JOIN "user" u ON u.id = t."createdBy"
             WHERE t."orgId" = $1::uuid AND t."isActive" ORDER BY lower(t.name), t.id LIMIT ${LIMIT} OFFSET ${offset}`,
            seed.orgId,
          ),
        ),
      );
      rows.push(
        await time("listTemplateItems() in-process", (offset) =>
          listTemplateItems(client, seed.orgId, { limit: LIMIT, offset, selectedTags: [], column0: "name", order0: "asc", showTags: true, type: "template" }),
        ),
      );
      await closeDb();
    },
  });
  try {
    const headers = { authorization: `Bearer ${server.seed.keys.viewer}`, "x-service-org-id": server.seed.orgId };
    rows.push(
      await time("GET /template-item over HTTP", async (offset) => {
        const res = await fetch(`${server.baseUrl}/template-item?type=template&limit=${LIMIT}&offset=${offset}&column0=name&order0=asc`, { headers });
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        await res.arrayBuffer();
      }),
    );
  } finally {
    await stop();
  }
  printTable(rows);
}

function printTable(rows: { label: string; p50: number; p99: number }[]) {
  console.log(`| what | p50 ms | p99 ms |\n|---|---:|---:|`);
  for (const r of rows) console.log(`| ${r.label} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
}

async function benchGeneration() {
  const N = Math.min(REQUESTS, 50);
  console.log(`\n## Generation on the sample contract (DOCX), ${N} runs each`);
  const { buildSampleContractDocx } = await import("../lib/templates/samples");
  const { DOCXTEMPLATER_OPTIONS } = await import("../lib/templates/inspect");
  const { renderTemplate } = await import("../lib/deliverables/render");
  const { LibreOfficePool } = await import("../lib/pdf/libreoffice");
  const Docxtemplater = (await import("docxtemplater")).default;
  const PizZip = (await import("pizzip")).default;
  const contract = await buildSampleContractDocx();
  const plainData = Object.fromEntries(CONTRACT_VARIABLES.map((v) => [v.placeholder.replace(/[{}@%]/g, ""), v.text ?? "Discovery"]));
  const rows = [
    await time("raw docxtemplater fill (text only)", async () => {
      const doc = new Docxtemplater(new PizZip(contract), { ...DOCXTEMPLATER_OPTIONS, nullGetter: () => "" });
      doc.render(plainData);
      doc.getZip().generate({ type: "nodebuffer" });
    }, N),
    await time("Quire fill (text, html, stack)", () => renderTemplate(contract, "docx", CONTRACT_VARIABLES, { fetchImage: () => Promise.reject(new Error("no images")) }), N),
  ];
  const filled = (await renderTemplate(contract, "docx", CONTRACT_VARIABLES, { fetchImage: () => Promise.reject(new Error("no images")) })).file;
  const pool = new LibreOfficePool({ size: 1, timeoutMs: 60_000 });
  await pool.warmUp();
  rows.push(await time("raw warm LibreOffice conversion (1 slot)", () => pool.convert(filled, "docx"), N));
  await pool.close();

  const { server, stop } = await startQuireServer("pglite", { extraEnv: { QUIRE_RATE_LIMIT_DISABLED: "true" } });
  try {
    const headers = { authorization: `Bearer ${server.seed.keys.user}`, "x-service-org-id": server.seed.orgId, "content-type": "application/json" };
    const found = await fetch(`${server.baseUrl}/template-item?type=template&query=services%20agreement`, { headers }).then((r) => r.json());
    const templateId = found.data.results[0].id as string;
    const create = async () => {
      const res = await fetch(`${server.baseUrl}/v1/deliverable`, { method: "POST", headers, body: JSON.stringify({ name: "Bench deliverable", templateId, variables: CONTRACT_VARIABLES }) });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
    };
    rows.push(await time("Quire create with PDF over HTTP (POST /v1/deliverable)", create, N));
    printTable(rows);
    const total = 40;
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < total) {
        next++;
        await create();
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    console.log(`\nThroughput, 8 concurrent clients, ${total} creates with PDF: ${(total / seconds).toFixed(1)} deliverables/s (${seconds.toFixed(1)} s; converter pool = ${os.cpus().length} slots)`);
  } finally {
    await stop();
  }
}

async function benchWebhooks() {
  const EVENTS = Math.max(10, REQUESTS);
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

async function main() {
  if (values.only !== undefined && !["listing", "generation", "sealing", "webhooks", "load"].includes(values.only)) throw new Error(`--only must be listing, generation, sealing, webhooks or load, not ${values.only}`);
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (values.only === "generation") return benchGeneration();
  if (values.only === "sealing") return benchSealing();
  if (values.only === "webhooks") return benchWebhooks();
  if (values.only === "load") {
    return benchLoad({
      db: values.db === "both" ? undefined : (values.db as TestDatabase),
      seconds: Number(values.seconds),
      rate: Number(values.rate),
      pdfRequests: Number(values["pdf-requests"]),
      maxErrorPct: Number(values["max-error-pct"]),
    });
  }
  if (values.db === "both") {
    // One process per database: configuration and the database handle are per process.
    const self = (...args: string[]) => execFileSync(process.execPath, [...process.execArgv, __filename, "--requests", String(REQUESTS), ...args], { cwd: root, stdio: "inherit" });
    if (values.only !== "generation") for (const kind of ["pglite", "postgres"]) self("--db", kind, "--only", "listing");
    if (values.only !== "listing") self("--only", "generation");
    if (values.only === undefined) self("--only", "sealing");
    if (values.only === undefined) self("--only", "webhooks");
    if (values.only === undefined) self("--only", "load", "--seconds", String(values.seconds), "--rate", String(values.rate), "--pdf-requests", String(values["pdf-requests"]), "--max-error-pct", String(values["max-error-pct"]));
    return;
  }
  for (const kind of [values.db as TestDatabase]) {
    if (kind === "postgres" && !(await postgresReachable())) {
      console.log(`\n(PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable; skipped)`);
      continue;
    }
    await benchListing(kind);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

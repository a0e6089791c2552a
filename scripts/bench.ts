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
import { benchGeneration } from "./bench-generation";
import { benchLoad } from "./bench-load";
import { benchSealing } from "./bench-sealing";
import { postgresReachable, printSummary, printTable, recordFigure, time, type Timing } from "./bench-shared";
import { benchWebhooks } from "./bench-webhooks";

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

async function benchListing(kind: TestDatabase) {
  console.log(`\n## Template listing on ${kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}: ${TEMPLATES.toLocaleString("en")} templates, limit ${LIMIT}, column0=name order0=asc, ${REQUESTS} requests at random offsets`);
  const rows: Timing[] = [];
  const at = (label: string, fn: (offset: number) => Promise<unknown>) => time(label, () => fn(Math.floor(Math.random() * (TEMPLATES / LIMIT)) * LIMIT), REQUESTS);
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
        await at("raw SQL, same page", (offset) =>
          client.$queryRawUnsafe(
            `SELECT t.id, t.name, t.description, t."isActive", t."folderId", t."createdBy", u.email, t."fileSize", t."fileType", t."createdOn", t."updatedOn"
             FROM template t JOIN "user" u ON u.id = t."createdBy"
             WHERE t."orgId" = $1::uuid AND t."isActive" ORDER BY lower(t.name), t.id LIMIT ${LIMIT} OFFSET ${offset}`,
            seed.orgId,
          ),
        ),
      );
      rows.push(
        await at("listTemplateItems() in-process", (offset) =>
          listTemplateItems(client, seed.orgId, { limit: LIMIT, offset, selectedTags: [], column0: "name", order0: "asc", showTags: true, type: "template" }),
        ),
      );
      await closeDb();
    },
  });
  try {
    const headers = { authorization: `Bearer ${server.seed.keys.viewer}`, "x-service-org-id": server.seed.orgId };
    rows.push(
      await at("GET /template-item over HTTP", async (offset) => {
        const res = await fetch(`${server.baseUrl}/template-item?type=template&limit=${LIMIT}&offset=${offset}&column0=name&order0=asc`, { headers });
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        await res.arrayBuffer();
      }),
    );
  } finally {
    await stop();
  }
  printTable(rows);
  const [raw, inProcess, http] = rows;
  const db = kind === "pglite" ? "PGlite" : "PostgreSQL";
  recordFigure({ section: "lists", db, measure: "listTemplateItems() in-process, limit 100, p50", quire: inProcess.p50, unit: "ms", floor: raw.p50, floorLabel: "raw SQL, same page", goal: { op: "<=", value: 1.3, on: "ratio" } });
  recordFigure({ section: "lists", db, measure: "GET /template-item limit 100 over HTTP, p50", quire: http.p50, unit: "ms", floor: raw.p50, floorLabel: "raw SQL, same page" });
}


async function main() {
  // The parent collects every section's figures (each runs in its own process) and prints one table.
  if (process.env.QUIRE_BENCH_FIGURES) return runSections();
  const figures = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-bench-")), "figures.jsonl");
  process.env.QUIRE_BENCH_FIGURES = figures;
  try {
    await runSections();
  } finally {
    printSummary(figures);
  }
}

async function runSections() {
  if (values.only !== undefined && !["listing", "generation", "sealing", "webhooks", "load"].includes(values.only)) throw new Error(`--only must be listing, generation, sealing, webhooks or load, not ${values.only}`);
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (values.only === "generation") return benchGeneration(REQUESTS);
  if (values.only === "sealing") return benchSealing();
  if (values.only === "webhooks") return benchWebhooks(REQUESTS, values.db);
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
    if (values.only === undefined)
      for (const kind of (await postgresReachable()) ? ["postgres", "pglite"] : ["pglite"]) self("--only", "load", "--db", kind, "--seconds", String(values.seconds), "--rate", String(values.rate), "--pdf-requests", String(values["pdf-requests"]), "--max-error-pct", String(values["max-error-pct"]));
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

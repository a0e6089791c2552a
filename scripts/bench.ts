// npm run bench: performance figures, printed, never asserted.
//   Template listing: 5,000 templates, limit 100, sorted: raw SQL vs Quire's listing function vs
//   GET /template-item over HTTP (beside Next.js alone sending the same reply), p50/p99, on the embedded
//   PGlite and on PostgreSQL when reachable.
//   Generation (on the sample templates): raw docxtemplater fill vs Quire's fill; raw warm
//   LibreOffice conversion vs Quire's create-with-PDF over HTTP vs Carbone; throughput at 1-8 clients,
//   each contestant measured in turn, in rounds (scripts/bench-generation.ts).
//   Sealing: a completed document of 1, 10 and 100 pages sealed, beside the bare signature as a floor
//   (scripts/bench-sealing.ts).
//   Webhooks: fan-out throughput (deliveries/s) of the durable queue to a local HTTPS receiver (N events x
//   10 URLs, signed, each verified by the receiver), and Test Webhook over HTTP from 8 concurrent callers.
//   Load (autocannon, against the built server): list endpoints at a fixed 200 requests/s, signing-URL issuance
//   at the highest rate 8 connections reach, deliverable creation with PDF from 3 connections; p50/p99, rate
//   achieved, non-2xx and errors; server and database CPU per request; Next.js alone as the bare route's floor.
//   Exits non-zero when a scenario's failures pass --max-error-pct.
//   Soak: a steady request mix for --soak-minutes (default 10; 0 skips it), resident memory sampled
//   (scripts/bench-soak.ts).
// Options: --db pglite|postgres|both (default both; for load: PostgreSQL when reachable, else PGlite; also
//   QUIRE_BENCH_DB), --requests N (default 200), --only listing|generation|sealing|webhooks|load|soak,
//   --seconds N (load: length of each timed scenario, default 10), --warmup-seconds N (an unmeasured run of the
//   same work before each timed one, default 3: load, lists, generation), --rate N (load: list rate, default 200),
//   --pdf-requests N (load, default 60), --max-error-pct P (load, default 0.5).
//   e.g. `npm run bench -- --only webhooks`, `npm run bench -- --only load --db pglite`
import { execFileSync, spawn } from "node:child_process";
import { once as eventOnce } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort, POSTGRES_ADMIN_URL, startQuireServer, type TestDatabase } from "../tests/support/quire-server";
import { benchGeneration } from "./bench-generation";
import { benchLoad } from "./bench-load";
import { startNextAlone } from "./bench-next-alone";
import { benchSealing } from "./bench-sealing";
import { benchSoak } from "./bench-soak";
import {
  DB_LABELS,
  httpRequest,
  inParallel,
  postgresReachable,
  printSummary,
  printTable,
  recordFigure,
  STEADY_STATE_REQUESTS,
  timeInTurns,
  type Figure,
  type Timing,
} from "./bench-shared";
import { fillWorkspace } from "../tests/support/workspace";
import { benchWebhooks } from "./bench-webhooks";

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    requests: { type: "string", default: "200" },
    only: { type: "string" },
    seconds: { type: "string", default: "10" },
    "warmup-seconds": { type: "string", default: "3" },
    "soak-minutes": { type: "string", default: "10" },
    rate: { type: "string", default: "200" },
    "pdf-requests": { type: "string", default: "60" },
    "max-error-pct": { type: "string", default: "0.5" },
  },
});
const REQUESTS = Number(values.requests);
const WARMUP_SECONDS = Number(values["warmup-seconds"]);
const TEMPLATES = 5_000;
const LIMIT = 100;
const DELIVERABLES = 10_000;
const root = path.resolve(__dirname, "..");

async function benchListing(kind: TestDatabase) {
  console.log(
    `\n## Lists on ${kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}: ${TEMPLATES.toLocaleString("en")} templates (column0=name order0=asc) and ${DELIVERABLES.toLocaleString("en")} deliverables (newest first, with tags), limit ${LIMIT}, ${REQUESTS} requests at random offsets`,
  );
  const rows: Timing[] = [];
  // Contestants of timeInTurns(), each call at a random page of a list of `items`: templates or deliverables.
  const atRandomPage = (items: number) => (label: string, fn: (offset: number) => Promise<unknown>) => ({
    label,
    fn: () => fn(Math.floor(Math.random() * (items / LIMIT)) * LIMIT),
  });
  const at = atRandomPage(TEMPLATES);
  const atDeliverables = atRandomPage(DELIVERABLES);
  // The floor's statements of each page as one JSON text of arrays and the arrays' names, for the bare
  // HTTP server too (PostgreSQL only).
  const pageArrays: Record<"templates" | "deliverables", BarePage> = { templates: { sql: "", fields: [] }, deliverables: { sql: "", fields: [] } };
  const { server, stop } = await startQuireServer(kind, {
    extraEnv: { QUIRE_RATE_LIMIT_DISABLED: "true" },
    async beforeStart(env, seed) {
      // The embedded database belongs to one process at a time: fill and measure it here, then close it.
      Object.assign(process.env, env);
      const { db, closeDb } = await import("../lib/db/client");
      const { listTemplateItems } = await import("../lib/templates/listing");
      const { sql } = await import("../lib/db/sql");
      const runner = await sql();
      const client = await db();
      await fillWorkspace(client, seed.orgId, { templates: TEMPLATES, deliverables: DELIVERABLES });
      // The floors: the same page and its total by plain statements on the driver, the best one can do,
      // in three forms: rows, with the total read beside them, and the page as one JSON text with its total
      // (cheaper where each field of each row costs, as in PGlite), of objects or of arrays. The fastest
      // form is the floor.
      // Planned once for all offsets, as Quire's own pages are.
      const { PAGE_QUERY: once, jsonArraySql, pageItem, readPageItems } = await import("../lib/db/paging");
      // The third form: each item as a JSON array of its values, named again in Node, as Quire's pages
      // send them (lib/db/paging.ts pageItem).
      const arrayOf = (columns: string[]) => pageItem<Record<string, unknown>>(Object.fromEntries(columns.map((c) => [c, `p."${c}"`])));
      const templateColumns = [
        "id",
        "name",
        "description",
        "isActive",
        "folderId",
        "createdBy",
        "email",
        "fileSize",
        "fileType",
        "createdOn",
        "updatedOn",
        "deliverableCount",
        "tags",
      ];
      const templateArray = arrayOf(templateColumns);
      const deliverableColumns = [
        "id",
        "name",
        "description",
        "templateId",
        "email",
        "fileType",
        "defaultFont",
        "fonts",
        "isActive",
        "createdOn",
        "updatedOn",
        "createdBy",
        "fileSize",
        "tags",
      ];
      const deliverableArray = arrayOf(deliverableColumns);
      // The same page as Quire's reply holds (showTags is on by default): each template's creator,
      // active deliverables and tags too, taken for the page's rows only, after its ids are read off
      // the index and its rows by key.
      const templatePage = `WITH keys AS (SELECT t.id FROM template t WHERE t."orgId" = $1::uuid AND t."isActive" ORDER BY lower(t.name), t.id LIMIT ${LIMIT} OFFSET $2)
        SELECT t.id, t.name, t.description, t."isActive", t."folderId", t."createdBy", u.email, t."fileSize", t."fileType", t."createdOn", t."updatedOn",
               (SELECT count(*)::int FROM deliverable d WHERE d."templateId" = t.id AND d."isActive") AS "deliverableCount",
               (SELECT array_agg((SELECT tg.label FROM tag tg WHERE tg.id = tt."tagId")) FROM template_tag tt WHERE tt."templateId" = t.id) AS tags
        FROM template t JOIN "user" u ON u.id = t."createdBy" WHERE t.id = ANY(ARRAY(SELECT id FROM keys))`;
      // The total as Quire keeps it: the counter row the template triggers maintain (lib/templates/listing.ts).
      const templateTotal = `SELECT templates::int FROM org_usage WHERE "orgId" = $1::uuid`;
      // The page's ids off the index first, then its rows by key, as Quire's own page (lib/deliverables/list.ts).
      const deliverablePage = `WITH keys AS (SELECT id FROM deliverable WHERE "orgId" = $1::uuid AND "isActive" ORDER BY "createdOn" DESC, id DESC LIMIT ${LIMIT} OFFSET $2)
        SELECT d.*, u.email, (SELECT json_agg(t.*) FROM deliverable_tag dt JOIN tag t ON t.id = dt."tagId" WHERE dt."deliverableId" = d.id) AS tags
        FROM deliverable d JOIN "user" u ON u.id = d."createdBy" WHERE d.id = ANY(ARRAY(SELECT id FROM keys))`;
      // The total as Quire keeps it: the counter row its triggers maintain (lib/deliverables/list.ts).
      const deliverableTotal = `SELECT deliverables::int FROM org_usage WHERE "orgId" = $1::uuid`;
      pageArrays.templates = {
        sql: `SELECT (${templateTotal}) AS total, ${jsonArraySql(templateArray.sql, "lower(p.name), p.id")} AS items FROM (${templatePage}) p`,
        fields: templateColumns,
      };
      pageArrays.deliverables = {
        sql: `SELECT (${deliverableTotal}) AS total, ${jsonArraySql(deliverableArray.sql, 'p."createdOn" DESC, p.id DESC')} AS items FROM (${deliverablePage}) p`,
        fields: deliverableColumns,
      };
      rows.push(
        ...(await timeInTurns(
          [
            at("templates: raw SQL, the same page as rows + counter", (offset) =>
              Promise.all([
                runner.query(`${templatePage} ORDER BY lower(t.name), t.id`, [seed.orgId, offset], once),
                runner.query(templateTotal, [seed.orgId], once),
              ]),
            ),
            at("templates: raw SQL, the same page as one JSON text + counter", async (offset) => {
              const [page] = await runner.query<{ items: string }>(
                `SELECT (${templateTotal}) AS total, ${jsonArraySql("p", "lower(p.name), p.id")} AS items FROM (${templatePage}) p`,
                [seed.orgId, offset],
                once,
              );
              return JSON.parse(page.items);
            }),
            at("templates: raw SQL, the same page as one JSON text of arrays + counter", async (offset) => {
              const [page] = await runner.query<{ items: string }>(pageArrays.templates.sql, [seed.orgId, offset], once);
              return readPageItems(page.items, templateArray);
            }),
            at("listTemplateItems() in-process", (offset) =>
              listTemplateItems(runner, seed.orgId, {
                limit: LIMIT,
                offset,
                selectedTags: [],
                column0: "name",
                order0: "asc",
                showTags: true,
                type: "template",
              }),
            ),
            atDeliverables("deliverables: raw SQL, page with tags as rows + counter", (offset) =>
              Promise.all([
                runner.query(`${deliverablePage} ORDER BY d."createdOn" DESC, d.id DESC`, [seed.orgId, offset], once),
                runner.query(deliverableTotal, [seed.orgId], once),
              ]),
            ),
            atDeliverables("deliverables: raw SQL, page with tags as one JSON text + counter", async (offset) => {
              const [page] = await runner.query<{ items: string }>(
                `SELECT (${deliverableTotal}) AS total, ${jsonArraySql("p", 'p."createdOn" DESC, p.id DESC')} AS items FROM (${deliverablePage}) p`,
                [seed.orgId, offset],
                once,
              );
              return JSON.parse(page.items);
            }),
            atDeliverables("deliverables: raw SQL, page with tags as one JSON text of arrays + counter", async (offset) => {
              const [page] = await runner.query<{ items: string }>(pageArrays.deliverables.sql, [seed.orgId, offset], once);
              return readPageItems(page.items, deliverableArray);
            }),
          ],
          REQUESTS,
          WARMUP_SECONDS,
        )),
      );
      await closeDb();
    },
  });
  try {
    const headers = { authorization: `Bearer ${server.seed.keys.viewer}`, "x-service-org-id": server.seed.orgId };
    const get = async (url: string) => {
      const res = await httpRequest(url, { headers });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      return res.body;
    };
    const templatePage = (offset: number) => get(`${server.baseUrl}/template-item?type=template&limit=${LIMIT}&offset=${offset}&column0=name&order0=asc`);
    const deliverablePage = (offset: number) => get(`${server.baseUrl}/v1/deliverable?limit=${LIMIT}&offset=${offset}&showTags=true`);
    // The floors above ran in this process, warm from the fill; the server just started: each list first
    // gets the requests that bring it to its steady state.
    for (const page of [templatePage, deliverablePage]) await inParallel(() => page(0), STEADY_STATE_REQUESTS, 8);
    // What any Next.js service pays to send these replies: Next.js alone answering a page Quire sent, as
    // Quire answers it, without a database; in turns with Quire's lists.
    const alone = await startNextAlone();
    let bare: BareHttp | undefined;
    try {
      // On PostgreSQL, a bare node:http server answering the same pages from the same database beside them
      // (started inside the try: if it fails, Next.js alone is still stopped).
      if (kind === "postgres") bare = await startBareHttp(server.env.DATABASE_URL ?? "", server.seed.orgId, pageArrays);
      const bareUrl = bare?.baseUrl;
      const alonePage = (pagePath: string) => () => get(`${alone.baseUrl}${pagePath}`);
      const aloneTemplatePage = alonePage(alone.servePage("templates", await templatePage(0)));
      const aloneDeliverablePage = alonePage(alone.servePage("deliverables", await deliverablePage(0)));
      const barePages = bareUrl !== undefined && {
        templates: at("a bare node:http + pg server answering the template page", (offset) => get(`${bareUrl}/templates?offset=${offset}`)),
        deliverables: atDeliverables("a bare node:http + pg server answering the deliverable page", (offset) =>
          get(`${bareUrl}/deliverables?offset=${offset}`),
        ),
      };
      for (const page of [aloneTemplatePage, aloneDeliverablePage]) await inParallel(page, STEADY_STATE_REQUESTS, 8);
      if (barePages) for (const page of Object.values(barePages)) await inParallel(page.fn, STEADY_STATE_REQUESTS, 8);
      rows.push(
        ...(await timeInTurns(
          [
            at("GET /template-item over HTTP", templatePage),
            atDeliverables("GET /v1/deliverable over HTTP", deliverablePage),
            { label: "Next.js alone sending the template page's reply (no database)", fn: aloneTemplatePage },
            { label: "Next.js alone sending the deliverable page's reply (no database)", fn: aloneDeliverablePage },
            ...(barePages ? [barePages.templates, barePages.deliverables] : []),
          ],
          REQUESTS,
          WARMUP_SECONDS,
        )),
      );
    } finally {
      await alone.stop();
      await bare?.stop();
    }
  } finally {
    await stop();
  }
  printTable(rows);
  const [
    templateRows,
    templateJson,
    templateArrays,
    inProcess,
    deliverableRows,
    deliverableJson,
    deliverableArrays,
    httpTemplates,
    httpDeliverables,
    aloneTemplates,
    aloneDeliverables,
    bareTemplates,
    bareDeliverables,
  ] = rows;
  const fastest = (...forms: Timing[]) => forms.reduce((a, b) => (a.p50 <= b.p50 ? a : b));
  const rawTemplates = fastest(templateRows, templateJson, templateArrays);
  const rawDeliverables = fastest(deliverableRows, deliverableJson, deliverableArrays);
  const db = DB_LABELS[kind];
  const floorLabel = "raw SQL, same page + counter (fastest of rows and JSON)";
  recordFigure({
    section: "lists",
    db,
    measure: "listTemplateItems() in-process, limit 100, p50",
    quire: inProcess.p50,
    unit: "ms",
    floor: rawTemplates.p50,
    floorLabel,
  });
  // Each list over HTTP against its floors: the raw SQL (the goal), the raw SQL plus Next.js alone
  // sending the reply (a floor an HTTP service through Next.js can reach) and, on PostgreSQL, a bare
  // node:http server answering the same page (the HTTP hop and the reply's JSON alone).
  const overHttp = [
    ["GET /template-item limit 100 over HTTP, p50", httpTemplates, rawTemplates, aloneTemplates, bareTemplates],
    ["GET /v1/deliverable limit 100 over HTTP, p50", httpDeliverables, rawDeliverables, aloneDeliverables, bareDeliverables],
  ] as const;
  const against = (measure: string, http: Timing, floor: number, label: string, goal?: Figure["goal"]) =>
    recordFigure({ section: "lists", db, measure, quire: http.p50, unit: "ms", floor, floorLabel: label, goal });
  for (const [measure, http, raw] of overHttp) against(measure, http, raw.p50, floorLabel, { op: "<=", value: 1.3, on: "ratio" });
  for (const [measure, http, raw, alone] of overHttp)
    against(measure, http, raw.p50 + alone.p50, `raw SQL + Next.js alone sending the same reply (${alone.p50.toFixed(2)} ms)`);
  for (const [measure, http, , , bare] of overHttp) if (bare) against(measure, http, bare.p50, "a bare node:http + pg server answering the same page");
}

/** A page for scripts/bench-bare-http.cjs: its statement (one row: total, items as a JSON text of arrays) and the arrays' names. */
interface BarePage {
  sql: string;
  fields: string[];
}

interface BareHttp {
  baseUrl: string;
  stop: () => Promise<void>;
}

/** Starts scripts/bench-bare-http.cjs on `pages` (GET /<name>?offset=N) and waits for it to listen; `stop` kills it. */
async function startBareHttp(databaseUrl: string, orgId: string, pages: Record<string, BarePage>): Promise<BareHttp> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(__dirname, "bench-bare-http.cjs")], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), BARE_ORG_ID: orgId, BARE_PAGES: JSON.stringify(pages) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the bare HTTP server exited with ${code}`)));
    child.stdout?.once("data", () => resolve());
  });
  child.removeAllListeners("exit");
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGKILL");
      await eventOnce(child, "exit");
    },
  };
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
  if (values.only !== undefined && !["listing", "generation", "sealing", "webhooks", "load", "soak"].includes(values.only))
    throw new Error(`--only must be listing, generation, sealing, webhooks, load or soak, not ${values.only}`);
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (values.only === "generation") {
    const kinds: TestDatabase[] = values.db === "both" ? ["pglite", "postgres"] : [values.db as TestDatabase];
    return benchGeneration(REQUESTS, (await postgresReachable()) ? kinds : kinds.filter((k) => k === "pglite"), WARMUP_SECONDS);
  }
  if (values.only === "sealing") return benchSealing();
  if (values.only === "webhooks") return benchWebhooks(REQUESTS, values.db);
  if (values.only === "soak") return benchSoak(values.db === "pglite" ? "pglite" : "postgres", Number(values["soak-minutes"]));
  if (values.only === "load") {
    return benchLoad({
      db: values.db === "both" ? undefined : (values.db as TestDatabase),
      seconds: Number(values.seconds),
      warmupSeconds: WARMUP_SECONDS,
      rate: Number(values.rate),
      pdfRequests: Number(values["pdf-requests"]),
      maxErrorPct: Number(values["max-error-pct"]),
    });
  }
  if (values.db === "both") {
    // One process per database: configuration and the database handle are per process.
    const self = (...args: string[]) =>
      execFileSync(process.execPath, [...process.execArgv, __filename, "--requests", String(REQUESTS), "--warmup-seconds", String(WARMUP_SECONDS), ...args], {
        cwd: root,
        stdio: "inherit",
      });
    if (values.only !== "generation") for (const kind of ["pglite", "postgres"]) self("--db", kind, "--only", "listing");
    if (values.only !== "listing") self("--only", "generation", "--db", "both");
    if (values.only === undefined) self("--only", "sealing");
    if (values.only === undefined) self("--only", "webhooks");
    if (values.only === undefined)
      for (const kind of (await postgresReachable()) ? ["postgres", "pglite"] : ["pglite"])
        self(
          "--only",
          "load",
          "--db",
          kind,
          "--seconds",
          String(values.seconds),
          "--rate",
          String(values.rate),
          "--pdf-requests",
          String(values["pdf-requests"]),
          "--max-error-pct",
          String(values["max-error-pct"]),
        );
    if (values.only === undefined && Number(values["soak-minutes"]) > 0)
      self("--only", "soak", "--db", (await postgresReachable()) ? "postgres" : "pglite", "--soak-minutes", String(values["soak-minutes"]));
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

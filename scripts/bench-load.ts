// Size: one bench section, its scenarios in the order they run against one server.
// npm run bench -- --only load: autocannon against the built server (started as the tests start it).
//   0. Next.js alone, GET /api/health and GET /api/whoami, in turns (inTurns), as fast as 8 connections go.
//   1. List endpoints, each at a steady rate (default 200 requests/s, evenly spaced: bench-paced.ts) for
//      --seconds: GET /template-item, GET /v1/deliverable, GET /esign/documents, GET /api/webhooks; each
//      followed by Next.js alone sending the page Quire answered, at the same rate (the p99's floor).
//   2. POST /esign/documents/{id}/signing-url over prepared documents, as fast as 8 connections go.
//   3. POST /v1/deliverable on the sample Services Agreement (DOCX filled, converted to PDF by the
//      LibreOffice pool) from 3 connections.
// The demo key's plan allows 1,000,000 requests a minute, so the per-key limiter runs on every request
// (it is part of what is measured) without capping the load; the server logs at info, as deployed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import type { SeedResult } from "@/lib/orgs/seed";
import { as } from "../tests/support/api";
import { prepareDoc } from "../tests/support/embedded";
import { runSeed, startQuireServer, type TestDatabase } from "../tests/support/quire-server";
import { NEXT_ALONE_PATH, startNextAlone } from "./bench-next-alone";
import { type LoadOutcome, type PacedOptions, pacedLoad } from "./bench-paced";
import {
  CONTRACT_VARIABLES,
  childrenCpuMs,
  costMeter,
  createBenchWebhook,
  type DatabaseMeter,
  DB_LABELS,
  databaseMeter,
  heldAgainstPostgres,
  type Meter,
  NO_DATABASE,
  postgresReachable,
  recordFigure,
  serverRssMb,
  STEADY_STATE_REQUESTS,
  treeCpuMs,
  turnOrder,
} from "./bench-shared";
import { fillWorkspace } from "../tests/support/workspace";

export interface LoadOptions {
  /** Unset: QUIRE_BENCH_DB, else PostgreSQL when reachable, else PGlite. */
  db?: TestDatabase;
  seconds: number;
  /** Unmeasured seconds of the same load before each timed scenario (JIT, prepared statements, pools). */
  warmupSeconds: number;
  rate: number;
  pdfRequests: number;
  maxErrorPct: number;
}

interface LoadRow extends LoadOutcome {
  scenario: string;
  /** Requests/s asked for; undefined = as fast as the connections go. */
  target?: number;
  connections: number;
  /** Answered or failed (timeouts, connection errors); requests still in flight at the end are left out. */
  requests: number;
  /** Answers by HTTP status. */
  statusCodes: Record<string, number>;
  /** CPU the server's process tree (Next.js, its LibreOffice pool; PGlite runs inside) spent per answer. */
  serverCpuMs: number;
  /** CPU the PostgreSQL backends of the server's database spent per answer (0 on PGlite: it is in serverCpuMs). */
  databaseCpuMs: number;
}

type LoadRequest = Omit<autocannon.Request, "onResponse"> & { onResponse?: (status: number, body: string) => void };

const SIGNING_DOCUMENTS = 20;

/**
 * The database's CPU ticks so far: PostgreSQL's backends, or the embedded database's thread, which is
 * inside the server's process (inServer) and so taken off the server's figure.
 */
let database: DatabaseMeter = NO_DATABASE;
let warmupSeconds = 0;
const WARM_DELIVERABLES = 20;

async function chooseDatabase(requested?: TestDatabase): Promise<{ kind: TestDatabase; why: string }> {
  const asked = requested ?? (process.env.QUIRE_BENCH_DB as TestDatabase | undefined);
  if (asked) {
    if (asked !== "pglite" && asked !== "postgres") throw new Error(`--db/QUIRE_BENCH_DB must be pglite or postgres, not ${asked}`);
    return { kind: asked, why: "as asked" };
  }
  return (await postgresReachable()) ? { kind: "postgres", why: "reachable, the default" } : { kind: "pglite", why: "PostgreSQL not reachable" };
}

/** costMeter() of this process's children (the server) and its database, unless a run names its own. */
function serverCost(meter: Meter = { cpuMs: childrenCpuMs, database }) {
  return costMeter(meter);
}

/** An autocannon run whose figures nobody reads: a warm-up. */
function unmeasured(opts: autocannon.Options): Promise<void> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err) => (err ? reject(err) : resolve()));
  });
}

/** One steady-rate run (bench-paced.ts) after its warm-up, as a row of the table; `meter` says whose CPU it costs. */
async function paced(scenario: string, opts: Omit<PacedOptions, "progress">, meter: Meter): Promise<LoadRow> {
  if (warmupSeconds > 0) {
    process.stderr.write(`  ${scenario}: ${STEADY_STATE_REQUESTS} requests and ${warmupSeconds} s warm-up\r`);
    await unmeasured({
      url: opts.url,
      connections: 8,
      amount: STEADY_STATE_REQUESTS,
      timeout: 10,
      requests: [{ method: "GET", path: opts.path, headers: opts.headers }],
    });
    await pacedLoad({ ...opts, seconds: warmupSeconds });
  }
  const cost = await serverCost(meter);
  const r = await pacedLoad({
    ...opts,
    progress: (answered, elapsed) => process.stderr.write(`  ${scenario}: ${Math.round(elapsed)}/${opts.seconds} s, ${answered} answered   \r`),
  });
  const { cpuMs, dbCpuMs } = await cost();
  process.stderr.write("\n");
  const { sent: _sent, answered, ...outcome } = r;
  return {
    ...outcome,
    scenario,
    target: opts.rate,
    connections: opts.connections,
    requests: answered + r.errors,
    serverCpuMs: answered ? cpuMs / answered : Number.NaN,
    databaseCpuMs: answered ? dbCpuMs / answered : Number.NaN,
  };
}

/**
 * One autocannon run, as fast as its connections go, with a progress line per second on stderr.
 * `check` looks at each 2xx body; a body it refuses counts as a failure. Requests are counted from the
 * answers and errors. A steady rate is paced() instead: autocannon releases a rate per connection at
 * each second, in bursts, and its coordinated-omission correction fills the histogram with made-up values
 * below every real one.
 */
async function cannon(
  scenario: string,
  opts: Omit<autocannon.Options, "requests" | "overallRate" | "connectionRate">,
  request: LoadRequest,
  check: (body: string) => boolean,
  { meter, warm = true }: { meter?: Meter; warm?: boolean } = {},
): Promise<LoadRow> {
  // A timed scenario first runs unmeasured for a few seconds: without it, the first second of each scenario
  // (new query texts, code paths the JIT has not seen) pulled a 10-second figure down by a fifth.
  if (warm && opts.duration && warmupSeconds > 0) {
    process.stderr.write(`  ${scenario}: ${warmupSeconds} s warm-up\r`);
    await unmeasured({ ...opts, duration: warmupSeconds, requests: [request as autocannon.Request] });
  }
  const errorCodes: Record<string, number> = {};
  let badBodies = 0;
  const requests: autocannon.Request[] = [
    {
      ...request,
      onResponse: (status, body) => {
        if (status >= 200 && status < 300 && !check(body)) badBodies++;
        request.onResponse?.(status, body);
      },
    },
  ];
  let instance!: autocannon.Instance;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon({ ...opts, requests }, (err, result) => (err ? reject(err) : resolve(result)));
  });
  const started = Date.now();
  const cost = await serverCost(meter);
  // autocannon notices the end only at its next one-second sample, so its duration runs long on a fixed
  // amount: the rate is taken up to the last answer there (a timed run lasts its duration).
  let lastAnswer = started;
  instance.on("response", () => {
    lastAnswer = Date.now();
  });
  let done = 0;
  // "tick" (once a second) is missing from the type definitions.
  (instance as unknown as NodeJS.EventEmitter).on("tick", ({ counter }: { counter: number }) => {
    done += counter;
    const total = opts.amount ? `${done}/${opts.amount} requests` : `${Math.round((Date.now() - started) / 1000)}/${opts.duration} s, ${done} requests`;
    process.stderr.write(`  ${scenario}: ${total}, ${counter} in the last second   \r`);
  });
  instance.on("reqError", (err: { code?: string; message?: string }) => {
    const code = err.code ?? err.message ?? "unknown";
    errorCodes[code] = (errorCodes[code] ?? 0) + 1;
  });
  const r = await finished;
  const { cpuMs, dbCpuMs } = await cost();
  process.stderr.write("\n");
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]));
  return {
    scenario,
    connections: r.connections,
    requests: r.requests.total + r.errors,
    achieved: r.requests.total / (opts.amount ? Math.max(lastAnswer - started, 1) / 1000 : Number(opts.duration)),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    badBodies,
    errors: r.errors,
    timeouts: r.timeouts,
    errorCodes,
    statusCodes,
    serverCpuMs: r.requests.total ? cpuMs / r.requests.total : NaN,
    databaseCpuMs: r.requests.total ? dbCpuMs / r.requests.total : NaN,
  };
}

const isJsonData = (body: string) => body.startsWith('{"data"');

/** A scenario of inTurns(): one request as fast as 8 connections go, against one server, whose CPU it counts. */
interface Turn {
  scenario: string;
  url: string;
  request: LoadRequest;
  check: (body: string) => boolean;
  meter: Meter;
}

/** Rounds of inTurns(): each scenario runs `seconds / TURN_ROUNDS` at a time, the order turning each round. */
const TURN_ROUNDS = 5;

/**
 * Scenarios whose figures are compared with each other (Next.js alone, the bare route, an authenticated
 * route), measured in turns: each warmed up, then all in short runs, one after the other, over
 * TURN_ROUNDS rounds. Run one after another, each for 10 s, their CPU per request moved with this
 * machine's speed between them: the authenticated route came out 0.30-0.51 ms cheaper than the bare
 * route it adds to (2026-11-28). In turns, a slow spell falls on all of them alike. Each row pools its
 * rounds: requests and CPU summed, p50 and p99 the median of the rounds'.
 */
async function inTurns(turns: Turn[], seconds: number): Promise<LoadRow[]> {
  for (const t of turns) {
    process.stderr.write(`  ${t.scenario}: ${warmupSeconds} s warm-up\r`);
    await unmeasured({ url: t.url, connections: 8, duration: Math.max(warmupSeconds, 1), timeout: 10, requests: [t.request as autocannon.Request] });
  }
  const runSeconds = Math.max(1, Math.round(seconds / TURN_ROUNDS));
  const measured = turns.map((t) => ({ ...t, runs: [] as LoadRow[] }));
  for (let round = 0; round < TURN_ROUNDS; round++) {
    for (const t of turnOrder(measured, round)) {
      t.runs.push(
        await cannon(
          `${t.scenario}, round ${round + 1}/${TURN_ROUNDS}`,
          { url: t.url, connections: 8, duration: runSeconds, timeout: 10 },
          t.request,
          t.check,
          {
            meter: t.meter,
            warm: false,
          },
        ),
      );
    }
  }
  return measured.map((t) => pooled(t.scenario, t.runs, runSeconds));
}

/** One row from runs of `seconds` each: counts summed, CPU per answer over all answers, latencies the median run's. */
function pooled(scenario: string, rows: LoadRow[], seconds: number): LoadRow {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const answered = rows.map((r) => r.achieved * seconds);
  const total = answered.reduce((a, b) => a + b, 0);
  const weighted = (of: (r: LoadRow) => number) => rows.reduce((sum, r, i) => sum + of(r) * answered[i], 0) / total;
  const sum = (of: (r: LoadRow) => number) => rows.reduce((acc, r) => acc + of(r), 0);
  const tally = (of: (r: LoadRow) => Record<string, number>) => {
    const counts: Record<string, number> = {};
    for (const r of rows) for (const [key, count] of Object.entries(of(r))) counts[key] = (counts[key] ?? 0) + count;
    return counts;
  };
  return {
    scenario: `${scenario} (${rows.length} turns of ${seconds} s)`,
    connections: rows[0].connections,
    requests: sum((r) => r.requests),
    achieved: total / (seconds * rows.length),
    p50: median(rows.map((r) => r.p50)),
    p99: median(rows.map((r) => r.p99)),
    non2xx: sum((r) => r.non2xx),
    badBodies: sum((r) => r.badBodies),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    errorCodes: tally((r) => r.errorCodes),
    statusCodes: tally((r) => r.statusCodes),
    serverCpuMs: weighted((r) => r.serverCpuMs),
    databaseCpuMs: weighted((r) => r.databaseCpuMs),
  };
}

/**
 * Waits (at most 30 s) until a server's process tree is quiet: under 2% of a core over half a second.
 * Its setup (documents created and converted, prepared for signing) leaves work behind (LibreOffice closing
 * documents, the webhook and e-mail workers), which would count against whatever is measured next.
 */
async function settle(cpuMs: () => number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last = cpuMs();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuMs();
    if (now - last < 10) return;
    last = now;
  }
}

export async function benchLoad(options: LoadOptions): Promise<void> {
  warmupSeconds = options.warmupSeconds;
  const { kind, why } = await chooseDatabase(options.db);
  const db = DB_LABELS[kind];
  const dbLabel = kind === "pglite" ? "embedded PGlite" : "PostgreSQL";
  console.log(
    `\n## Load (autocannon) on ${dbLabel} (${why}); ${os.cpus().length} cores, load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );

  // The floor of goal 3, measured in turns with Quire's bare route (below); each counts its own process
  // tree. It also sends each list's page, as Quire sent it, at the lists' rate: what this machine and
  // this client hold at that rate for a reply of that size.
  const alone = await startNextAlone();
  const aloneMeter: Meter = { cpuMs: () => treeCpuMs(alone.pid), database: NO_DATABASE };
  let seed!: SeedResult;
  const quire = startQuireServer(kind, {
    // As deployed: info, so each API request writes its access line (the tests run at warn).
    extraEnv: { LOG_LEVEL: "info" },
    async beforeStart(env) {
      // Re-seeding the demo workspace sets its plan's per-key limit (and issues fresh keys).
      seed = runSeed(env, ["--rate-limit", "1000000"]);
      // One webhook, so GET /api/webhooks lists something; it listens for completions, which the load
      // never causes. Written here because the receiver URL is on loopback (the API refuses those).
      await createBenchWebhook(env, seed.orgId, ["https://127.0.0.1:9/quire"], (client) =>
        fillWorkspace(client, seed.orgId, { templates: 5_000, deliverables: 10_000, documents: 1_000 }),
      );
    },
  }).catch(async (err) => {
    await alone.stop();
    throw err;
  });
  const { server, stop, pid } = await quire;
  database = databaseMeter(server);
  const rows: LoadRow[] = [];
  const problems: string[] = [];
  let serverErrors = 0;
  // Goal 5: PGlite within 1.5x of PostgreSQL, on the whole CPU a request costs (server and database).
  const wholeCpu = (scenario: string, row: LoadRow) =>
    recordFigure({
      section: "API",
      db,
      measure: `${scenario}: server + database CPU per request`,
      quire: row.serverCpuMs + row.databaseCpuMs,
      unit: "ms",
      ...heldAgainstPostgres(kind),
    });
  let aloneRunning = true;
  const stopAlone = async () => {
    if (aloneRunning) await alone.stop();
    aloneRunning = false;
  };
  try {
    const { baseUrl } = server;
    const admin = as(baseUrl, seed, "administrator");
    const headers = { authorization: `Bearer ${seed.keys.administrator}`, "x-service-org-id": seed.orgId, accept: "application/json" };

    // Data to list and to sign; the first creates also warm the LibreOffice pool.
    const found = await admin("/template-item?type=template&query=services%20agreement");
    const templateId = found.json?.data?.results?.[0]?.id as string | undefined;
    if (!templateId) throw new Error(`the sample Services Agreement is missing: ${found.status} ${found.text}`);
    const deliverableBody = JSON.stringify({ name: "Load deliverable", templateId, variables: CONTRACT_VARIABLES });
    for (let i = 0; i < WARM_DELIVERABLES; i++) {
      const res = await admin("/v1/deliverable", { method: "POST", body: deliverableBody, headers: { "content-type": "application/json" } });
      if (res.status !== 200) throw new Error(`setup: create deliverable: ${res.status} ${res.text}`);
      process.stderr.write(`  setup: ${i + 1}/${WARM_DELIVERABLES} deliverables\r`);
    }
    process.stderr.write("\n");
    const signers: { documentId: string; recipientId: string; externalId: string }[] = [];
    for (let i = 0; i < SIGNING_DOCUMENTS; i++) {
      const recipients = [1, 2].map((n) => ({ name: `Signer ${n}`, email: `signer${n}.${i}@example.com`, externalId: `crm-${i}-${n}`, signingOrder: 1 }));
      const prep = await prepareDoc(baseUrl, seed, recipients, { documentName: `Load document ${i}` });
      if (prep.status !== 200) throw new Error(`setup: prepare-for-signing: ${prep.status} ${prep.text}`);
      const ids = (prep.json.data.recipients as { id: string }[]).map((r) => r.id);
      ids.forEach((recipientId, n) => signers.push({ documentId: prep.json.data.documentId, recipientId, externalId: recipients[n].externalId }));
      process.stderr.write(`  setup: ${i + 1}/${SIGNING_DOCUMENTS} documents prepared for signing\r`);
    }
    process.stderr.write("\n");

    // 0. Next.js alone, a bare route (Next.js, Quire's request id and access log, one SELECT 1) and the
    //    cheapest authenticated route, in turns: the differences are what Quire adds to any request, and
    //    what an API key and the rate limit cost.
    const quireMeter: Meter = { cpuMs: () => treeCpuMs(pid()), database };
    await settle(quireMeter.cpuMs);
    // Quire's own tree: Next.js alone is running beside it.
    const rssIdle = serverRssMb(pid());
    const [nextAlone, bare, whoami] = await inTurns(
      [
        {
          scenario: "GET /api/ping (Next.js alone)",
          url: alone.baseUrl,
          request: { method: "GET", path: NEXT_ALONE_PATH, headers: { accept: "application/json" } },
          check: (body) => body.includes('"status":"ok"'),
          meter: aloneMeter,
        },
        {
          scenario: "GET /api/health (bare route)",
          url: baseUrl,
          request: { method: "GET", path: "/api/health", headers: { accept: "application/json" } },
          check: (body) => body.includes('"database":"ok"'),
          meter: quireMeter,
        },
        {
          scenario: "GET /api/whoami (API key + rate limit)",
          url: baseUrl,
          request: { method: "GET", path: "/api/whoami", headers },
          check: isJsonData,
          meter: quireMeter,
        },
      ],
      options.seconds,
    );
    rows.push(nextAlone, bare, whoami);
    wholeCpu("bare route GET /api/health", bare);
    wholeCpu("GET /api/whoami", whoami);
    recordFigure({
      section: "API",
      db,
      measure: "bare route GET /api/health, server CPU per request",
      quire: bare.serverCpuMs,
      unit: "ms",
      floor: nextAlone.serverCpuMs,
      floorLabel: "Next.js alone, one route",
    });
    recordFigure({
      section: "API",
      db,
      measure: "bare route GET /api/health, 8 clients: rate",
      quire: bare.achieved,
      unit: "/s",
      floor: nextAlone.achieved,
      floorLabel: "Next.js alone, one route",
    });
    recordFigure({
      section: "API",
      db,
      measure: "API key + rate limit, CPU above the bare route",
      quire: whoami.serverCpuMs - bare.serverCpuMs,
      unit: "ms",
      goal: { op: "<=", value: 1.5, on: "value" },
    });

    // 1. Lists at a steady rate, limit 100, evenly spaced. Up to 20 requests in flight: at 200/s a request
    //    may take 100 ms before the rate slips.
    //    Right after each, Next.js alone sends the page Quire answered at the same rate, from the same
    //    client: the p99 this machine holds for that reply with no database and no Quire.
    const lists: [string, string, string][] = [
      ["GET /template-item", "/template-item?type=template&limit=100&column0=name&order0=asc", "templates"],
      ["GET /v1/deliverable", "/v1/deliverable?limit=100&showTags=true", "deliverables"],
      ["GET /esign/documents", "/esign/documents?limit=100", "documents"],
      ["GET /api/webhooks", "/api/webhooks", "webhooks"],
    ];
    const steady = { rate: options.rate, seconds: options.seconds, connections: 20, timeoutMs: 10_000, check: isJsonData };
    for (const [scenario, p, pageName] of lists) {
      const row = await paced(`${scenario} (limit 100)`, { ...steady, url: baseUrl, path: p, headers }, quireMeter);
      rows.push(row);
      const page = await admin(p);
      if (page.status !== 200) throw new Error(`${scenario}: ${page.status} ${page.text}`);
      const alonePath = alone.servePage(pageName, page.text);
      const alonePage = await paced(
        `GET ${alonePath} (Next.js alone, the same page)`,
        { ...steady, url: alone.baseUrl, path: alonePath, headers: { accept: "application/json" } },
        aloneMeter,
      );
      rows.push(alonePage);
      recordFigure({
        section: "API",
        db,
        measure: `${scenario} at ${options.rate}/s: rate held`,
        quire: row.achieved,
        unit: "/s",
        floor: options.rate,
        floorLabel: "asked",
        goal: { op: ">=", value: 0.97, on: "ratio" },
      });
      recordFigure({
        section: "API",
        db,
        measure: `${scenario} at ${options.rate}/s: p99`,
        quire: row.p99,
        unit: "ms",
        floor: alonePage.p99,
        floorLabel: `Next.js alone sending the same page at ${options.rate}/s`,
        goal: { op: "<=", value: 50, on: "value" },
      });
      recordFigure({
        section: "API",
        db,
        measure: `${scenario}: server CPU per request`,
        quire: row.serverCpuMs,
        unit: "ms",
        goal: { op: "<=", value: 4, on: "value" },
      });
      wholeCpu(scenario, row);
    }
    await stopAlone();
    const rssLists = serverRssMb(pid());

    // 2. Signing URLs, round-robin over the prepared signers, by recipientId and by externalId in turn.
    let n = 0;
    const signingUrl: LoadRequest = {
      method: "POST",
      setupRequest: (req) => {
        const s = signers[n % signers.length];
        const selector = Math.floor(n / signers.length) % 2 === 0 ? { recipientId: s.recipientId } : { externalId: s.externalId };
        n++;
        return {
          ...req,
          path: `/esign/documents/${s.documentId}/signing-url`,
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify(selector),
        };
      },
    };
    const issued = await cannon(
      "POST /esign/documents/{id}/signing-url",
      { url: baseUrl, connections: 8, duration: options.seconds, timeout: 10 },
      signingUrl,
      (body) => body.includes('"url":'),
    );
    rows.push(issued);
    recordFigure({
      section: "API",
      db,
      measure: "POST signing-url, 8 clients: rate",
      quire: issued.achieved,
      unit: "/s",
      goal: { op: ">=", value: 500, on: "value" },
    });
    recordFigure({
      section: "API",
      db,
      measure: "POST signing-url, 8 clients: p99",
      quire: issued.p99,
      unit: "ms",
      goal: { op: "<=", value: 25, on: "value" },
    });
    recordFigure({ section: "API", db, measure: "POST signing-url: server CPU per request", quire: issued.serverCpuMs, unit: "ms" });
    wholeCpu("POST signing-url", issued);

    // 3. Deliverables with PDF: each request fills the DOCX and converts it in the LibreOffice pool.
    let lastDeliverable: string | undefined;
    const create: LoadRequest = {
      method: "POST",
      path: "/v1/deliverable",
      headers: { ...headers, "content-type": "application/json" },
      body: deliverableBody,
      onResponse: (status, body) => {
        if (status === 200)
          lastDeliverable = (JSON.parse(body) as { data?: { results?: { deliverable?: { id?: string } } } }).data?.results?.deliverable?.id ?? lastDeliverable;
      },
    };
    rows.push(
      await cannon("POST /v1/deliverable (DOCX + PDF)", { url: baseUrl, connections: 3, amount: options.pdfRequests, timeout: 60 }, create, isJsonData),
    );
    // The creates made real PDFs: fetch the last one.
    const pdf = await fetch(`${baseUrl}/v1/deliverable/file/pdf/${lastDeliverable}`, { headers });
    const bytes = Buffer.from(await pdf.arrayBuffer());
    if (pdf.status !== 200 || bytes.subarray(0, 5).toString() !== "%PDF-")
      problems.push(`the last deliverable created has no PDF: ${pdf.status} ${bytes.subarray(0, 200).toString()}`);

    const rssPool = serverRssMb(pid());
    recordFigure({
      section: "memory",
      db,
      measure: "server RSS: idle / after the lists / with the converter pool",
      quire: rssIdle,
      unit: "MB",
      floorLabel: `${rssLists.toFixed(0)} MB / ${rssPool.toFixed(0)} MB`,
    });
    const log = path.join(server.dataDir, "server.log");
    serverErrors = fs.existsSync(log)
      ? fs
          .readFileSync(log, "utf8")
          .split("\n")
          .filter((l) => /"level":(50|60)\b/.test(l)).length
      : 0;
  } finally {
    await stopAlone();
    await stop();
  }

  printLoadTable(rows, dbLabel, serverErrors);
  for (const r of rows) {
    if (failures(r) > (r.requests * options.maxErrorPct) / 100)
      problems.push(`${r.scenario}: ${failures(r)} of ${r.requests} requests failed (more than ${options.maxErrorPct}%)`);
  }
  if (problems.length) throw new Error(`load bench failed:\n  ${problems.join("\n  ")}`);
}

/** Requests without a proper answer: errors (timeouts, resets), non-2xx answers and unexpected 2xx bodies. */
function failures(r: LoadRow): number {
  return r.errors + r.non2xx + r.badBodies;
}

/** Counts as the table prints them: `503×2 429×1`. */
function listCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([key, count]) => `${key}×${count}`)
    .join(" ");
}

function printLoadTable(rows: LoadRow[], dbLabel: string, serverErrors: number) {
  console.log(
    `\n| scenario | conns | rps target / achieved | requests | p50 ms | p99 ms | non-2xx | errors | server CPU ms/req | database CPU ms/req |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
  );
  for (const r of rows) {
    const target = r.target === undefined ? "max" : String(r.target);
    const codes = listCounts(r.errorCodes);
    const errors = `${r.errors}${r.timeouts ? ` (${r.timeouts} timeouts)` : ""}${codes ? ` ${codes}` : ""}${r.badBodies ? `, ${r.badBodies} bad bodies` : ""}`;
    const non2xx = r.non2xx ? `${r.non2xx} (${listCounts(r.statusCodes)})` : "0";
    console.log(
      `| ${r.scenario} | ${r.connections} | ${target} / ${r.achieved.toFixed(1)} | ${r.requests} | ${r.p50} | ${r.p99} | ${non2xx} | ${errors} | ${Number.isNaN(r.serverCpuMs) ? "n/a" : r.serverCpuMs.toFixed(1)} | ${Number.isNaN(r.databaseCpuMs) ? "n/a" : r.databaseCpuMs.toFixed(1)} |`,
    );
  }
  const fixed = rows.filter((r) => r.target !== undefined);
  const held = fixed.filter((r) => r.achieved >= r.target! * 0.97);
  console.log(
    `\n${dbLabel}, ${os.cpus().length} cores, load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}. ` +
      `Fixed rate held (≥97% of target) by ${held.length} of ${fixed.length} list scenarios${
        held.length < fixed.length
          ? ` (not: ${fixed
              .filter((r) => !held.includes(r))
              .map((r) => r.scenario)
              .join(", ")})`
          : ""
      }. ` +
      `Latencies as measured, steady rates counted from each request's due time (see cannon() and bench-paced.ts); server CPU is Quire's process tree${dbLabel === "PostgreSQL" ? "; database CPU is PostgreSQL's backends for Quire's database (its background writers not included)" : " but for the embedded database's thread, whose CPU is the database's"}. ` +
      `Server log: ${serverErrors} error lines.`,
  );
}

// Pieces the bench sections share.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import http from "node:http";
import pg from "pg";
import { EMBEDDED_DATABASE_STARTED } from "../lib/db/driver";
import { POSTGRES_ADMIN_URL, type QuireTestServer, type TestDatabase } from "../tests/support/quire-server";

/**
 * One HTTP request on a kept-alive connection, body read whole: the client for every latency the bench
 * times. Not fetch(): on the 2-core machine undici's fetch added 2-3 ms of client time to each request
 * (GET /api/health p50 6.3 ms by fetch, 4.4 ms by node:http, 2026-11-26), time that is the bench's own and
 * not the server's. Each caller gets its own socket from the pool (one per concurrent request).
 */
const benchAgent = new http.Agent({ keepAlive: true });
export function httpRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: Buffer }> {
  const method = init.method ?? "GET";
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: init.headers, agent: benchAgent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      // A kept-alive socket idle for the server's keep-alive timeout (5 s) can be closed by the server
      // just as it is reused (the lists section idles its sockets to Quire while Next.js alone runs):
      // a GET is sent again, as Node's documentation of `reusedSocket` does.
      if (req.reusedSocket && err.code === "ECONNRESET" && method === "GET") httpRequest(url, init).then(resolve, reject);
      else reject(err);
    });
    req.end(init.body);
  });
}

/** The variables for the sample Services Agreement: text, html and a repeated row. */
export const CONTRACT_VARIABLES = [
  { placeholder: "{ClientName}", text: "Globex Corporation", mimeType: "text" as const },
  { placeholder: "{ClientAddress}", text: "1 Main Street\nSpringfield", mimeType: "text" as const },
  { placeholder: "{EffectiveDate}", text: "1 March 2027", mimeType: "text" as const },
  { placeholder: "{ProviderName}", text: "Quire Consulting", mimeType: "text" as const },
  { placeholder: "{Fee}", text: "12,000 EUR", mimeType: "text" as const },
  { placeholder: "{@Scope}", text: "<p>Build <b>the portal</b></p><ul><li>Design</li><li>Delivery</li></ul>", mimeType: "html" as const },
  {
    placeholder: "{ItemName}",
    mimeType: "text" as const,
    variableStack: [
      { text: "Discovery", mimeType: "text" as const },
      { text: "Build", mimeType: "text" as const },
    ],
  },
];

const CLOCK_TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

const ticksToMs = (ticks: number) => (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

/**
 * A process's parent, the CPU ticks it has used (utime + stime) and those of its children it has reaped
 * (cutime + cstime), from /proc; null once it has exited. `pid` is a process id, or
 * "<pid>/task/<thread id>" for one thread (whose reaped children are its whole process's: not its own).
 */
function procStat(pid: number | string): { ppid: number; ticks: number; reaped: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(comm)": state ppid ... utime (12th) stime (13th) cutime (14th) cstime (15th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), reaped: Number(fields[13]) + Number(fields[14]) };
  } catch {
    return null;
  }
}

/**
 * The processes started from `root` (by default this one: the server, LibreOffice), each with the CPU
 * ticks it and the children it has reaped used: a process that exits (a recycled soffice) leaves its
 * ticks with its parent, so a tree's total never falls.
 */
function descendants(root = process.pid): Map<number, number> {
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (!stat) continue;
    parent.set(Number(entry), stat.ppid);
    ticks.set(Number(entry), stat.ticks + stat.reaped);
  }
  const descends = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return new Map([...ticks].filter(([pid]) => descends(pid)));
}

/**
 * CPU time (ms) used so far by the processes started from this one (the server, LibreOffice), those that
 * have exited included, read from /proc: on a shared machine the rate a server reaches says little, its
 * CPU per request says more. NaN where /proc is missing.
 */
export function childrenCpuMs(): number {
  const own = procStat(process.pid);
  if (!own) return NaN;
  return ticksToMs(own.reaped + sum(descendants().values()));
}

/** CPU time (ms) used so far by process `pid` and the processes it started (a server and its LibreOffice). */
export function treeCpuMs(pid: number): number {
  const own = procStat(pid);
  if (!own) return NaN;
  return ticksToMs(own.ticks + own.reaped + sum(descendants(pid).values()));
}

/**
 * CPU ticks spent so far by each PostgreSQL backend serving one database (pid -> ticks): with
 * childrenCpuMs() it gives a request's whole cost on PostgreSQL, comparable with PGlite, which runs inside
 * the server's process. Backends are read from pg_stat_activity; see backendCpuGrowthMs for the difference.
 */
export async function postgresBackendTicks(databaseUrl: string): Promise<Map<number, number>> {
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [database]);
    const ticks = new Map<number, number>();
    for (const { pid } of rows) {
      const stat = procStat(pid);
      if (stat) ticks.set(pid, stat.ticks);
    }
    return ticks;
  } finally {
    await client.end();
  }
}

/**
 * CPU ticks spent so far by the embedded database's thread inside the server (thread id -> ticks, read as
 * postgresBackendTicks reads backends), so that a request's cost splits into server and database on
 * PGlite as on PostgreSQL. The thread is the one the server names in its log when it starts it
 * (lib/db/driver.ts). Throws when the log has no such line.
 */
export function embeddedDatabaseTicks(serverLog: string): () => Promise<Map<number, number>> {
  const line = fs
    .readFileSync(serverLog, "utf8")
    .split("\n")
    .find((l) => l.includes(EMBEDDED_DATABASE_STARTED));
  const { pid, threadId } = line ? (JSON.parse(line) as { pid?: number; threadId?: number }) : {};
  if (!pid || !threadId) throw new Error(`the server's log (${serverLog}) does not name the embedded database's thread`);
  return async () => {
    // The thread's own figures are under its process's task/ (/proc/<thread id>/stat has the whole process's).
    const stat = procStat(`${pid}/task/${threadId}`);
    return new Map(stat ? [[threadId, stat.ticks]] : []);
  };
}

/**
 * CPU (ms) the backends spent between two snapshots. A backend that exits in between (the pool closes
 * idle connections) takes its last ticks with it: the figure is then a lower bound, never negative.
 */
export function backendCpuGrowthMs(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticksToMs(ticks);
}

/** The CPU ticks of a server's database so far, by backend or thread (postgresBackendTicks, embeddedDatabaseTicks). */
export interface DatabaseMeter {
  ticks: () => Promise<Map<number, number>>;
  /** The embedded database runs inside the server's process: its CPU is taken off the server's figure. */
  inServer: boolean;
}

/** Whose CPU a run counts: a process tree and its database. */
export interface Meter {
  cpuMs: () => number;
  database: DatabaseMeter;
}

export const NO_DATABASE: DatabaseMeter = { ticks: async () => new Map(), inServer: false };

/**
 * A test server's database, metered apart from the server: PostgreSQL's backends for its database, or the
 * embedded database's thread inside the server's process. "Server CPU" is then Quire's own work on both,
 * and server + database compares PGlite with PostgreSQL fairly (issue 17, goal 5).
 */
export function databaseMeter(server: Pick<QuireTestServer, "db" | "env" | "dataDir">): DatabaseMeter {
  return server.db === "postgres"
    ? { ticks: () => postgresBackendTicks(server.env.DATABASE_URL!), inServer: false }
    : { ticks: embeddedDatabaseTicks(path.join(server.dataDir, "server.log")), inServer: true };
}

/** Starts counting a server's and its database's CPU; the function returned reads what each spent since. */
export async function costMeter(meter: Meter): Promise<() => Promise<{ cpuMs: number; dbCpuMs: number }>> {
  const dbTicksBefore = await meter.database.ticks();
  const cpuBefore = meter.cpuMs();
  return async () => {
    const cpuMs = meter.cpuMs() - cpuBefore;
    const dbCpuMs = backendCpuGrowthMs(dbTicksBefore, await meter.database.ticks());
    return { cpuMs: meter.database.inServer ? cpuMs - dbCpuMs : cpuMs, dbCpuMs };
  };
}

/**
 * Resident memory (MB) of a server and the processes it started (its LibreOffice pool); by default of
 * every process started from this one.
 */
export function serverRssMb(server?: number): number {
  if (!fs.existsSync("/proc/self/status")) return NaN;
  let kb = 0;
  for (const pid of server === undefined ? descendants().keys() : [server, ...descendants(server).keys()]) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return kb / 1024;
}

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a webhook straight into the database of a server that has not started yet (the embedded
 * database belongs to one process at a time; the API also refuses loopback receivers).
 */
export async function createBenchWebhook(
  env: Record<string, string | undefined>,
  orgId: string,
  urls: string[],
  extra?: (db: import("../lib/db/client").Db) => Promise<void>,
): Promise<{ secret: string }> {
  Object.assign(process.env, env);
  const { closeDb } = await import("../lib/db/client");
  const { webhookDeps } = await import("../lib/webhooks/service");
  const { createWebhook } = await import("../lib/webhooks/webhooks");
  const deps = await webhookDeps();
  const user = await deps.db.apiKey.findFirstOrThrow({ where: { orgId }, select: { userId: true } });
  const hook = await createWebhook(
    { ...deps, allowPrivate: true },
    { orgId, userId: user.userId },
    { name: "signature", urls, events: ["signature.document.completed"] },
  );
  await extra?.(deps.db);
  await closeDb();
  return { secret: hook.secret };
}

/**
 * One figure of the summary table: Quire's measure beside its floor or peer, measured in the same run.
 * Each section runs in its own process (configuration and the embedded database are per process), so
 * figures are appended as JSON lines to the file QUIRE_BENCH_FIGURES names; the parent prints them.
 */
export interface Figure {
  section: string;
  /** "PostgreSQL", "PGlite", or "" where no database is involved. */
  db: string;
  measure: string;
  quire: number;
  unit: string;
  /** The floor or peer: what Quire is held against. Absent for figures that are only reported. */
  floor?: number;
  floorLabel?: string;
  /** The floor is this same measure (section and name) on another database of the run, e.g. PGlite held against PostgreSQL. */
  peerDb?: string;
  /** The goal on quire / floor (or on quire alone when there is no floor), e.g. "<= 1.15x", ">= 500/s". */
  goal?: { op: "<=" | ">="; value: number; on: "ratio" | "value" };
}

/** A database as the figures name it (Figure.db). */
export const DB_LABELS: Record<TestDatabase, string> = { pglite: "PGlite", postgres: "PostgreSQL" };

/** Goal 5: a PGlite figure is held against the same figure on PostgreSQL, within 1.5x; a PostgreSQL figure is the peer. */
export function heldAgainstPostgres(db: TestDatabase): Pick<Figure, "peerDb" | "goal"> {
  return db === "pglite" ? { peerDb: DB_LABELS.postgres, goal: { op: "<=", value: 1.5, on: "ratio" } } : {};
}

export function recordFigure(figure: Figure): void {
  const file = process.env.QUIRE_BENCH_FIGURES;
  if (file) fs.appendFileSync(file, `${JSON.stringify(figure)}\n`);
}

function format(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

/** The single table `npm run bench` ends with (README "Performance"). */
export function printSummary(file: string): void {
  if (!fs.existsSync(file)) return;
  const figures = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Figure);
  if (!figures.length) return;
  console.log(`\n## Summary (${os.cpus().length} cores, Node.js ${process.version}; ratio = Quire / floor or peer)\n`);
  console.log("| section | database | measure | Quire | floor / peer | ratio | goal | met |");
  console.log("|---|---|---|---:|---|---:|---|---|");
  for (const f of figures) {
    if (f.peerDb) {
      const peer = figures.find((o) => o.db === f.peerDb && o.section === f.section && o.measure === f.measure);
      if (peer) Object.assign(f, { floor: peer.quire, floorLabel: f.peerDb });
    }
    const ratio = f.floor ? f.quire / f.floor : undefined;
    const on = f.goal?.on === "ratio" ? ratio : f.quire;
    const met = f.goal && on !== undefined && Number.isFinite(on) ? ((f.goal.op === "<=" ? on <= f.goal.value : on >= f.goal.value) ? "yes" : "no") : "";
    const goal = f.goal ? `${f.goal.op} ${f.goal.value}${f.goal.on === "ratio" ? "x" : ` ${f.unit}`}` : "";
    const floor = f.floor !== undefined ? `${f.floorLabel}: ${format(f.floor, f.unit)}` : (f.floorLabel ?? "");
    console.log(
      `| ${f.section} | ${f.db} | ${f.measure} | ${format(f.quire, f.unit)} | ${floor} | ${ratio !== undefined ? `${ratio.toFixed(2)}x` : ""} | ${goal} | ${met} |`,
    );
  }
}

export interface Timing {
  label: string;
  p50: number;
  p99: number;
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A round's order when contestants are measured in turns: each round starts one later than the last. */
export function turnOrder<T>(items: readonly T[], round: number): T[] {
  return items.map((_, i) => items[(i + round) % items.length]);
}

/**
 * p50 and p99 of each contestant's sequential calls, measured in turns: each warmed up first (warmUp),
 * then `requests` calls each in `rounds` rounds, the order turning each round; each contestant's samples
 * pooled. One after another instead, a floor and the thing held against it were timed in different speeds
 * of the machine: the raw SQL of the template page, measured first, came out at twice the time of Quire's
 * own listing of that page measured next, which runs the same statement and more (PGlite, 2026-11-28).
 */
export async function timeInTurns(
  contestants: { label: string; fn: () => Promise<unknown> }[],
  requests: number,
  warmupSeconds = 0,
  rounds = 5,
): Promise<Timing[]> {
  for (const c of contestants) await warmUp(c.fn, warmupSeconds);
  const timed = contestants.map((c) => ({ ...c, samples: [] as number[] }));
  const perRound = Math.ceil(requests / rounds);
  for (let round = 0; round < rounds; round++) {
    for (const c of turnOrder(timed, round)) {
      for (let n = 0; n < perRound; n++) {
        const started = performance.now();
        await c.fn();
        c.samples.push(performance.now() - started);
      }
    }
    process.stderr.write(`  ${contestants.map((c) => c.label).join(", ")}: round ${round + 1}/${rounds}\r`);
  }
  process.stderr.write("\n");
  return timed.map((c) => timingOf(c.label, c.samples));
}

/** p50 and p99 of latencies in milliseconds. */
export function timingOf(label: string, samples: number[]): Timing {
  return { label, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** `count` calls from `clients` callers, each taking the next call as soon as its last one is done. */
export async function inParallel(once: () => Promise<unknown>, count: number, clients: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) {
        next++;
        await once();
      }
    }),
  );
}

/**
 * Requests a list gets, as fast as 8 connections go, before its timed run over HTTP: the figure is a
 * server's steady state, as in generation. After only a few seconds of warm-up, GET /template-item cost
 * 2.4-2.5 ms of server CPU per request, and 1.8-2.1 ms when the same list ran again 50 s later (four runs,
 * 2026-11-28): V8 was still optimizing the path. Its p50 one at a time: 9.3 ms after 3 s of warm-up,
 * 7.0 ms after these.
 */
export const STEADY_STATE_REQUESTS = 2_000;

/**
 * Calls `fn` unmeasured, at least 10 times and for `seconds`: a server just started loads and compiles
 * each code path on its first requests, and its JIT keeps optimizing for a while after (a create's
 * Node.js CPU fell from 16.8 to 12.4 ms per document over its first 2,000 documents, 2026-11-27).
 */
export async function warmUp(fn: () => Promise<unknown>, seconds: number): Promise<void> {
  const until = performance.now() + seconds * 1000;
  for (let i = 0; i < 10 || performance.now() < until; i++) await fn();
}

export function printTable(rows: Timing[]): void {
  console.log(`| what | p50 ms | p99 ms |\n|---|---:|---:|`);
  for (const r of rows) console.log(`| ${r.label} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
}

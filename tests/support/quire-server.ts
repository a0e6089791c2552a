// Starts the built Quire server for tests: a fresh database (embedded PGlite in a temp DATA_DIR, or
// a new database on the local PostgreSQL), seeded through the real seed CLI, on a free port.
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import type { SeedResult } from "@/lib/orgs/seed";
import { persistedSecret } from "@/lib/config";

export type TestDatabase = "pglite" | "postgres";

export interface QuireTestServer {
  baseUrl: string;
  db: TestDatabase;
  dataDir: string;
  /** The demo workspace. */
  seed: SeedResult;
  /** A second organization, for isolation tests. */
  other: SeedResult;
  /** An organization whose plan allows 5 requests per minute per key. */
  limited: SeedResult;
  /** Environment the server runs with (for running CLI tools against it). */
  env: Record<string, string | undefined>;
}

const ROOT = path.resolve(__dirname, "..", "..");
/** How every server here is started, as `npm start` starts it: Node.js on PATH (the pinned one under npm), V8's settings. */
export const SERVE_SCRIPT = path.join(ROOT, "scripts", "serve.sh");
export const POSTGRES_ADMIN_URL = process.env.QUIRE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const seedCommand = (args: string[]) => [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/seed.ts", "--json", ...args];
const seedResult = (stdout: string) => JSON.parse(stdout.trim().split("\n").pop() as string) as SeedResult;

/** The seed CLI, waited for synchronously: only before a server starts (it blocks the event loop). */
export function runSeed(env: Record<string, string | undefined>, args: string[] = []): SeedResult {
  const result = spawnSync(process.execPath, seedCommand(args), { cwd: ROOT, env: env as NodeJS.ProcessEnv, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`seed failed (${result.status}): ${result.stderr}`);
  return seedResult(result.stdout);
}

/**
 * The seed CLI while a server runs, without blocking the event loop: a loop blocked for seconds cannot
 * retire keep-alive sockets the server has closed meanwhile, and the test's next POST went out on one
 * ("other side closed") under load.
 */
export async function runSeedInBackground(env: Record<string, string | undefined>, args: string[] = []): Promise<SeedResult> {
  const { stdout } = await promisify(execFile)(process.execPath, seedCommand(args), { cwd: ROOT, env: env as NodeJS.ProcessEnv, encoding: "utf8" }).catch(
    (err: { code?: number; stderr?: string }) => {
      throw new Error(`seed failed (${err.code}): ${err.stderr}`);
    },
  );
  return seedResult(stdout);
}

async function waitForHealth(baseUrl: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Quire exited with ${child.exitCode}; log:\n${fs.readFileSync(logFile, "utf8")}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Quire did not become healthy; log:\n${fs.readFileSync(logFile, "utf8")}`);
}

export interface StartOptions {
  extraEnv?: Record<string, string | undefined>;
  /** Runs after seeding and before the server starts (the embedded database is free then). */
  beforeStart?: (env: Record<string, string | undefined>, seed: SeedResult) => Promise<void>;
}

export interface RunningQuire {
  server: QuireTestServer;
  stop: () => Promise<void>;
  /** Stops the server (hard: SIGKILL of its process group) and starts it again on the same port, DATA_DIR and database. */
  restart: (opts?: { hard?: boolean }) => Promise<void>;
  /** Sends `signal` to the server process alone (as `docker stop` does to PID 1) and resolves with how it exited. */
  terminate: (signal?: NodeJS.Signals) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The server's process id (a restart changes it): the bench reads the CPU of its process tree. */
  pid: () => number;
}

export async function startQuireServer(db: TestDatabase, options: StartOptions = {}): Promise<RunningQuire> {
  const extraEnv = options.extraEnv ?? {};
  if (!fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"))) throw new Error("No production build: run `npm run build` first (npm test does).");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `quire-test-${db}-`));
  const baseUrl = `http://127.0.0.1:${port}`;
  let databaseName: string | undefined;
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    BASE_URL: baseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.QUIRE_TEST_LOG_LEVEL ?? "warn",
    // Lets tests cross passcode rate-limit windows (POST /api/internal/clock).
    QUIRE_TEST_CLOCK: "1",
    // Lets race tests keep one request at a named point (lib/server/test-faults.ts heldForTest).
    QUIRE_TEST_HOLDS: "1",
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  if (db === "postgres") {
    databaseName = `quire_test_${process.pid}_${Date.now()}`;
    await withAdmin((c) => c.query(`CREATE DATABASE "${databaseName}"`));
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${databaseName}`;
    env.DATABASE_URL = url.toString();
  }

  // Seeding before start also proves the CLI migrates a fresh database by itself.
  const seed = runSeed(env);
  const other = runSeed(env, ["--org", "other"]);
  const limited = runSeed(env, ["--org", "limited", "--rate-limit", "5"]);
  await options.beforeStart?.(env, seed);

  const logFile = path.join(dataDir, "server.log");
  const log = fs.openSync(logFile, "a");
  const launch = () => spawnServer(env, port, log);
  let child = launch();
  await waitForHealth(baseUrl, child, logFile);
  const kill = (signal: NodeJS.Signals, graceMs: number) => killGroup(child, signal, graceMs);

  const stop = async () => {
    await kill("SIGTERM", 10_000);
    fs.closeSync(log);
    if (databaseName) await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`));
    if (!process.env.QUIRE_TEST_KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const restart = async (opts: { hard?: boolean } = {}) => {
    // hard: SIGKILL, as a crash or an OOM kill would: no shutdown hooks, no database close.
    await kill(opts.hard ? "SIGKILL" : "SIGTERM", 10_000);
    if (child.exitCode === null && child.signalCode === null) throw new Error("Quire did not exit before restart");
    fs.writeSync(log, `\n--- restart (${opts.hard ? "SIGKILL" : "SIGTERM"}) ---\n`);
    child = launch();
    await waitForHealth(baseUrl, child, logFile);
  };
  return {
    server: { baseUrl, db, dataDir, seed, other, limited, env },
    stop,
    restart,
    terminate: (signal) => terminateProcess(child, signal),
    pid: () => child.pid!,
  };
}

function spawnServer(env: Record<string, string | undefined>, port: number, logFd: number): ChildProcess {
  return spawn("bash", [SERVE_SCRIPT, "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", logFd, logFd],
    detached: true,
  });
}

/** Signals the whole process group (detached: the server and anything it spawned) and waits for the exit. */
export async function killGroup(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
}

/** Signals the server process alone (as `docker stop` does to PID 1) and resolves with how it exited. */
function terminateProcess(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, sig) => resolve({ code, signal: sig }));
  });
  child.kill(signal);
  return exited;
}

export interface SecondInstanceOptions {
  extraEnv?: Record<string, string | undefined>;
  /**
   * Start in the first server's DATA_DIR instead of a fresh one (the embedded database lives there, so
   * on PGlite this is "a second process on the same database"). The log then goes to server-2.log.
   */
  sameDataDir?: boolean;
  /** Do not hand over the first server's NEXTAUTH_SECRET (to show what a missing shared secret does). */
  ownSecret?: boolean;
}

/**
 * A second app process on the first one's database: same environment and DATABASE_URL, its own port
 * and (unless sameDataDir) its own DATA_DIR for its log and local secrets. What every instance must
 * share is handed over the way an operator would: NEXTAUTH_SECRET set to the first one's. Files are
 * shared only through S3 storage (start the first server with startS3Server().env) or sameDataDir.
 * Stopping it leaves the database alone (the first server drops it).
 */
export async function startSecondInstance(first: QuireTestServer, options: SecondInstanceOptions = {}): Promise<RunningQuire> {
  const port = await freePort();
  const dataDir = options.sameDataDir ? first.dataDir : fs.mkdtempSync(path.join(os.tmpdir(), `quire-test-${first.db}-2-`));
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    ...first.env,
    PORT: String(port),
    BASE_URL: baseUrl,
    DATA_DIR: dataDir,
    NEXTAUTH_SECRET: options.ownSecret ? first.env.NEXTAUTH_SECRET : (first.env.NEXTAUTH_SECRET ?? persistedSecret(first.dataDir, "nextAuthSecret")),
    ...options.extraEnv,
  };
  const logFile = path.join(dataDir, options.sameDataDir ? "server-2.log" : "server.log");
  const log = fs.openSync(logFile, "a");
  const child = spawnServer(env, port, log);
  const stop = async () => {
    await killGroup(child, "SIGTERM", 10_000);
    fs.closeSync(log);
    if (!options.sameDataDir && !process.env.QUIRE_TEST_KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, logFile);
  } catch (err) {
    await stop();
    throw err;
  }
  const restart = () => Promise.reject(new Error("restart is not supported for a second instance"));
  return { server: { ...first, baseUrl, dataDir, env }, stop, restart, terminate: (signal) => terminateProcess(child, signal), pid: () => child.pid! };
}

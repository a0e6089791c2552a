// The raw database connection under Prisma: the embedded PGlite, on its own thread
// (lib/db/pglite-remote.ts), or a PostgreSQL pool.
// Kept on globalThis because Next.js may load this module in several bundles of one process,
// and two PGlite instances on one directory would corrupt it.
import fs from "node:fs";
import type { Pool } from "pg";
import type { DatabaseConfig } from "@/lib/config";
import { type PreparedQueries, preparedQueries } from "@/lib/db/pg-prepared";
import { log } from "@/lib/log";
import type { PGliteLike } from "@/lib/db/pglite-remote";

/**
 * pglite: the worker's handle in the server; tests may pass an in-thread PGlite, which has the same shape.
 * postgres: `planned`, when there, is a second pool whose connections keep generic plans (genericPlan).
 */
export type Driver = { kind: "pglite"; pglite: PGliteLike } | { kind: "postgres"; pool: Pool; prepared?: PreparedQueries; planned?: Pool };

export interface SqlQueryOptions {
  /**
   * The statement's best plan does not depend on its values (a page under a LIMIT, say): plan it once.
   * The embedded database sets it around the statement (lib/db/pglite-prepared.mjs); on PostgreSQL the
   * statement runs on the pool whose connections keep generic plans (`planned`), named as any other.
   */
  genericPlan?: boolean;
}

/** Minimal SQL surface shared by both drivers (used by the migrator and health check). */
export interface SqlRunner {
  /** Runs one or more statements without parameters. */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: SqlQueryOptions): Promise<T[]>;
  /** Runs fn on one connection inside BEGIN/COMMIT, with a session-level lock where it matters. */
  transaction<R>(fn: (tx: SqlRunner) => Promise<R>): Promise<R>;
}

/** The log line that names the embedded database's thread. */
export const EMBEDDED_DATABASE_STARTED = "embedded database running on its own thread";

const registry = globalThis as unknown as { __quireDriver?: Promise<Driver> };

export function getDriver(db: DatabaseConfig): Promise<Driver> {
  registry.__quireDriver ??= openDriver(db);
  return registry.__quireDriver;
}

/** A driver of its own (getDriver keeps the process's one). */
export async function openDriver(db: DatabaseConfig): Promise<Driver> {
  if (db.kind === "pglite") {
    fs.mkdirSync(db.dataDir, { recursive: true });
    const { openPGliteWorker } = await import("@/lib/db/pglite-remote");
    const pglite = await openPGliteWorker(db.dataDir);
    // Its thread id tells the database's CPU from the server's (top -H; npm run bench reads it here).
    log.info({ pid: process.pid, threadId: pglite.threadId }, EMBEDDED_DATABASE_STARTED);
    return { kind: "pglite", pglite };
  }
  const pg = await import("pg");
  const pool = new pg.default.Pool({ connectionString: db.url, max: POOL_SIZE });
  if (!db.preparedStatements) return { kind: "postgres", pool };
  // PostgreSQL plans a prepared statement with a LIMIT again on every call: its generic plan assumes a
  // tenth of the rows, so plan_cache_mode = auto never takes it, though it is the cheaper one for a
  // list's page (issue 17: 0.2-0.5 ms of a 1-1.5 ms statement). Set once per connection, when it opens
  // and before any statement of ours (pg-pool's documented use of its connect event), whatever options
  // DATABASE_URL gives. Not behind a pooler (prepared statements off): its connections are not ours.
  const planned = new pg.default.Pool({ connectionString: db.url, max: POOL_SIZE });
  planned.on("connect", (client) => {
    client.query(GENERIC_PLANS).catch((err: Error) => log.warn({ err }, "could not set a connection to keep generic plans"));
  });
  return { kind: "postgres", pool, prepared: preparedQueries(), planned };
}

/** Connections per pool; a pool opens them as requests need them and closes them when idle. */
const POOL_SIZE = 10;
const GENERIC_PLANS = "SET plan_cache_mode = force_generic_plan";

export function sqlRunner(driver: Driver): SqlRunner {
  if (driver.kind === "pglite") {
    const run = (db: Pick<PGliteLike, "exec" | "query">): SqlRunner => ({
      exec: async (sql) => void (await db.exec(sql)),
      query: async <T>(sql: string, params?: unknown[], options?: SqlQueryOptions) => (await db.query<T>(sql, params, options)).rows,
      transaction: (fn) => driver.pglite.transaction((tx) => fn(run(tx))),
    });
    return run(driver.pglite);
  }
  const { pool, prepared, planned } = driver;
  return {
    exec: async (sql) => void (await pool.query(sql)),
    // Named outside transactions only: there a stale statement's error can be retried (inside one it
    // would have aborted the transaction).
    query: async <T>(sql: string, params?: unknown[], options?: SqlQueryOptions) =>
      (prepared && params?.length ? await prepared.query((options?.genericPlan && planned) || pool, sql, params) : await pool.query(sql, params)).rows as T[],
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const tx: SqlRunner = {
          exec: async (sql) => void (await client.query(sql)),
          query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
          transaction: () => Promise.reject(new Error("nested transactions are not supported")),
        };
        const result = await fn(tx);
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
  };
}

export async function closeDriver(): Promise<void> {
  const pending = registry.__quireDriver;
  registry.__quireDriver = undefined;
  if (!pending) return;
  const driver = await pending;
  if (driver.kind === "pglite") await driver.pglite.close();
  else {
    if (!driver.pool.ended) await driver.pool.end();
    if (driver.planned && !driver.planned.ended) await driver.planned.end();
  }
}

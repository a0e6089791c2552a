// A real embedded database for unit tests that need SQL: in memory, every migration applied.
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll } from "vitest";
import { sqlRunner, type SqlRunner } from "@/lib/db/driver";
import { applyMigrations } from "@/lib/db/migrate";

export interface MigratedPGlite {
  pglite: PGlite;
  sql: SqlRunner;
}

/** A fresh in-memory PGlite with every migration applied; the caller closes it. */
export async function openMigratedPGlite(): Promise<MigratedPGlite> {
  const pglite = await PGlite.create();
  const sql = sqlRunner({ kind: "pglite", pglite });
  await applyMigrations(sql);
  return { pglite, sql };
}

/** One per test file: registers the file's hooks; the database is open from its beforeAll on and closed after the file. */
export function migratedPGlite(): Readonly<MigratedPGlite> {
  const db = {} as MigratedPGlite;
  beforeAll(async () => {
    Object.assign(db, await openMigratedPGlite());
  });
  afterAll(async () => {
    await db.pglite?.close();
  });
  return db;
}

/** The statistics system publishes a backend's counters at most once a second; tests cannot wait for that. */
export async function publishCounters(sql: SqlRunner): Promise<void> {
  await sql.query("SELECT pg_stat_force_next_flush()");
  await sql.query("SELECT 1");
}

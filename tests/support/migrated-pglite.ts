// A real embedded database for unit tests that need SQL: in memory, every migration applied, one per test file.
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll } from "vitest";
import { sqlRunner, type SqlRunner } from "@/lib/db/driver";
import { applyMigrations } from "@/lib/db/migrate";

/** Registers the file's hooks: the database is open from its beforeAll on and closed after the file. */
export function migratedPGlite(): { readonly pglite: PGlite; readonly sql: SqlRunner } {
  const db = {} as { pglite: PGlite; sql: SqlRunner };
  beforeAll(async () => {
    db.pglite = await PGlite.create();
    db.sql = sqlRunner({ kind: "pglite", pglite: db.pglite });
    await applyMigrations(db.sql);
  });
  afterAll(async () => {
    await db.pglite?.close();
  });
  return db;
}

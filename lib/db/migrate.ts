// Applies the committed Prisma migrations (prisma/migrations/*/migration.sql) in-process at start.
// It keeps Prisma's own `_prisma_migrations` bookkeeping, so `prisma migrate status/dev` agree with it,
// and takes a PostgreSQL advisory lock so several instances starting together migrate once.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { SqlRunner } from "@/lib/db/driver";

const LOCK_ID = 727_364_001; // arbitrary, constant: "quire migrations"

export interface MigrationResult {
  applied: string[];
}

export function migrationsDir(): string {
  return path.join(process.cwd(), "prisma", "migrations");
}

function listMigrations(dir: string): { name: string; sql: string; checksum: string }[] {
  if (!fs.existsSync(dir)) throw new Error(`Migrations folder not found: ${dir}`);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

export async function applyMigrations(db: SqlRunner, dir = migrationsDir()): Promise<MigrationResult> {
  const migrations = listMigrations(dir);
  return db.transaction(async (tx) => {
    // Transaction-scoped: released at COMMIT/ROLLBACK, so a crash never leaves it held.
    await tx.query("SELECT pg_advisory_xact_lock($1)", [LOCK_ID]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const done = await tx.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const doneByName = new Map(done.map((r) => [r.migration_name, r.checksum]));
    const applied: string[] = [];
    for (const m of migrations) {
      const previous = doneByName.get(m.name);
      if (previous !== undefined) {
        if (previous !== m.checksum) {
          throw new Error(`Migration ${m.name} was changed after it was applied (checksum mismatch).`);
        }
        continue;
      }
      await tx.exec(m.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
         VALUES ($1, $2, now(), $3, 1)`,
        [crypto.randomUUID(), m.checksum, m.name],
      );
      applied.push(m.name);
    }
    return { applied };
  });
}

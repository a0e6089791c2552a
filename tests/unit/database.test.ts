// The migrator and the rate limiter against a real (in-memory) PostgreSQL: PGlite.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitKey } from "@/lib/auth/rate-limit";
import { sqlRunner } from "@/lib/db/driver";
import { applyMigrations, migrationsDir } from "@/lib/db/migrate";
import { maintainEmbeddedDatabase } from "@/lib/db/pglite-maintenance";
import { RateLimitedError, UnauthenticatedError } from "@/lib/errors";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { publishCounters } from "../support/migrated-pglite";

let pglite: PGlite;
let prisma: PrismaClient;

beforeAll(async () => {
  pglite = await PGlite.create();
  prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
});
afterAll(async () => {
  await prisma.$disconnect();
  await pglite.close();
});

describe("applyMigrations", () => {
  it("applies every committed migration once and records it the way Prisma does", async () => {
    const runner = sqlRunner({ kind: "pglite", pglite });
    const first = await applyMigrations(runner);
    const committed = fs.readdirSync(migrationsDir()).filter((d) => fs.statSync(path.join(migrationsDir(), d)).isDirectory());
    expect(first.applied).toEqual(committed.sort());
    expect((await applyMigrations(runner)).applied).toEqual([]);
    const rows = await runner.query<{ migration_name: string; finished_at: Date | null }>(`SELECT migration_name, finished_at FROM "_prisma_migrations"`);
    expect(rows.map((r) => r.migration_name).sort()).toEqual(committed.sort());
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });

  it("refuses to run when an applied migration was edited", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-migrations-"));
    fs.mkdirSync(path.join(dir, "001_a"));
    fs.writeFileSync(path.join(dir, "001_a", "migration.sql"), "CREATE TABLE edited_probe (id int);");
    const db = await PGlite.create();
    const runner = sqlRunner({ kind: "pglite", pglite: db });
    await applyMigrations(runner, dir);
    fs.writeFileSync(path.join(dir, "001_a", "migration.sql"), "CREATE TABLE edited_probe (id bigint);");
    await expect(applyMigrations(runner, dir)).rejects.toThrow(/checksum/);
    await db.close();
  });

  it("rolls a failing migration back completely", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-migrations-"));
    fs.mkdirSync(path.join(dir, "001_ok"));
    fs.writeFileSync(path.join(dir, "001_ok", "migration.sql"), "CREATE TABLE half_done (id int);");
    fs.mkdirSync(path.join(dir, "002_bad"));
    fs.writeFileSync(path.join(dir, "002_bad", "migration.sql"), "CREATE TABLE other (id int); SELECT * FROM missing_table;");
    const db = await PGlite.create();
    const runner = sqlRunner({ kind: "pglite", pglite: db });
    await expect(applyMigrations(runner, dir)).rejects.toThrow();
    const tables = await runner.query(`SELECT tablename FROM pg_tables WHERE tablename IN ('half_done', 'other', '_prisma_migrations')`);
    expect(tables).toEqual([]);
    await db.close();
  });
});

describe("admitKey", () => {
  /** An organization of its own (with `plan` settings), a user in it and a viewer key of theirs. */
  const newKey = async (name: string, plan: { rateLimitPerMinute?: number } = {}) => {
    const org = await prisma.organization.create({ data: { name, slug: `${name}-${Date.now()}`, ...plan } });
    const user = await prisma.user.create({ data: { email: `${name}-${Date.now()}@x.test`, name, passwordHash: "x" } });
    return prisma.apiKey.create({ data: { orgId: org.id, userId: user.id, name: "k", role: "viewer", prefix: `q${name}_${Date.now()}`, hash: "h" } });
  };

  it("counts per key per minute window and reports seconds to the next window", async () => {
    const runner = sqlRunner({ kind: "pglite", pglite });
    const key = await newKey("rate", { rateLimitPerMinute: 3 });
    const now = Date.UTC(2026, 0, 1, 12, 0, 45); // 15 s before the window ends
    for (let i = 0; i < 3; i++) expect((await admitKey(runner, key.id, { rateLimited: true, now })).rateLimitPerMinute).toBe(3);
    const err = await admitKey(runner, key.id, { rateLimited: true, now }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterSeconds).toBe(15);
    await expect(admitKey(runner, key.id, { rateLimited: true, now: now + 60_000 })).resolves.toMatchObject({
      rateLimitPerMinute: 3,
      maxStorageBytes: 1073741824n,
    });
    // Without the limiter nothing is counted; a revoked key is refused either way.
    await admitKey(runner, key.id, { rateLimited: false, now: now + 60_000 });
    const [{ count }] = await runner.query<{ count: number }>(`SELECT "count" FROM rate_limit_window WHERE "keyId" = $1 AND "windowStart" = $2`, [
      key.id,
      new Date(Date.UTC(2026, 0, 1, 12, 1, 0)),
    ]);
    expect(count).toBe(1);
    await prisma.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    await expect(admitKey(runner, key.id, { rateLimited: false, now })).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(admitKey(runner, key.id, { rateLimited: true, now: now + 120_000 })).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it("commits its count without waiting for the disk, for its own transaction only", async () => {
    const runner = sqlRunner({ kind: "pglite", pglite });
    const key = await newKey("async");
    const setting = async (on: { query: typeof runner.query }) =>
      (await on.query<{ synchronous_commit: string }>("SHOW synchronous_commit"))[0].synchronous_commit;
    // Alone, the statement is its own transaction; wrapped in one here so the setting can be read before it ends.
    const during = await runner.transaction(async (tx) => {
      await admitKey(tx, key.id, { rateLimited: true });
      return setting(tx);
    });
    expect(during).toBe("off");
    // Gone with the transaction: the connection's next writes commit as they always do.
    expect(await setting(runner)).toBe("on");
    await admitKey(runner, key.id, { rateLimited: true });
    expect(await setting(runner)).toBe("on");
    // Without the limiter nothing is written, and nothing is changed.
    const unlimited = await runner.transaction(async (tx) => {
      await admitKey(tx, key.id, { rateLimited: false });
      return setting(tx);
    });
    expect(unlimited).toBe("on");
  });

  it("keeps its table a page however busy a key is, and so out of the embedded database's upkeep", async () => {
    const runner = sqlRunner({ kind: "pglite", pglite });
    const key = await newKey("busy", { rateLimitPerMinute: 100_000 });
    const now = Date.UTC(2026, 0, 1, 13, 0, 0);
    await maintainEmbeddedDatabase(runner); // what was never analyzed, as the first round after a start
    for (let i = 0; i < 1000; i++) await admitKey(runner, key.id, { rateLimited: true, now });
    await publishCounters(runner);
    const [table] = await runner.query<{ changed: number; pages: number }>(
      `SELECT n_mod_since_analyze::int AS changed, (pg_relation_size('rate_limit_window') / 8192)::int AS pages
       FROM pg_stat_user_tables WHERE relname = 'rate_limit_window'`,
    );
    // A thousand updates (and the earlier tests' few), pruned from the page as they went: by autovacuum's
    // defaults it would be due (50 changes), but its own parameters (the migration) leave it alone.
    expect(table.pages).toBe(1);
    expect(table.changed).toBeGreaterThanOrEqual(1000);
    expect((await maintainEmbeddedDatabase(runner)).map((m) => m.table)).not.toContain("public.rate_limit_window");
  });
});

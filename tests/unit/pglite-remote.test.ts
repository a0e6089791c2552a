// The embedded database on its own thread (lib/db/pglite-remote.ts) must be indistinguishable from an
// in-thread PGlite to everything above it: the same values for every column type the schema uses, the
// same error classes and fields (the Prisma adapter maps DatabaseError by class), and the same
// transactions, including Prisma's interactive ones and a query from outside waiting for a commit.
import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { messages, PGlite as InThreadPGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlRunner } from "@/lib/db/driver";
import { applyMigrations } from "@/lib/db/migrate";
import { openPGliteWorker, type PGliteLike } from "@/lib/db/pglite-remote";
import { PrismaClient } from "@/lib/generated/prisma/client";

let remote: PGliteLike & { threadId?: number };
let local: PGlite;

beforeAll(async () => {
  remote = await openPGliteWorker("memory://");
  local = await InThreadPGlite.create();
});
afterAll(async () => {
  await remote.close();
  await local.close();
});

const EVERY_TYPE = `SELECT 1::int2 AS i2, 2::int4 AS i4, 9007199254740993::int8 AS i8, 1.5::float8 AS f8, 12.345::numeric AS num,
  true AS b, 'text é ✓'::text AS t, '\\x00ff10'::bytea AS bin, '2026-11-26 10:00:00+02'::timestamptz AS tz,
  '2026-11-26 10:00:00'::timestamp AS ts, '2026-11-26'::date AS d, '{"a":[1,null,"x"]}'::jsonb AS j,
  ARRAY['a','b,c',NULL]::text[] AS arr, ARRAY[1,2]::int4[] AS ints, gen_random_uuid() IS NOT NULL AS has_uuid,
  NULL::text AS nothing, '1f232890-eca0-4724-bc2d-b21a44fb14f5'::uuid AS id, $1::text AS param_text,
  $2::bytea AS param_bin, $3::timestamptz AS param_date, $4::jsonb AS param_json, $5::text[] AS param_arr`;
const PARAMS = ["πarameter", new Uint8Array([1, 2, 3]), new Date("2026-01-02T03:04:05.678Z"), JSON.stringify({ k: "v" }), ["x", "y"]];

describe("the embedded database on its own thread", () => {
  it("returns the same rows and fields as PGlite in this thread, in both row modes", async () => {
    for (const rowMode of ["object", "array"] as const) {
      const there = await remote.query(EVERY_TYPE, PARAMS, { rowMode });
      const here = await local.query(EVERY_TYPE, PARAMS, { rowMode });
      expect(there.rows).toEqual(here.rows);
      expect(there.fields).toEqual(here.fields);
    }
  });

  it("runs the caller's parsers on this side, as PGlite would (the Prisma adapter's are functions)", async () => {
    const parsers = { 1184: (text: string) => `tz:${text}`, 20: (text: string, type?: number) => `${type}:${text}` };
    const there = await remote.query("SELECT '2026-11-26 10:00:00+00'::timestamptz AS tz, 42::int8 AS n, 7 AS plain", [], { parsers });
    const here = await local.query("SELECT '2026-11-26 10:00:00+00'::timestamptz AS tz, 42::int8 AS n, 7 AS plain", [], { parsers });
    expect(there.rows).toEqual(here.rows);
    expect(there.rows[0]).toEqual({ tz: "tz:2026-11-26 10:00:00+00", n: "20:42", plain: 7 });
  });

  it("throws PostgreSQL's errors as DatabaseError with their fields, and keeps working afterwards", async () => {
    await remote.exec("CREATE TABLE uniq (k text PRIMARY KEY)");
    await remote.query("INSERT INTO uniq VALUES ('a')");
    const err = await remote.query("INSERT INTO uniq VALUES ('a')").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(messages.DatabaseError);
    expect(err).toMatchObject({ code: "23505", severity: "ERROR", table: "uniq", constraint: "uniq_pkey" });
    const syntax = await remote.query("SELEC nothing").catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: "42601" });
    expect((await remote.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("commits a transaction, rolls one back on a throw or on rollback(), and makes outside queries wait", async () => {
    await remote.exec("CREATE TABLE tx_log (n int)");
    let outsideSaw: number | undefined;
    let outside: Promise<void> | undefined;
    await remote.transaction(async (tx) => {
      await tx.query("INSERT INTO tx_log VALUES (1)");
      // A query from outside the transaction queues behind it, as on an in-thread PGlite.
      outside = remote.query<{ c: number }>("SELECT count(*)::int AS c FROM tx_log").then((r) => {
        outsideSaw = r.rows[0].c;
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(outsideSaw).toBeUndefined();
      await tx.query("INSERT INTO tx_log VALUES (2)");
    });
    await outside;
    expect(outsideSaw).toBe(2);

    await expect(
      remote.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_log VALUES (3)");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await remote.transaction(async (tx) => {
      await tx.query("INSERT INTO tx_log VALUES (4)");
      await tx.rollback();
      expect(tx.closed).toBe(true);
    });
    expect((await remote.query<{ n: number }>("SELECT n FROM tx_log ORDER BY n")).rows.map((r) => r.n)).toEqual([1, 2]);
  });

  it("carries Quire's schema and Prisma's interactive transactions: a duplicate rolls the whole transaction back", async () => {
    const db = await openPGliteWorker("memory://");
    try {
      await applyMigrations(sqlRunner({ kind: "pglite", pglite: db }));
      const prisma = new PrismaClient({ adapter: new PrismaPGlite(db as unknown as PGlite) });
      const org = await prisma.organization.create({ data: { name: "Thread Org", slug: "thread-org" } });
      const duplicate = await prisma
        .$transaction(async (tx) => {
          await tx.organization.update({ where: { id: org.id }, data: { name: "Renamed" } });
          return tx.organization.create({ data: { name: "Twin", slug: "thread-org" } });
        })
        .catch((e: { code?: string }) => e.code ?? String(e));
      // Under the built server this is P2002 (tests/integration); vitest loads the adapter's copy of
      // @electric-sql/pglite apart from the test's, so here the adapter passes PostgreSQL's error through.
      expect(duplicate).toMatch(/P2002|duplicate key value violates unique constraint "organization_slug_key"/);
      // The failed transaction changed nothing.
      expect((await prisma.organization.findUniqueOrThrow({ where: { id: org.id } })).name).toBe("Thread Org");
      expect(await prisma.organization.count()).toBe(1);
      await prisma.$disconnect();
    } finally {
      await db.close();
    }
  });

  it("prepares each text once and still answers like PGlite: new parameters, a changed table, an evicted statement, errors", async () => {
    await remote.exec("CREATE TABLE prep (id int PRIMARY KEY, v text)");
    await local.exec("CREATE TABLE prep (id int PRIMARY KEY, v text)");
    const insert = "INSERT INTO prep VALUES ($1, $2) RETURNING *";
    // Past PostgreSQL's five custom plans, so the cached generic plan answers too; NULL and a number as text.
    for (let i = 0; i < 12; i++) {
      const params = [i, i % 3 === 0 ? null : `v${i}`];
      expect((await remote.query(insert, params)).rows).toEqual((await local.query(insert, params)).rows);
    }
    const duplicate = await remote.query(insert, [1, "again"]).catch((e: unknown) => e);
    expect(duplicate).toMatchObject({ code: "23505", query: insert, params: [1, "again"] });
    expect((await remote.query(insert, [100, "after the error"])).rows).toEqual([{ id: 100, v: "after the error" }]);
    // A column added under a prepared SELECT *: prepared afresh, the new column answered.
    const all = "SELECT * FROM prep WHERE id = $1";
    expect((await remote.query(all, [100])).rows).toEqual([{ id: 100, v: "after the error" }]);
    await remote.exec("ALTER TABLE prep ADD COLUMN extra int DEFAULT 7");
    expect((await remote.query(all, [100])).rows).toEqual([{ id: 100, v: "after the error", extra: 7 }]);
    // More distinct texts than are kept prepared: the first is closed, then prepared again when it returns.
    for (let i = 0; i < 300; i++) expect((await remote.query(`SELECT $1::int + ${i} AS n`, [1])).rows).toEqual([{ n: 1 + i }]);
    expect((await remote.query("SELECT $1::int + 0 AS n", [41])).rows).toEqual([{ n: 41 }]);
    // A text that fails to parse is not kept: the same text fails the same way every time.
    for (let i = 0; i < 2; i++) expect(await remote.query("SELECT FROM WHERE $1", [1]).catch((e: unknown) => e)).toMatchObject({ code: "42601" });
    // Inside a transaction a failed statement aborts it, prepared or not, and the rollback leaves nothing.
    const inside = await remote
      .transaction(async (tx) => {
        await tx.query(insert, [200, "rolled back"]);
        await tx.query(insert, [1, "duplicate"]);
      })
      .catch((e: unknown) => e);
    expect(inside).toMatchObject({ code: "23505" });
    expect((await remote.query(all, [200])).rows).toEqual([]);
  });

  it("plans a genericPlan statement once for all its values, and leaves the setting as it was, even when it fails", async () => {
    await remote.exec("CREATE TABLE paged (id int PRIMARY KEY, v text); INSERT INTO paged SELECT g, 'v' || g FROM generate_series(1, 500) g");
    const page = "SELECT id FROM paged ORDER BY id LIMIT $1 OFFSET $2";
    const custom = "SELECT id FROM paged ORDER BY id DESC LIMIT $1 OFFSET $2";
    for (let i = 0; i < 8; i++) {
      expect((await remote.query(page, [3, i * 10], { genericPlan: true })).rows).toEqual([{ id: i * 10 + 1 }, { id: i * 10 + 2 }, { id: i * 10 + 3 }]);
      expect((await remote.query(custom, [1, i])).rows).toEqual([{ id: 500 - i }]);
    }
    // PostgreSQL's own count of the plans each prepared text used.
    const plans = async (text: string) =>
      (
        await remote.query<{ generic_plans: number; custom_plans: number }>(
          "SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement = $1",
          [text],
        )
      ).rows[0];
    expect(await plans(page)).toEqual({ generic_plans: 8, custom_plans: 0 });
    // Without the option PostgreSQL decides, and a LIMIT it cannot see keeps it planning each call.
    expect(await plans(custom)).toEqual({ generic_plans: 0, custom_plans: 8 });

    const mode = async () => (await remote.query<{ mode: string }>("SELECT current_setting('plan_cache_mode') AS mode")).rows[0].mode;
    expect((await remote.query("SELECT current_setting('plan_cache_mode') AS mode, $1::int AS n", [1], { genericPlan: true })).rows).toEqual([
      { mode: "force_generic_plan", n: 1 },
    ]);
    expect(await mode()).toBe("auto");
    // A failing statement: its error, as without the option, and the setting rolled back with it.
    const failed = await remote.query("SELECT 1 / $1::int AS n", [0], { genericPlan: true }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: "22012" });
    expect(await mode()).toBe("auto");
    // Inside a transaction: undone after the statement, and by the rollback when the statement failed.
    await remote.transaction(async (tx) => {
      await tx.query(page, [1, 0], { genericPlan: true });
      expect((await tx.query<{ mode: string }>("SELECT current_setting('plan_cache_mode') AS mode")).rows[0].mode).toBe("auto");
    });
    const aborted = await remote.transaction((tx) => tx.query("SELECT 1 / $1::int AS n", [0], { genericPlan: true })).catch((e: unknown) => e);
    expect(aborted).toMatchObject({ code: "22012" });
    expect(await mode()).toBe("auto");
  });

  it("hands a notification to its listeners before the reply to the statement that committed it, as PGlite in this thread does", async () => {
    for (const db of [remote, local]) {
      const events: string[] = [];
      await db.listen("quire_test_channel", (payload) => events.push(`heard ${payload}`));
      await db.query("SELECT pg_notify('quire_test_channel', 'one')");
      events.push("replied");
      await db.transaction(async (tx) => {
        await tx.query("SELECT pg_notify('quire_test_channel', 'two')");
        events.push("inside");
      });
      events.push("committed");
      expect(events).toEqual(["heard one", "replied", "inside", "heard two", "committed"]);
    }
  });

  it("names its thread as the operating system knows it, one of this process's own", async () => {
    expect(remote.threadId).toEqual(expect.any(Number));
    expect(remote.threadId).not.toBe(process.pid);
    expect(fs.readdirSync(`/proc/${process.pid}/task`)).toContain(String(remote.threadId));
  });

  it("fails every call clearly once the thread is gone, instead of hanging", async () => {
    const db = await openPGliteWorker("memory://");
    await db.close();
    await expect(db.query("SELECT 1")).rejects.toThrow(/embedded database's thread exited/);
  });
});

// The embedded database's stand-in for autovacuum (lib/db/pglite-maintenance.ts), on a real PGlite:
// which tables a round takes, what it does to them, and what that buys a query.
import { PGlite } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqlRunner, type SqlRunner } from "@/lib/db/driver";
import { maintainEmbeddedDatabase } from "@/lib/db/pglite-maintenance";
import { publishCounters } from "../support/migrated-pglite";

let pglite: PGlite;
let sql: SqlRunner;

async function stats(table: string) {
  const [row] = await sql.query<{ dead: number; vacuumed: boolean; changedSinceAnalyze: number }>(
    `SELECT n_dead_tup::int AS dead, last_vacuum IS NOT NULL AS vacuumed, n_mod_since_analyze::int AS "changedSinceAnalyze"
     FROM pg_stat_user_tables WHERE relname = $1`,
    [table],
  );
  return row;
}

beforeEach(async () => {
  pglite = new PGlite();
  sql = sqlRunner({ kind: "pglite", pglite: pglite as never });
  for (const [table, rows] of [
    ["big", 3000],
    ["small", 500],
    ["tiny", 10],
  ] as const) {
    await sql.exec(`CREATE TABLE ${table} (id serial PRIMARY KEY, v int NOT NULL, note text NOT NULL DEFAULT repeat('x', 200))`);
    // Analyzed while empty, as the migrations' tables are by the first round: from here on, the counters decide.
    await sql.exec(`ANALYZE ${table}`);
    await sql.exec(`INSERT INTO ${table} (v) SELECT g FROM generate_series(1, ${rows}) g`);
  }
  await publishCounters(sql);
});

afterEach(async () => {
  await pglite.close();
});

describe("embedded database maintenance", () => {
  it("vacuums a table past the insert threshold, analyzes one past the analyze threshold, leaves the rest; the next round finds nothing", async () => {
    // 3,000 inserts pass 1,000 + 20%; 500 do not, but pass 50 + 10% for statistics; 10 pass neither.
    expect(await maintainEmbeddedDatabase(sql)).toEqual([
      { table: "public.big", vacuumed: true },
      { table: "public.small", vacuumed: false },
    ]);
    expect(await stats("big")).toMatchObject({ vacuumed: true, changedSinceAnalyze: 0 });
    expect(await stats("small")).toMatchObject({ vacuumed: false, changedSinceAnalyze: 0 });
    expect(await stats("tiny")).toMatchObject({ vacuumed: false, changedSinceAnalyze: 10 });
    await publishCounters(sql);
    expect(await maintainEmbeddedDatabase(sql)).toEqual([]);
  });

  it("follows a table's own storage parameters, as autovacuum does: raised thresholds spare it, a lowered one takes it sooner, autovacuum_enabled off leaves it alone", async () => {
    await sql.exec("ALTER TABLE big SET (autovacuum_vacuum_insert_threshold = 100000, autovacuum_analyze_threshold = 100000)");
    await sql.exec("ALTER TABLE small SET (autovacuum_enabled = off)");
    await sql.exec("ALTER TABLE tiny SET (autovacuum_analyze_threshold = 5)");
    // big: 3,000 inserts, under its own 100,000; small: due by the defaults, but switched off; tiny: 10
    // changes pass its own 5 + 10% of 10.
    expect(await maintainEmbeddedDatabase(sql)).toEqual([{ table: "public.tiny", vacuumed: false }]);
    expect(await stats("big")).toMatchObject({ vacuumed: false, changedSinceAnalyze: 3000 });
    expect(await stats("small")).toMatchObject({ changedSinceAnalyze: 500 });
    // The dead-row threshold too: 1,000 updated rows are under 5,000 for big and its scale factor 0.
    await sql.exec("ALTER TABLE big SET (autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_scale_factor = 0)");
    await sql.exec("UPDATE big SET v = v + 1 WHERE id <= 1000");
    await publishCounters(sql);
    expect(await maintainEmbeddedDatabase(sql)).toEqual([]);
    await sql.exec("ALTER TABLE big RESET (autovacuum_vacuum_threshold, autovacuum_vacuum_scale_factor)");
    expect(await maintainEmbeddedDatabase(sql)).toEqual([{ table: "public.big", vacuumed: true }]);
  });

  it("reclaims dead rows once there are more than autovacuum allows", async () => {
    await maintainEmbeddedDatabase(sql);
    await sql.exec("UPDATE big SET v = v + 1 WHERE id <= 1000");
    await publishCounters(sql);
    expect((await stats("big")).dead).toBe(1000);
    expect(await maintainEmbeddedDatabase(sql)).toEqual([{ table: "public.big", vacuumed: true }]);
    expect((await stats("big")).dead).toBe(0);
  });

  it("lets an index-only scan skip the table, which it cannot do before the first vacuum", async () => {
    await sql.exec("CREATE INDEX big_v ON big (v)");
    const heapFetches = async () => {
      const plan = await sql.query<{ "QUERY PLAN": string }>("EXPLAIN (ANALYZE, COSTS OFF) SELECT v FROM big WHERE v > 0 ORDER BY v LIMIT 100 OFFSET 2000");
      const line = plan.map((r) => r["QUERY PLAN"]).find((l) => l.includes("Heap Fetches"));
      return line ? Number(/Heap Fetches: (\d+)/.exec(line)?.[1]) : undefined;
    };
    await sql.exec("SET enable_seqscan = off; SET enable_bitmapscan = off");
    expect(await heapFetches()).toBeGreaterThanOrEqual(2100);
    await maintainEmbeddedDatabase(sql);
    expect(await heapFetches()).toBe(0);
  });

  it("analyzes a table whose statistics were never gathered, though the counters that would call for it are gone (a restart)", async () => {
    await sql.exec("CREATE TABLE loaded (id int)");
    await sql.exec("INSERT INTO loaded SELECT g FROM generate_series(1, 200) g");
    await sql.query("SELECT pg_stat_reset()");
    await publishCounters(sql);
    expect(await maintainEmbeddedDatabase(sql)).toEqual([{ table: "public.loaded", vacuumed: false }]);
    const [{ reltuples }] = await sql.query<{ reltuples: number }>("SELECT reltuples FROM pg_class WHERE relname = 'loaded'");
    expect(reltuples).toBe(200);
    await publishCounters(sql);
    expect(await maintainEmbeddedDatabase(sql)).toEqual([]);
  });

  it("makes a statement kept prepared since its table was nearly empty read it by index once the table has grown", async () => {
    await sql.exec("CREATE TABLE trail (doc int NOT NULL, seq int NOT NULL, note text NOT NULL DEFAULT repeat('x', 64), UNIQUE (doc, seq))");
    await sql.exec("ANALYZE trail");
    await sql.exec("INSERT INTO trail (doc, seq) SELECT g, 1 FROM generate_series(1, 20) g");
    // Quire keeps every statement prepared; after five runs PostgreSQL settles on one plan for all values.
    await sql.exec("PREPARE newest (int) AS SELECT seq FROM trail WHERE doc = $1 ORDER BY seq DESC LIMIT 1");
    for (let i = 0; i < 6; i++) await sql.exec("EXECUTE newest (7)");
    const plan = async () => (await sql.query<{ "QUERY PLAN": string }>("EXPLAIN (COSTS OFF) EXECUTE newest (7)")).map((r) => r["QUERY PLAN"]).join("\n");
    expect(await plan()).toMatch(/Seq Scan on trail/);
    await sql.exec("INSERT INTO trail (doc, seq) SELECT g, 1 FROM generate_series(21, 5000) g");
    // Grown a hundredfold, the table is still read whole: nothing made the kept plan stale.
    expect(await plan()).toMatch(/Seq Scan on trail/);
    await publishCounters(sql);
    expect(await maintainEmbeddedDatabase(sql)).toContainEqual({ table: "public.trail", vacuumed: true });
    expect(await plan()).toMatch(/Index (Only )?Scan Backward using trail_doc_seq_key/);
  });

  it("stops between tables when asked (shutdown), leaving the rest for the next round", async () => {
    let tables = 0;
    const done = await maintainEmbeddedDatabase(sql, () => tables++ >= 1);
    expect(done).toEqual([{ table: "public.big", vacuumed: true }]);
    await publishCounters(sql);
    expect(await maintainEmbeddedDatabase(sql)).toEqual([{ table: "public.small", vacuumed: false }]);
  });

  it("quotes table names it did not choose", async () => {
    await sql.exec(`CREATE TABLE "odd ""name"" ; DROP TABLE big" (id int)`);
    await sql.exec(`INSERT INTO "odd ""name"" ; DROP TABLE big" SELECT g FROM generate_series(1, 2000) g`);
    await publishCounters(sql);
    const done = await maintainEmbeddedDatabase(sql);
    expect(done).toContainEqual({ table: `public."odd ""name"" ; DROP TABLE big"`, vacuumed: true });
    expect(await stats("big")).toBeDefined();
  });
});

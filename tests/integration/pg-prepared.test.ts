// Named prepared statements on the PostgreSQL pool (lib/db/pg-prepared.ts), on a database of their own:
// a text is named from its second run, results stay right past PostgreSQL's five custom plans, a table
// changed under a prepared SELECT * and a connection that lost its statements (a pooler, DEALLOCATE) are
// run again unnamed, and the cap holds; a statement asked to plan once runs, named, on the second pool,
// whose connections keep generic plans.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDriver, sqlRunner } from "@/lib/db/driver";
import { preparedQueries } from "@/lib/db/pg-prepared";
import { POSTGRES_ADMIN_URL } from "../support/quire-server";

describe.runIf(process.env.QUIRE_TEST_DB === "postgres")("named prepared statements on PostgreSQL", () => {
  const name = `quire_prepared_${process.pid}_${Date.now()}`;
  let pool: pg.Pool;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  /** The names prepared on the pool's one connection. */
  const preparedNames = async () => (await pool.query<{ name: string }>("SELECT name FROM pg_prepared_statements ORDER BY name")).rows.map((r) => r.name);

  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`);
    // One connection, so what it has prepared is what the statements below see.
    pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
    await pool.query("CREATE TABLE item (id int PRIMARY KEY, label text NOT NULL)");
    await pool.query("INSERT INTO item SELECT n, 'item ' || n FROM generate_series(1, 50) n");
  });
  afterAll(async () => {
    await pool?.end();
    await admin(`DROP DATABASE IF EXISTS ${name}`);
  });

  it("names a text from its second run and answers the same as unnamed, past the five custom plans", async () => {
    const prepared = preparedQueries();
    const runner = sqlRunner({ kind: "postgres", pool, prepared });
    const text = "SELECT id, label FROM item WHERE id BETWEEN $1 AND $2 ORDER BY id";
    expect(await runner.query(text, [3, 4])).toEqual([
      { id: 3, label: "item 3" },
      { id: 4, label: "item 4" },
    ]);
    expect(prepared.size).toBe(0);
    expect(await preparedNames()).toEqual([]);
    for (let n = 1; n <= 12; n++) expect((await runner.query<{ id: number }>(text, [n, n + 1])).map((r) => r.id)).toEqual([n, n + 1]);
    expect(prepared.size).toBe(1);
    expect(await preparedNames()).toHaveLength(1);
    // No parameters: a plain query, never named (it may hold several statements).
    await runner.query("SELECT 1");
    await runner.query("SELECT 1");
    expect(prepared.size).toBe(1);
  });

  it("runs a statement again unnamed when a column was added under its SELECT *, or the connection lost it", async () => {
    const runner = sqlRunner({ kind: "postgres", pool, prepared: preparedQueries() });
    const text = "SELECT * FROM item WHERE id = $1";
    for (let i = 0; i < 3; i++) expect(await runner.query(text, [7])).toEqual([{ id: 7, label: "item 7" }]);
    await pool.query("ALTER TABLE item ADD COLUMN note text NOT NULL DEFAULT 'new'");
    expect(await runner.query(text, [7])).toEqual([{ id: 7, label: "item 7", note: "new" }]);
    expect(await runner.query(text, [8])).toEqual([{ id: 8, label: "item 8", note: "new" }]);
    // As behind a pooler in transaction mode: the server no longer has the statement this client named.
    await pool.query("DEALLOCATE ALL");
    expect(await runner.query(text, [9])).toEqual([{ id: 9, label: "item 9", note: "new" }]);
    expect(await runner.query(text, [10])).toEqual([{ id: 10, label: "item 10", note: "new" }]);
  });

  it("passes other errors through, and names no more than its cap", async () => {
    const prepared = preparedQueries(2);
    const runner = sqlRunner({ kind: "postgres", pool, prepared });
    const texts = [1, 2, 3, 4].map((n) => `SELECT label FROM item WHERE id = $1 AND ${n} = ${n}`);
    for (const text of texts) for (let i = 0; i < 3; i++) expect(await runner.query(text, [5])).toEqual([{ label: "item 5" }]);
    expect(prepared.size).toBe(2);
    await expect(runner.query("INSERT INTO item (id, label) VALUES ($1, $2)", [5, "again"])).rejects.toMatchObject({ code: "23505" });
    await expect(runner.query("INSERT INTO item (id, label) VALUES ($1, $2)", [5, "again"])).rejects.toMatchObject({ code: "23505" });
  });

  it("runs a statement asked to plan once on connections that keep generic plans, and every other on the usual ones", async () => {
    // With options of the operator's own in the URL, which both pools keep.
    const withOptions = new URL(url);
    withOptions.searchParams.set("options", "-c statement_timeout=12345");
    const driver = await openDriver({ kind: "postgres", url: withOptions.toString(), preparedStatements: true });
    if (driver.kind !== "postgres" || !driver.planned) throw new Error("expected a PostgreSQL driver with its planned pool");
    const { pool: usual, planned } = driver;
    try {
      const runner = sqlRunner(driver);
      // What a list's page is: a LIMIT and an OFFSET as parameters.
      const page = "SELECT id FROM item WHERE id > $1 ORDER BY id LIMIT $2 OFFSET $3";
      for (let n = 0; n < 8; n++)
        expect((await runner.query<{ id: number }>(page, [n, 3, 1], { genericPlan: true })).map((r) => r.id)).toEqual([n + 2, n + 3, n + 4]);
      for (let n = 0; n < 3; n++) expect(await runner.query(page, [n, 1, 0])).toEqual([{ id: n + 1 }]);
      const setting = async (p: pg.Pool) => (await p.query<{ plan_cache_mode: string }>("SHOW plan_cache_mode")).rows[0].plan_cache_mode;
      expect(await setting(planned)).toBe("force_generic_plan");
      expect(await setting(usual)).toBe("auto");
      for (const p of [planned, usual]) expect((await p.query("SHOW statement_timeout")).rows[0].statement_timeout).toBe("12345ms");
      // One query at a time: each pool handed out the one connection it had opened.
      const plans = async (p: pg.Pool) =>
        (
          await p.query<{ generic: string; custom: string }>(
            "SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE statement = $1",
            [page],
          )
        ).rows;
      // Named from its second run: seven generic plans, no custom one.
      expect(await plans(planned)).toEqual([{ generic: "7", custom: "0" }]);
      expect(await plans(usual)).toEqual([{ generic: expect.any(String), custom: expect.any(String) }]);
      // In a transaction it runs on the transaction's connection, whatever it asks.
      expect(await runner.transaction((tx) => tx.query(page, [40, 2, 0], { genericPlan: true }))).toEqual([{ id: 41 }, { id: 42 }]);
    } finally {
      await usual.end();
      await planned.end();
    }
  });
});

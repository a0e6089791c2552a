// Named prepared statements for the embedded PGlite (issue 17). PGlite's own query() sends every
// statement as an unnamed one (Parse, Describe, Bind, Describe, Execute, Sync, each a separate call
// into WebAssembly), so PostgreSQL parses and plans the same text again on every call. In WebAssembly
// that was most of a short statement's cost: the create's template lookup took 1.8 ms through query()
// and 0.24 ms as a prepared statement. Here each text is parsed once under a name and then only bound
// and executed, in one call, with PostgreSQL's own plan cache deciding when a generic plan pays.
import { messages, parse, protocol } from "@electric-sql/pglite";

const { serialize } = protocol;
/** Distinct statement texts kept prepared; the least recently used is closed beyond this (Prisma's IN lists vary). */
const MAX_STATEMENTS = 256;
/** Around a statement whose caller asks for a generic plan (see query()). */
const GENERIC_PLAN = "SET plan_cache_mode = force_generic_plan";
const PLAN_AS_USUAL = "SET plan_cache_mode = auto";
/** PostgreSQL's answer when a table changed under a cached plan's result: the statement is prepared afresh once. */
const planChanged = (err) => err instanceof messages.DatabaseError && err.code === "0A000" && /cached plan/.test(err.message);

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export class PreparedStatements {
  /** @param {import("@electric-sql/pglite").PGlite} pglite */
  constructor(pglite) {
    this.pglite = pglite;
    /** text -> { name, paramTypes }, in least-recently-used order. */
    this.statements = new Map();
    this.next = 0;
  }

  /**
   * query() with the same answer and errors as PGlite's, run under the same locks: outside a transaction
   * it waits for any open one, inside it (inTransaction) the caller already holds that lock.
   * genericPlan: plan the statement once for all its values. PostgreSQL's own choice keeps planning a
   * page again for each call (a LIMIT it cannot see makes its generic plan look costlier), and in
   * WebAssembly that planning was a fifth of a list page's cost (issue 17). Only for statements whose
   * best plan does not depend on their values.
   */
  query(sql, params, options, inTransaction, genericPlan = false) {
    const run = () => this.pglite._runExclusiveQuery(() => this.#run(sql, params ?? [], options, inTransaction, genericPlan));
    return inTransaction ? run() : this.pglite._runExclusiveTransaction(run);
  }

  async #run(sql, params, options, inTransaction, genericPlan) {
    const execute = async () => this.#execute(await this.#prepared(sql), params, options, genericPlan);
    try {
      try {
        return await execute();
      } catch (err) {
        if (!planChanged(err)) throw err;
        await this.#close(sql);
        // Inside a transaction the error has aborted it: the caller sees it, the next use prepares afresh.
        if (inTransaction) throw err;
        return await execute();
      }
    } catch (err) {
      if (err instanceof messages.DatabaseError) Object.assign(err, { query: sql, params, queryOptions: options });
      throw err;
    } finally {
      if (!inTransaction) await this.pglite.syncToFs();
    }
  }

  async #prepared(sql) {
    const known = this.statements.get(sql);
    if (known) {
      this.statements.delete(sql);
      this.statements.set(sql, known);
      return known;
    }
    const name = `quire_${++this.next}`;
    const { messages: replies } = await this.#exchange([serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name })]);
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(replies) };
    this.statements.set(sql, statement);
    if (this.statements.size > MAX_STATEMENTS) {
      const [oldest] = this.statements.keys();
      await this.#close(oldest);
    }
    return statement;
  }

  async #execute(statement, params, options, genericPlan) {
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = this.pglite.serializers[statement.paramTypes[i]];
      return serializer ? serializer(param) : param.toString();
    });
    const parts = [serialize.bind({ statement: statement.name, values }), serialize.describe({ type: "P" }), serialize.execute({})];
    if (!genericPlan) {
      const { messages: replies } = await this.#exchange(parts);
      return parse.parseResults(replies, this.pglite.parsers, options)[0];
    }
    // The setting is made and undone in the same exchange. Everything up to the Sync is one transaction
    // (or part of the caller's), so if the statement fails the setting is rolled back with it.
    const setting = async (text) => [serialize.bind({ statement: (await this.#prepared(text)).name, values: [] }), serialize.execute({})];
    const [on, off] = [await setting(GENERIC_PLAN), await setting(PLAN_AS_USUAL)];
    const { messages: replies } = await this.#exchange([...on, ...parts, ...off]);
    return parse.parseResults(replies, this.pglite.parsers, options)[1];
  }

  /** The messages and a Sync in one call: after an error PostgreSQL skips to the Sync, as it does for query(). */
  #exchange(parts) {
    return this.pglite.execProtocol(concat([...parts, serialize.sync()]), { syncToFs: false });
  }

  async #close(sql) {
    const statement = this.statements.get(sql);
    this.statements.delete(sql);
    if (statement) await this.#exchange([serialize.close({ type: "S", name: statement.name })]).catch(() => {});
  }
}

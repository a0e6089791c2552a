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
   */
  query(sql, params, options, inTransaction) {
    const run = () => this.pglite._runExclusiveQuery(() => this.#run(sql, params ?? [], options, inTransaction));
    return inTransaction ? run() : this.pglite._runExclusiveTransaction(run);
  }

  async #run(sql, params, options, inTransaction) {
    try {
      try {
        return await this.#execute(await this.#prepared(sql), params, options);
      } catch (err) {
        if (!planChanged(err)) throw err;
        await this.#close(sql);
        // Inside a transaction the error has aborted it: the caller sees it, the next use prepares afresh.
        if (inTransaction) throw err;
        return await this.#execute(await this.#prepared(sql), params, options);
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

  async #execute(statement, params, options) {
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = this.pglite.serializers[statement.paramTypes[i]];
      return serializer ? serializer(param) : param.toString();
    });
    const { messages: replies } = await this.#exchange([
      serialize.bind({ statement: statement.name, values }),
      serialize.describe({ type: "P" }),
      serialize.execute({}),
    ]);
    return parse.parseResults(replies, this.pglite.parsers, options)[0];
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

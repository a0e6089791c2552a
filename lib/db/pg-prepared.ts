// Named prepared statements on the PostgreSQL pool (issue 17, ADR 0002 addendum). node-postgres sends an
// unnamed statement for every parameterized query, so PostgreSQL parses and plans its text each time:
// 0.6 ms of planning for a list page whose execution takes 1.7-2.1 ms. Under a name, each connection
// parses a text once and PostgreSQL's plan cache decides when a generic plan pays. The embedded PGlite
// does the same on its thread (lib/db/pglite-prepared.mjs, ADR 0012).
import crypto from "node:crypto";
import type { Pool, QueryResult } from "pg";

/**
 * At most this many distinct texts get a name; the rest run unnamed. Each connection keeps every
 * statement it has prepared (node-postgres never closes one), so the cap bounds the server's memory.
 * A text gets its name the second time it runs: a text built with values inside, which never repeats,
 * takes no place from the hot ones.
 */
export const MAX_PREPARED_TEXTS = 256;

/**
 * Errors after which the text is run again unnamed, once:
 * - 0A000 "cached plan must not change result type": a table changed under a prepared `SELECT *`
 *   (a migration run by another instance);
 * - 26000 "prepared statement … does not exist": the server connection is not the one that prepared it
 *   (a pooler in transaction mode; set DATABASE_PREPARED_STATEMENTS=false there).
 * pg-pool destroys the connection a failed query ran on, so its stale names go with it.
 */
function isStaleStatement(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: string; message?: string };
  return (code === "0A000" && /cached plan must not change result type/.test(message ?? "")) || code === "26000";
}

export interface PreparedQueries {
  query(pool: Pick<Pool, "query">, text: string, params: unknown[]): Promise<QueryResult>;
  /** How many texts have a name (for tests). */
  readonly size: number;
}

export function preparedQueries(max = MAX_PREPARED_TEXTS): PreparedQueries {
  const names = new Map<string, string>();
  const seenOnce = new Set<string>();
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known || names.size >= max) return known;
    if (!seenOnce.has(text)) {
      if (seenOnce.size >= 4 * max) seenOnce.clear();
      seenOnce.add(text);
      return undefined;
    }
    seenOnce.delete(text);
    const name = `q_${crypto.createHash("sha256").update(text).digest("base64url").slice(0, 32)}`;
    names.set(text, name);
    return name;
  };
  return {
    async query(pool, text, values) {
      const name = nameOf(text);
      if (!name) return pool.query(text, values);
      try {
        return await pool.query({ name, text, values });
      } catch (err) {
        if (!isStaleStatement(err)) throw err;
        return pool.query(text, values);
      }
    },
    get size() {
      return names.size;
    },
  };
}

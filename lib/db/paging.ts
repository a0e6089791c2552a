// A list's page and its total in one statement (issue 17): each row of the page carries the total, so a
// list request makes one round trip, not two statements on two connections.
import type { SqlRunner } from "@/lib/db/driver";

/** The SQL for a timestamp as JSON writes it (2026-11-27T04:21:27.123Z), so the list's rows need no Date parsed and re-serialized. */
export function isoSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * The total that the page's rows carry. An empty first page means nothing matched; only an empty page
 * further on (a client paging past the end) needs the count asked on its own.
 */
export async function pageTotal(rows: readonly { total: number }[], offset: number, count: () => Promise<number>): Promise<number> {
  if (rows.length > 0) return rows[0].total;
  return offset > 0 ? count() : 0;
}

/** The total on its own, for pageTotal's `count`: `total` is the scalar SQL the page's rows carried. */
export async function selectTotal(sql: SqlRunner, total: string, params: unknown[]): Promise<number> {
  const [row] = await sql.query<{ total: number }>(`SELECT ${total} AS total`, params);
  return row.total;
}

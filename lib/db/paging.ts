// A list's page and its total in one statement (issue 17), so a list request makes one round trip, not
// two statements on two connections: the page as one JSON text with its total beside it (ADR 0014).
import type { SqlQueryOptions } from "@/lib/db/driver";

/**
 * How a list's page statement runs: planned once for all its values (lib/db/driver.ts). A page's plan
 * (its index, its joins) is the same whatever the LIMIT, OFFSET and filter values.
 */
export const PAGE_QUERY: SqlQueryOptions = { genericPlan: true };

/**
 * The SQL for a timestamp in a page's JSON: its UTC time, which PostgreSQL's JSON writes as
 * 2026-11-27T04:21:27.123456 (the fraction without its trailing zeros, none when whole) whatever the
 * session's settings; isoFromSql() makes the reply's form of it without a Date. to_char() wrote the
 * reply's form itself, but at 1.4 µs a call in the embedded database a page of 100 documents spent a
 * millisecond in it.
 */
export function isoSql(column: string): string {
  return `(${column} AT TIME ZONE 'UTC')`;
}

/** A timestamp isoSql() put in a page's JSON, as the reply writes it (2026-11-27T04:21:27.123Z): milliseconds, cut as Date cuts them. */
export function isoFromSql(text: string): string {
  if (text.length === 19) return `${text}.000Z`;
  return `${text.slice(0, 20)}${text.slice(20, 23).padEnd(3, "0")}Z`;
}

/**
 * A page item's fields, named as the reply names them, each with its SQL over the page's row or, for a
 * timestamp, a stampField() (in the order the object literal lists them). The statement sends each item
 * as a JSON array of its values (`sql`, a json_build_array) and `read` names them again: a
 * json_build_object of the same fields costs PostgreSQL each key as an argument too, and writes it with
 * its spacing into every item (a page of 100 documents of 23 fields: 72 KB and 2.7 ms of the database's
 * time against 39 KB and 1.8 ms as arrays, of which sending the 72 KB text took 0.5 ms) (issue 17).
 */
export interface PageItem<T> {
  sql: string;
  read(values: unknown[]): T;
  /** How many values an item's array holds. */
  size: number;
}

/** A page item's timestamp: isoSql() of `column` in the statement, the reply's form once read (isoFromSql). */
export interface StampField {
  stamp: string;
}

export function stampField(column: string): StampField {
  return { stamp: isoSql(column) };
}

export function pageItem<T>(fields: { readonly [K in keyof T]: string | StampField }): PageItem<T> {
  const declared = Object.entries(fields) as [string, string | StampField][];
  return {
    sql: `json_build_array(${declared.map(([, field]) => (typeof field === "string" ? field : field.stamp)).join(", ")})`,
    read: itemReader<T>(declared),
    size: declared.length,
  };
}

/**
 * An item's array named again, as an object literal of the declared fields compiled once per page
 * item: every item then comes out with the same shape at once. Named one key at a time instead, each
 * store went through V8's megamorphic path and the objects through a chain of shapes: 55 µs to name
 * a page of 100 templates against 4 µs, and 2% of a list request's CPU in a server's profile (issue
 * 17). The names are the code's own field names, each written as a JSON string literal; timestamps
 * (stampField) are put in the reply's form by isoFromSql().
 */
function itemReader<T>(declared: [string, string | StampField][]): (values: unknown[]) => T {
  // In a literal, this one name would set the object's prototype instead of a field.
  if (declared.some(([name]) => name === "__proto__")) throw new Error("A page item cannot have a field named __proto__");
  const value = (field: string | StampField, i: number) => (typeof field === "string" ? `v[${i}]` : `(typeof v[${i}] === "string" ? iso(v[${i}]) : v[${i}])`);
  const literal = declared.map(([name, field], i) => `${JSON.stringify(name)}: ${value(field, i)}`).join(", ");
  return new Function("iso", `return (v) => ({ ${literal} });`)(isoFromSql) as (values: unknown[]) => T;
}

/** A page's items as one JSON array of `item` arrays (jsonArraySql over item.sql), each named again. */
export function readPageItems<T>(itemsJson: string, item: PageItem<T>): T[] {
  return (JSON.parse(itemsJson) as unknown[][]).map(item.read);
}

/**
 * SQL for a page's items as one JSON array (text), each item built by `item` (a PageItem's
 * json_build_array over the page's row), in `order`. The reply is one value instead of a row per item: in the embedded PGlite
 * every field of every row answered costs about a microsecond of WebAssembly (100 rows of 13 columns:
 * 1.2 ms; the same page as one JSON text: 0.36 ms), and on PostgreSQL the driver parses one string
 * instead of building 100 rows field by field (issue 17).
 */
export function jsonArraySql(item: string, order: string): string {
  return `coalesce(json_agg(${item} ORDER BY ${order}), '[]')::text`;
}

/**
 * SQL for the tags a page's items carry, each once, as a JSON object keyed by tag id (text): `tag` is a
 * JSON expression over the tag row `t`, `ownerIds` the SQL that selects the page's ids, `links` and
 * `owner` the link table and its column naming the tagged row. Each item then carries its tags' ids
 * and resolvePageTags() puts the tags in: a page of 100 items with 1-2 tags each looked a tag up 100-200
 * times, which cost a third of the deliverable page's statement on PGlite (issue 17).
 */
export function pageTagsSql(tag: string, links: string, owner: string, ownerIds: string): string {
  return `(SELECT coalesce(json_object_agg(t.id, ${tag}), '{}')::text FROM tag t
    WHERE t.id IN (SELECT l."tagId" FROM ${links} l WHERE l."${owner}" = ANY(ARRAY(${ownerIds}))))`;
}

/**
 * Replaces each item's tag ids by its tags (pageTagsSql's JSON text), sorted by `order`: the database's
 * collation need not be the locale's. `stamps`: the tags' isoSql() timestamps.
 */
export function resolvePageTags<Tag>(items: { tags?: unknown[] }[], tagsJson: string, order: (a: Tag, b: Tag) => number, stamps: readonly string[] = []): void {
  const byId = JSON.parse(tagsJson) as Record<string, Tag>;
  for (const tag of Object.values(byId) as Record<string, unknown>[])
    for (const field of stamps) if (typeof tag[field] === "string") tag[field] = isoFromSql(tag[field]);
  for (const item of items) if (item.tags) item.tags = (item.tags as string[]).map((id) => byId[id]).sort(order);
}

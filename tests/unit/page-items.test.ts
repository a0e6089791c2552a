// A list page's items leave the database as JSON arrays of their values and Node names them again
// (lib/db/paging.ts pageItem, ADR 0014 addendum 2026-11-30): whatever a field holds (any text JSON must
// escape, nulls, numbers at their limits, JSON values), the item read back is the one put in.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonArraySql, pageItem, readPageItems } from "@/lib/db/paging";
import { migratedPGlite } from "../support/migrated-pglite";

const db = migratedPGlite();

interface Row {
  label: string | null;
  count: number | null;
  active: boolean;
  emails: string[];
}

/** Fields named in another order than the columns, so a reader that went by position in the row would fail. */
const ITEM = pageItem<Row>({ emails: "x.emails", active: "x.active", label: "x.label", count: "x.count" });

/** Any text PostgreSQL stores: every code point but NUL, which text and JSON cannot hold. */
const text = fc.string({ unit: "binary", maxLength: 40 }).filter((s) => !s.includes("\u0000"));
const rows = fc.array(
  fc.record({
    label: fc.option(text, { nil: null }),
    count: fc.option(fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }), { nil: null }),
    active: fc.boolean(),
    emails: fc.array(text, { maxLength: 3 }),
  }),
  { maxLength: 30 },
);

async function roundTrip(input: Row[]): Promise<Row[]> {
  const [page] = await db.sql.query<{ items: string }>(
    `SELECT ${jsonArraySql(ITEM.sql, "x.i")} AS items
     FROM unnest($1::text[], $2::int[], $3::bool[], $4::jsonb[]) WITH ORDINALITY AS x(label, count, active, emails, i)`,
    [input.map((r) => r.label), input.map((r) => r.count), input.map((r) => r.active), input.map((r) => JSON.stringify(r.emails))],
  );
  return readPageItems(page.items, ITEM);
}

describe("pageItem", () => {
  it("reads back every item as it went in, named as declared, for any text, number, null and JSON value", async () => {
    await fc.assert(
      fc.asyncProperty(rows, async (input) => {
        const output = await roundTrip(input);
        expect(output).toStrictEqual(input.map((r) => ({ emails: r.emails, active: r.active, label: r.label, count: r.count })));
        for (const item of output) expect(Object.keys(item)).toEqual(["emails", "active", "label", "count"]);
      }),
      { numRuns: 60 },
    );
  });

  it("sends each item as an array of its declared fields, without their names", async () => {
    const [page] = await db.sql.query<{ items: string }>(
      `SELECT ${jsonArraySql(ITEM.sql, "x.label")} AS items FROM (VALUES ('a "quoted" label', 7, true, '["x@example.com"]'::jsonb)) AS x(label, count, active, emails)`,
    );
    expect(JSON.parse(page.items)).toEqual([[["x@example.com"], true, 'a "quoted" label', 7]]);
    expect(page.items).not.toContain("emails");
    expect(ITEM.size).toBe(4);
    expect(await roundTrip([])).toEqual([]);
  });

  it("names fields whatever characters their names hold, each an own property with the same shape", () => {
    const odd = pageItem<Record<string, unknown>>({ 'say "hi"': "a", "back\\slash": "b", "line\nbreak": "c", "é ✓ 日本": "d", constructor: "e" });
    const [first, second] = [odd.read([1, 2, 3, 4, 5]), odd.read(["x", null, true, [], {}])];
    expect(first).toEqual({ 'say "hi"': 1, "back\\slash": 2, "line\nbreak": 3, "é ✓ 日本": 4, constructor: 5 });
    expect(Object.keys(second).sort()).toEqual(Object.keys(first).sort());
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
    expect(() => pageItem({ ["__proto__"]: "a" } as Record<string, string>)).toThrow(/__proto__/);
  });
});

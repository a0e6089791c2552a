// A list page's timestamps leave the database as PostgreSQL's JSON writes a UTC timestamp
// (2026-11-27T04:21:27.12, the fraction trimmed) and become the reply's form in Node (isoFromSql): the
// same text to_char() wrote before, and Date.toISOString() writes on the single reads; a page item reads
// its stampField()s so.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoFromSql, isoSql, jsonArraySql, pageItem, readPageItems, stampField } from "@/lib/db/paging";
import { listDeliverables } from "@/lib/deliverables/list";
import { getDocument } from "@/lib/esign/documents";
import { listDocuments } from "@/lib/esign/list";
import { listTemplateItems } from "@/lib/templates/listing";
import { seededPGlite } from "../support/seeded-pglite";
import { fillWorkspace } from "../support/workspace";

const db = seededPGlite();

/** Microseconds since 1970 that make every shape of fraction: none, trailing zeros, all six digits. */
const instants = fc.oneof(
  fc.bigInt({ min: 0n, max: 4_102_444_800_000_000n }),
  fc.bigInt({ min: 0n, max: 4_102_444_800n }).map((s) => s * 1_000_000n),
  fc.bigInt({ min: 0n, max: 4_102_444_800_000n }).map((ms) => ms * 1000n),
  fc.bigInt({ min: 0n, max: 41_024_448_000n }).map((cs) => cs * 10_000n + 9n),
);

describe("isoFromSql", () => {
  it("writes what to_char wrote and Date writes, for any instant to the microsecond", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(instants, { minLength: 1, maxLength: 50 }), async (micros) => {
        const rows = await db.sql.query<{ micros: string; json: string; text: string }>(
          `SELECT m::text AS micros, json_build_object('t', ${isoSql("ts")})::text AS json,
                  to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS text
           FROM unnest($1::bigint[]) m, LATERAL (SELECT to_timestamp(0) + m * interval '1 microsecond' AS ts) t`,
          [micros.map(String)],
        );
        for (const row of rows) {
          const written = isoFromSql((JSON.parse(row.json) as { t: string }).t);
          expect(written).toBe(row.text);
          expect(written).toBe(new Date(Number(BigInt(row.micros) / 1000n)).toISOString());
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("a page item's stampField", () => {
  it("reads back as Date writes the instant, and a null as null, for any instant to the microsecond", async () => {
    const item = pageItem<{ at: string | null; micros: string }>({ at: stampField("x.ts"), micros: "x.m::text" });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(instants, { nil: null }), { minLength: 1, maxLength: 50 }), async (micros) => {
        const [page] = await db.sql.query<{ items: string }>(
          `SELECT ${jsonArraySql(item.sql, "x.i")} AS items
           FROM unnest($1::bigint[]) WITH ORDINALITY AS u(m, i),
                LATERAL (SELECT u.m AS m, u.i AS i, to_timestamp(0) + u.m * interval '1 microsecond' AS ts) x`,
          [micros.map((m) => (m === null ? null : String(m)))],
        );
        const read = readPageItems(page.items, item);
        expect(read.map((r) => r.at)).toEqual(micros.map((m) => (m === null ? null : new Date(Number(m / 1000n)).toISOString())));
      }),
      { numRuns: 40 },
    );
  });
});

describe("a listed page's timestamps", () => {
  it("are the single read's, on deliverables, their tags, templates, and documents with their signers", async () => {
    const { prisma, orgId } = db;
    await fillWorkspace(prisma, orgId, { templates: 12, deliverables: 12, documents: 6 });
    // A whole second and fractions trimmed to one, two and three digits (the columns keep milliseconds),
    // on rows and tags alike.
    const stamps = `'{"2026-01-02 03:04:05+00", "2026-01-02 03:04:05.1+00", "1999-12-31 23:59:59.12+00", "2026-11-29 00:00:00.123+00"}'::timestamptz[]`;
    for (const table of ["deliverable", "template", "tag", "signing_document"])
      await db.sql.query(
        `UPDATE ${table} SET "createdOn" = (${stamps})[1 + abs(hashtext(id::text)) % 4], "updatedOn" = (${stamps})[1 + abs(hashtext(reverse(id::text))) % 4]`,
      );
    await db.sql.query(
      `UPDATE signing_document SET "sentAt" = (${stamps})[1 + abs(hashtext(name)) % 4], "expiresAt" = (${stamps})[1 + abs(hashtext(id::text || 'x')) % 4]`,
    );
    await db.sql.query(`UPDATE signing_recipient SET "viewedAt" = (${stamps})[1 + abs(hashtext(id::text)) % 4] WHERE "signingOrder" = 1`);

    const deliverables = await listDeliverables(db.sql, orgId, { limit: 100, offset: 0, selectedTags: [], showTags: true });
    const deliverableRows = await prisma.deliverable.findMany({ where: { orgId }, include: { tags: { include: { tag: true } } } });
    expect(deliverables.results.length).toBe(deliverableRows.length);
    for (const item of deliverables.results) {
      const row = deliverableRows.find((r) => r.id === item.id)!;
      expect([item.createdOn, item.updatedOn]).toEqual([row.createdOn.toISOString(), row.updatedOn.toISOString()]);
      for (const tag of item.tags as { id: string; createdOn: string; updatedOn: string }[]) {
        const tagRow = row.tags.find((t) => t.tagId === tag.id)!.tag;
        expect([tag.createdOn, tag.updatedOn]).toEqual([tagRow.createdOn.toISOString(), tagRow.updatedOn.toISOString()]);
      }
    }

    const templates = await listTemplateItems(db.sql, orgId, { limit: 100, offset: 0, selectedTags: [], showTags: false, type: "template" });
    const templateRows = await prisma.template.findMany({ where: { orgId } });
    expect(templates.results.length).toBe(templateRows.length);
    for (const item of templates.results) {
      const row = templateRows.find((r) => r.id === item.id)!;
      expect([item.createdOn, item.updatedOn]).toEqual([row.createdOn.toISOString(), row.updatedOn.toISOString()]);
    }

    // Every timestamp of a listed document and of its signers, against the document read alone (Dates).
    const documents = await listDocuments(db.sql, orgId, { limit: 100, offset: 0 });
    expect(documents.results.length).toBe(6);
    for (const listed of documents.results) expect(listed).toEqual(await getDocument(prisma, orgId, listed.id));
  });
});

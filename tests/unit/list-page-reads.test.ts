// How a list page reads the table behind it, from EXPLAIN ANALYZE of the very statement the list runs,
// on a real (in-memory) PostgreSQL: a page deep in the list takes its ids off an index and reads from
// the table only the rows it shows, not every row it skips (issue 17: a page at offset 5,000 read 5,100
// deliverables, 1.2 ms of a 4.5 ms page on the embedded database); the document list did the same.
import { beforeAll, describe, expect, it } from "vitest";
import type { SqlQueryOptions, SqlRunner } from "@/lib/db/driver";
import { listDeliverables } from "@/lib/deliverables/list";
import { listDocuments } from "@/lib/esign/list";
import { listTemplateItems } from "@/lib/templates/listing";
import { explainAnalyze, heapRowsRead, type PlanNode } from "../support/query-plans";
import { seededPGlite } from "../support/seeded-pglite";
import { fillWorkspace } from "../support/workspace";

/** A runner that answers each statement as the list expects, and keeps each one's plan as it ran. */
function explaining(sql: SqlRunner) {
  const plans: PlanNode[] = [];
  const runner: SqlRunner = {
    exec: (text) => sql.exec(text),
    transaction: (fn) => sql.transaction(fn),
    async query<T>(text: string, params?: unknown[], options?: SqlQueryOptions) {
      plans.push(await explainAnalyze(sql, text, params, options));
      return sql.query<T>(text, params, options);
    },
  };
  return { runner, plans };
}

const TEMPLATES = 300;
const DELIVERABLES = 600;
const DOCUMENTS = 300;
const db = seededPGlite();

beforeAll(async () => {
  const { prisma, orgId, userId } = db;
  const start = Date.now() - DOCUMENTS * 1000;
  await prisma.signingDocument.createMany({
    data: Array.from({ length: DOCUMENTS }, (_, i) => ({
      orgId,
      name: `Document ${i}`,
      sourceKind: "file",
      originalPdfKey: `documents/${i}.pdf`,
      originalHash: "0".repeat(64),
      pageCount: 1,
      emailMessage: "A message long enough to make the row worth not reading. ".repeat(10),
      createdBy: userId,
      createdOn: new Date(start + i * 1000),
    })),
  });
  // Ends with VACUUM ANALYZE, as autovacuum or the embedded database's upkeep would have run by then.
  await fillWorkspace(prisma, orgId, { templates: TEMPLATES, deliverables: DELIVERABLES });
  // Planned as on a busy workspace's tables (5,000 templates): at this size the planner would rather
  // read all 300 rows than look 50 up by key, which says nothing of the page's shape.
  await db.sql.exec("SET enable_seqscan = off");
}, 60_000);

describe("a list page deep in the list", () => {
  it("deliverables, newest first: reads the 50 rows it shows, not the 400 before them", async () => {
    const { runner, plans } = explaining(db.sql);
    const page = await listDeliverables(runner, db.orgId, { limit: 50, offset: 400, selectedTags: [], showTags: true });
    expect(page.totalRecords).toBe(DELIVERABLES);
    expect(page.results).toHaveLength(50);
    // The page is the right one: the 401st to 450th newest.
    const newest = await db.sql.query<{ id: string }>(`SELECT id FROM deliverable WHERE "orgId" = $1 ORDER BY "createdOn" DESC, id DESC LIMIT 50 OFFSET 400`, [
      db.orgId,
    ]);
    expect(page.results.map((r) => r.id)).toEqual(newest.map((r) => r.id));
    expect(plans).toHaveLength(1);
    expect(heapRowsRead(plans[0], "deliverable")).toBe(50);
  });

  it("documents, newest first: reads the 50 rows it shows, not the 200 before them", async () => {
    const { runner, plans } = explaining(db.sql);
    const page = await listDocuments(runner, db.orgId, { limit: 50, offset: 200 });
    expect(page.totalRecords).toBe(DOCUMENTS);
    expect(page.results.map((r) => r.name)).toEqual(Array.from({ length: 50 }, (_, i) => `Document ${DOCUMENTS - 201 - i}`));
    expect(plans).toHaveLength(1);
    expect(heapRowsRead(plans[0], "signing_document")).toBe(50);
  });

  it("templates by name: reads the 50 rows it shows, not the 200 before them", async () => {
    const { runner, plans } = explaining(db.sql);
    const page = await listTemplateItems(runner, db.orgId, {
      limit: 50,
      offset: 200,
      selectedTags: [],
      column0: "name",
      order0: "asc",
      showTags: true,
      type: "template",
    });
    expect(page.totalRecords).toBe(TEMPLATES);
    expect(page.results).toHaveLength(50);
    expect(plans).toHaveLength(1);
    expect(heapRowsRead(plans[0], "template")).toBe(50);
  });
});

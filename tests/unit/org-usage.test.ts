// The quota counter (org_usage) that triggers keep, against the aggregate it replaces, after every
// kind of write a deliverable or template sees: create, resize, soft delete, restore, hard delete,
// another organization's writes, and an organization's deletion (which must not be blocked).
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlRunner, type SqlRunner } from "@/lib/db/driver";
import { applyMigrations } from "@/lib/db/migrate";
import { PrismaClient } from "@/lib/generated/prisma/client";

let pglite: PGlite;
let prisma: PrismaClient;
let runner: SqlRunner;

beforeAll(async () => {
  pglite = await PGlite.create();
  runner = sqlRunner({ kind: "pglite", pglite });
  await applyMigrations(runner);
  prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
});
afterAll(async () => {
  await prisma.$disconnect();
  await pglite.close();
});

/** The counter row and the aggregate it stands for, as numbers. */
async function usage(orgId: string) {
  const [counter] = await runner.query<{ deliverables: bigint; bytes: bigint }>(`SELECT deliverables, bytes FROM org_usage WHERE "orgId" = $1::uuid`, [orgId]);
  const [actual] = await runner.query<{ deliverables: bigint; bytes: bigint }>(
    `SELECT (SELECT count(*) FROM deliverable WHERE "orgId" = $1::uuid AND "isActive") AS deliverables,
            (SELECT COALESCE(sum("fileSize"::bigint + "pdfSize"), 0) FROM deliverable WHERE "orgId" = $1::uuid AND "isActive")
          + (SELECT COALESCE(sum("fileSize"::bigint), 0) FROM template WHERE "orgId" = $1::uuid AND "isActive") AS bytes`,
    [orgId],
  );
  return {
    counter: { deliverables: Number(counter.deliverables), bytes: Number(counter.bytes) },
    actual: { deliverables: Number(actual.deliverables), bytes: Number(actual.bytes) },
  };
}

async function expectExact(orgId: string, expected: { deliverables: number; bytes: number }) {
  const { counter, actual } = await usage(orgId);
  expect(actual).toEqual(expected);
  expect(counter).toEqual(expected);
}

describe("org_usage", () => {
  it("matches the aggregate after every kind of write", async () => {
    const user = await prisma.user.create({ data: { email: "usage@example.test", name: "U", passwordHash: "x" } });
    const [org, other] = await Promise.all(["usage-a", "usage-b"].map((slug) => prisma.organization.create({ data: { slug, name: slug } })));
    await expectExact(org.id, { deliverables: 0, bytes: 0 });

    const template = (orgId: string, fileSize: number) =>
      prisma.template.create({ data: { orgId, name: "T", kind: "docx", fileType: "docx", fileSize, storageKey: "k", placeholders: [], createdBy: user.id } });
    const tpl = await template(org.id, 1_000);
    await template(other.id, 7);
    await expectExact(org.id, { deliverables: 0, bytes: 1_000 });

    const deliverable = (fileSize: number, pdfSize: number) =>
      prisma.deliverable.create({
        data: { orgId: org.id, templateId: tpl.id, name: "D", createdBy: user.id, fileType: "docx", fileSize, pdfSize, variables: [] },
      });
    const a = await deliverable(100, 200);
    const b = await deliverable(2_000_000_000, 2_000_000_000); // past 32 bits together
    await expectExact(org.id, { deliverables: 2, bytes: 1_000 + 300 + 4_000_000_000 });

    await prisma.deliverable.update({ where: { id: a.id }, data: { name: "renamed" } });
    await prisma.deliverable.update({ where: { id: a.id }, data: { pdfSize: 50 } });
    await expectExact(org.id, { deliverables: 2, bytes: 1_000 + 150 + 4_000_000_000 });

    await prisma.deliverable.update({ where: { id: b.id }, data: { isActive: false } });
    await expectExact(org.id, { deliverables: 1, bytes: 1_150 });
    await prisma.deliverable.update({ where: { id: b.id }, data: { isActive: true } });
    await prisma.deliverable.update({ where: { id: b.id }, data: { isActive: false } });
    await prisma.deliverable.delete({ where: { id: b.id } }); // an inactive row leaves nothing to take back
    await prisma.deliverable.delete({ where: { id: a.id } });
    await expectExact(org.id, { deliverables: 0, bytes: 1_000 });

    await prisma.template.update({ where: { id: tpl.id }, data: { isActive: false } });
    await expectExact(org.id, { deliverables: 0, bytes: 0 });
    await expectExact(other.id, { deliverables: 0, bytes: 7 });

    await deliverable(1, 1);
    await prisma.organization.delete({ where: { id: org.id } });
    expect(await runner.query(`SELECT 1 FROM org_usage WHERE "orgId" = $1::uuid`, [org.id])).toEqual([]);
    await expectExact(other.id, { deliverables: 0, bytes: 7 });
  });
});

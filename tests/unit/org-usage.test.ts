// The quota counter (org_usage) that triggers keep, against the aggregate it replaces, after every
// kind of write a deliverable, template or signing document sees: create, resize, soft delete, restore,
// hard delete, another organization's writes, and an organization's deletion (which must not be
// blocked); and the backfill of its template and document counts, on a database that had them before
// those counts existed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SqlRunner, sqlRunner } from "@/lib/db/driver";
import { applyMigrations, migrationsDir } from "@/lib/db/migrate";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { migratedPGlite } from "../support/migrated-pglite";

const db = migratedPGlite();
let prisma: PrismaClient;

beforeAll(() => {
  prisma = new PrismaClient({ adapter: new PrismaPGlite(db.pglite) });
});
afterAll(async () => {
  await prisma.$disconnect();
});

/** The counter row and the aggregate it stands for, as numbers. */
async function usage(orgId: string) {
  const [counter] = await db.sql.query<Usage<bigint>>(`SELECT deliverables, templates, documents, bytes FROM org_usage WHERE "orgId" = $1::uuid`, [orgId]);
  const [actual] = await db.sql.query<Usage<bigint>>(
    `SELECT (SELECT count(*) FROM deliverable WHERE "orgId" = $1::uuid AND "isActive") AS deliverables,
            (SELECT count(*) FROM template WHERE "orgId" = $1::uuid AND "isActive") AS templates,
            (SELECT count(*) FROM signing_document WHERE "orgId" = $1::uuid) AS documents,
            (SELECT COALESCE(sum("fileSize"::bigint + "pdfSize"), 0) FROM deliverable WHERE "orgId" = $1::uuid AND "isActive")
          + (SELECT COALESCE(sum("fileSize"::bigint), 0) FROM template WHERE "orgId" = $1::uuid AND "isActive") AS bytes`,
    [orgId],
  );
  const numbers = (u: Usage<bigint>) => ({
    deliverables: Number(u.deliverables),
    templates: Number(u.templates),
    documents: Number(u.documents),
    bytes: Number(u.bytes),
  });
  return { counter: numbers(counter), actual: numbers(actual) };
}

interface Usage<N> {
  deliverables: N;
  templates: N;
  documents: N;
  bytes: N;
}

/** The counts as expected (no documents unless said), in the aggregate and in the counter row alike. */
async function expectExact(orgId: string, expected: Omit<Usage<number>, "documents"> & { documents?: number }) {
  const { counter, actual } = await usage(orgId);
  expect(actual).toEqual({ documents: 0, ...expected });
  expect(counter).toEqual(actual);
}

/**
 * A fresh database migrated up to the migration before the one named, `fill`ed there, then migrated to
 * the end; `check` reads it afterwards.
 */
async function migratedPast(migration: string, fill: (old: SqlRunner) => Promise<string>, check: (old: SqlRunner, orgId: string) => Promise<void>) {
  const all = fs
    .readdirSync(migrationsDir())
    .filter((name) => fs.statSync(path.join(migrationsDir(), name)).isDirectory())
    .sort();
  const at = all.findIndex((name) => name.endsWith(`_${migration}`));
  expect(at).toBeGreaterThan(0);
  const earlier = fs.mkdtempSync(path.join(os.tmpdir(), "quire-migrations-"));
  for (const name of all.slice(0, at)) fs.cpSync(path.join(migrationsDir(), name), path.join(earlier, name), { recursive: true });
  fs.copyFileSync(path.join(migrationsDir(), "migration_lock.toml"), path.join(earlier, "migration_lock.toml"));
  const old = await PGlite.create();
  try {
    const oldRunner = sqlRunner({ kind: "pglite", pglite: old });
    await applyMigrations(oldRunner, earlier);
    const orgId = await fill(oldRunner);
    expect((await applyMigrations(oldRunner)).applied.map((name) => name.replace(/^\d+_/, ""))).toContain(migration);
    await check(oldRunner, orgId);
  } finally {
    await old.close();
    fs.rmSync(earlier, { recursive: true, force: true });
  }
}

/** An organization and a user in an older database, by plain SQL. */
async function oldOrganization(old: SqlRunner): Promise<{ orgId: string; userId: string }> {
  const [user] = await old.query<{ id: string }>(
    `INSERT INTO "user" (id, email, name, "passwordHash", "updatedOn") VALUES (gen_random_uuid(), 'old@example.test', 'O', 'x', now()) RETURNING id`,
  );
  const [org] = await old.query<{ id: string }>(
    `INSERT INTO organization (id, slug, name, "updatedOn") VALUES (gen_random_uuid(), 'old', 'Old', now()) RETURNING id`,
  );
  return { orgId: org.id, userId: user.id };
}

describe("org_usage", () => {
  it("matches the aggregate after every kind of write", async () => {
    const user = await prisma.user.create({ data: { email: "usage@example.test", name: "U", passwordHash: "x" } });
    const [org, other] = await Promise.all(["usage-a", "usage-b"].map((slug) => prisma.organization.create({ data: { slug, name: slug } })));
    await expectExact(org.id, { deliverables: 0, templates: 0, bytes: 0 });

    const template = (orgId: string, fileSize: number) =>
      prisma.template.create({ data: { orgId, name: "T", kind: "docx", fileType: "docx", fileSize, storageKey: "k", placeholders: [], createdBy: user.id } });
    const tpl = await template(org.id, 1_000);
    await template(other.id, 7);
    const spare = await template(org.id, 10);
    await expectExact(org.id, { deliverables: 0, templates: 2, bytes: 1_010 });
    await prisma.template.update({ where: { id: spare.id }, data: { name: "renamed", fileSize: 20 } });
    await expectExact(org.id, { deliverables: 0, templates: 2, bytes: 1_020 });
    await prisma.template.delete({ where: { id: spare.id } });
    await expectExact(org.id, { deliverables: 0, templates: 1, bytes: 1_000 });

    const deliverable = (fileSize: number, pdfSize: number) =>
      prisma.deliverable.create({
        data: { orgId: org.id, templateId: tpl.id, name: "D", createdBy: user.id, fileType: "docx", fileSize, pdfSize, variables: [] },
      });
    const a = await deliverable(100, 200);
    const b = await deliverable(2_000_000_000, 2_000_000_000); // past 32 bits together
    await expectExact(org.id, { deliverables: 2, templates: 1, bytes: 1_000 + 300 + 4_000_000_000 });

    await prisma.deliverable.update({ where: { id: a.id }, data: { name: "renamed" } });
    await prisma.deliverable.update({ where: { id: a.id }, data: { pdfSize: 50 } });
    await expectExact(org.id, { deliverables: 2, templates: 1, bytes: 1_000 + 150 + 4_000_000_000 });

    await prisma.deliverable.update({ where: { id: b.id }, data: { isActive: false } });
    await expectExact(org.id, { deliverables: 1, templates: 1, bytes: 1_150 });
    await prisma.deliverable.update({ where: { id: b.id }, data: { isActive: true } });
    await prisma.deliverable.update({ where: { id: b.id }, data: { isActive: false } });
    await prisma.deliverable.delete({ where: { id: b.id } }); // an inactive row leaves nothing to take back
    await prisma.deliverable.delete({ where: { id: a.id } });
    await expectExact(org.id, { deliverables: 0, templates: 1, bytes: 1_000 });

    await prisma.template.update({ where: { id: tpl.id }, data: { isActive: false } });
    await expectExact(org.id, { deliverables: 0, templates: 0, bytes: 0 });
    await expectExact(other.id, { deliverables: 0, templates: 1, bytes: 7 });
    await prisma.template.update({ where: { id: tpl.id }, data: { isActive: true } });
    await expectExact(org.id, { deliverables: 0, templates: 1, bytes: 1_000 });

    const document = (orgId: string, status: "draft" | "sent") =>
      prisma.signingDocument.create({
        data: { orgId, name: "S", status, sourceKind: "file", originalPdfKey: "k", originalHash: "h", pageCount: 1, createdBy: user.id },
      });
    const draft = await document(org.id, "draft");
    await document(org.id, "sent");
    await document(other.id, "sent");
    await expectExact(org.id, { deliverables: 0, templates: 1, documents: 2, bytes: 1_000 });
    await prisma.signingDocument.update({ where: { id: draft.id }, data: { name: "renamed", status: "sent" } });
    await expectExact(org.id, { deliverables: 0, templates: 1, documents: 2, bytes: 1_000 });
    await prisma.signingDocument.update({ where: { id: draft.id }, data: { orgId: other.id } });
    await expectExact(org.id, { deliverables: 0, templates: 1, documents: 1, bytes: 1_000 });
    await expectExact(other.id, { deliverables: 0, templates: 1, documents: 2, bytes: 7 });
    await prisma.signingDocument.delete({ where: { id: draft.id } });
    await expectExact(other.id, { deliverables: 0, templates: 1, documents: 1, bytes: 7 });

    await deliverable(1, 1);
    await prisma.organization.delete({ where: { id: org.id } });
    expect(await db.sql.query(`SELECT 1 FROM org_usage WHERE "orgId" = $1::uuid`, [org.id])).toEqual([]);
    await expectExact(other.id, { deliverables: 0, templates: 1, documents: 1, bytes: 7 });
  });

  it("counts the templates an organization had before the template count existed", async () => {
    await migratedPast(
      "org_usage_templates",
      async (old) => {
        const { orgId, userId } = await oldOrganization(old);
        for (const active of [true, true, true, false])
          await old.query(
            `INSERT INTO template (id, "orgId", name, kind, "fileType", "fileSize", "storageKey", placeholders, "createdBy", "isActive", "updatedOn")
             VALUES (gen_random_uuid(), $1, 'T', 'docx', 'docx', 5, 'k', '[]', $2, $3, now())`,
            [orgId, userId, active],
          );
        return orgId;
      },
      async (old, orgId) => {
        const [row] = await old.query<{ templates: bigint; bytes: bigint }>(`SELECT templates, bytes FROM org_usage WHERE "orgId" = $1::uuid`, [orgId]);
        expect([Number(row.templates), Number(row.bytes)]).toEqual([3, 15]);
      },
    );
  });

  it("counts the documents an organization had before the document count existed", async () => {
    await migratedPast(
      "org_usage_documents",
      async (old) => {
        const { orgId, userId } = await oldOrganization(old);
        for (const status of ["draft", "sent", "completed", "voided"])
          await old.query(
            `INSERT INTO signing_document (id, "orgId", name, status, "sourceKind", "originalPdfKey", "originalHash", "pageCount", "createdBy", "updatedOn")
             VALUES (gen_random_uuid(), $1, 'S', $3::"DocumentStatus", 'file', 'k', 'h', 1, $2, now())`,
            [orgId, userId, status],
          );
        return orgId;
      },
      async (old, orgId) => {
        const [row] = await old.query<{ documents: bigint }>(`SELECT documents FROM org_usage WHERE "orgId" = $1::uuid`, [orgId]);
        expect(Number(row.documents)).toBe(4);
      },
    );
  });
});

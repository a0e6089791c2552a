// The quota counter (org_usage) that triggers keep, against the aggregate it replaces, after every
// kind of write a deliverable or template sees: create, resize, soft delete, restore, hard delete,
// another organization's writes, and an organization's deletion (which must not be blocked); and the
// backfill of its template count, on a database that had templates before that count existed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlRunner } from "@/lib/db/driver";
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
  const [counter] = await db.sql.query<Usage<bigint>>(`SELECT deliverables, templates, bytes FROM org_usage WHERE "orgId" = $1::uuid`, [orgId]);
  const [actual] = await db.sql.query<Usage<bigint>>(
    `SELECT (SELECT count(*) FROM deliverable WHERE "orgId" = $1::uuid AND "isActive") AS deliverables,
            (SELECT count(*) FROM template WHERE "orgId" = $1::uuid AND "isActive") AS templates,
            (SELECT COALESCE(sum("fileSize"::bigint + "pdfSize"), 0) FROM deliverable WHERE "orgId" = $1::uuid AND "isActive")
          + (SELECT COALESCE(sum("fileSize"::bigint), 0) FROM template WHERE "orgId" = $1::uuid AND "isActive") AS bytes`,
    [orgId],
  );
  const numbers = (u: Usage<bigint>) => ({ deliverables: Number(u.deliverables), templates: Number(u.templates), bytes: Number(u.bytes) });
  return { counter: numbers(counter), actual: numbers(actual) };
}

interface Usage<N> {
  deliverables: N;
  templates: N;
  bytes: N;
}

async function expectExact(orgId: string, expected: Usage<number>) {
  const { counter, actual } = await usage(orgId);
  expect(actual).toEqual(expected);
  expect(counter).toEqual(expected);
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

    await deliverable(1, 1);
    await prisma.organization.delete({ where: { id: org.id } });
    expect(await db.sql.query(`SELECT 1 FROM org_usage WHERE "orgId" = $1::uuid`, [org.id])).toEqual([]);
    await expectExact(other.id, { deliverables: 0, templates: 1, bytes: 7 });
  });

  it("counts the templates an organization had before the template count existed", async () => {
    // A database at the migration before org_usage_templates, with templates in it; then the rest.
    const all = fs
      .readdirSync(migrationsDir())
      .filter((name) => fs.statSync(path.join(migrationsDir(), name)).isDirectory())
      .sort();
    const at = all.findIndex((name) => name.endsWith("_org_usage_templates"));
    expect(at).toBeGreaterThan(0);
    const earlier = fs.mkdtempSync(path.join(os.tmpdir(), "quire-migrations-"));
    for (const name of all.slice(0, at)) fs.cpSync(path.join(migrationsDir(), name), path.join(earlier, name), { recursive: true });
    fs.copyFileSync(path.join(migrationsDir(), "migration_lock.toml"), path.join(earlier, "migration_lock.toml"));

    const old = await PGlite.create();
    try {
      const oldRunner = sqlRunner({ kind: "pglite", pglite: old });
      await applyMigrations(oldRunner, earlier);
      const [user] = await oldRunner.query<{ id: string }>(
        `INSERT INTO "user" (id, email, name, "passwordHash", "updatedOn") VALUES (gen_random_uuid(), 'old@example.test', 'O', 'x', now()) RETURNING id`,
      );
      const [org] = await oldRunner.query<{ id: string }>(
        `INSERT INTO organization (id, slug, name, "updatedOn") VALUES (gen_random_uuid(), 'old', 'Old', now()) RETURNING id`,
      );
      for (const active of [true, true, true, false])
        await oldRunner.query(
          `INSERT INTO template (id, "orgId", name, kind, "fileType", "fileSize", "storageKey", placeholders, "createdBy", "isActive", "updatedOn")
           VALUES (gen_random_uuid(), $1, 'T', 'docx', 'docx', 5, 'k', '[]', $2, $3, now())`,
          [org.id, user.id, active],
        );
      expect((await applyMigrations(oldRunner)).applied.map((name) => name.replace(/^\d+_/, ""))).toContain("org_usage_templates");
      const [row] = await oldRunner.query<{ templates: bigint; bytes: bigint }>(`SELECT templates, bytes FROM org_usage WHERE "orgId" = $1::uuid`, [org.id]);
      expect([Number(row.templates), Number(row.bytes)]).toEqual([3, 15]);
    } finally {
      await old.close();
      fs.rmSync(earlier, { recursive: true, force: true });
    }
  });
});

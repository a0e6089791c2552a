// A busy workspace for the bench's lists and for the tests that check how a list page reads its rows.
import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";

/**
 * Fills an organization the way a busy workspace looks (issue 17): templates in 50 folders, two of ten
 * tags each, and deliverables made from them, inserted in bulk (no files behind them; lists do not read files).
 */
export async function fillWorkspace(client: Db, orgId: string, counts: { templates: number; deliverables: number }): Promise<void> {
  const user = await client.apiKey.findFirstOrThrow({ where: { orgId }, select: { userId: true } });
  process.stderr.write(`  inserting ${counts.templates} templates and ${counts.deliverables} deliverables…\n`);
  const folders = Array.from({ length: 50 }, (_, i) => ({ id: crypto.randomUUID(), orgId, name: `Folder ${i}`, createdBy: user.userId }));
  await client.templateFolder.createMany({ data: folders });
  const tags = await Promise.all(Array.from({ length: 10 }, (_, i) => client.tag.create({ data: { orgId, label: `bench-${i}`, createdBy: user.userId } })));
  const templates = Array.from({ length: counts.templates }, (_, i) => ({
    id: crypto.randomUUID(),
    orgId,
    folderId: i % 3 === 0 ? null : folders[i % folders.length].id,
    name: `${["Contract", "Offer", "Invoice", "Proposal", "NDA"][i % 5]} ${crypto.randomBytes(4).toString("hex")}`,
    kind: "docx",
    fileType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    fileSize: 10_000 + i,
    storageKey: `bench/${i}.docx`,
    placeholders: [{ placeholder: "{Name}", name: "Name" }],
    createdBy: user.userId,
  }));
  for (let i = 0; i < templates.length; i += 1000) await client.template.createMany({ data: templates.slice(i, i + 1000) });
  await client.templateTag.createMany({
    data: templates.flatMap((t, i) => [
      { templateId: t.id, tagId: tags[i % 10].id },
      { templateId: t.id, tagId: tags[(i * 7) % 10].id },
    ]),
    skipDuplicates: true,
  });
  const start = Date.now() - counts.deliverables * 1000;
  const deliverables = Array.from({ length: counts.deliverables }, (_, i) => ({
    id: crypto.randomUUID(),
    orgId,
    templateId: templates[i % templates.length].id,
    name: `Deliverable ${i} ${crypto.randomBytes(3).toString("hex")}`,
    createdBy: user.userId,
    fileType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    fileSize: 20_000 + i,
    variables: [{ placeholder: "{Name}", text: `Client ${i}`, mimeType: "text" }],
    createdOn: new Date(start + i * 1000),
  }));
  for (let i = 0; i < deliverables.length; i += 1000) await client.deliverable.createMany({ data: deliverables.slice(i, i + 1000) });
  await client.deliverableTag.createMany({ data: deliverables.flatMap((d, i) => [{ deliverableId: d.id, tagId: tags[i % 10].id }]), skipDuplicates: true });
  // What autovacuum (PostgreSQL), or Quire's round for the embedded database (lib/db/pglite-maintenance.ts),
  // does after such a load: statistics (without them the planner guesses 20 rows), and the visibility map
  // that lets the template list read its page's ids off the index alone.
  await client.$executeRawUnsafe("VACUUM ANALYZE");
}

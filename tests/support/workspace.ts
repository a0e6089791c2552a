// A busy workspace for the bench's lists and for the tests that check how a list page reads its rows.
import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";

/**
 * Fills an organization the way a busy workspace looks (issue 17): templates in 50 folders, two of ten
 * tags each, deliverables made from them, and documents out for signing with two signers each, inserted
 * in bulk (no files behind them; lists do not read files).
 */
export async function fillWorkspace(client: Db, orgId: string, counts: { templates: number; deliverables: number; documents?: number }): Promise<void> {
  const user = await client.apiKey.findFirstOrThrow({ where: { orgId }, select: { userId: true } });
  process.stderr.write(`  inserting ${counts.templates} templates, ${counts.deliverables} deliverables and ${counts.documents ?? 0} documents…\n`);
  await fillDocuments(client, orgId, user.userId, counts.documents ?? 0);
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

/** Documents in every state, two signers each (both signed on a completed document, the first on every third other one but drafts), for the document list. */
async function fillDocuments(client: Db, orgId: string, userId: string, count: number): Promise<void> {
  const start = Date.now() - count * 1000;
  const states = ["sent", "completed", "sent", "completed", "draft", "voided", "sent", "completed", "declined", "sent"] as const;
  const documents = Array.from({ length: count }, (_, i) => {
    const status = states[i % states.length];
    const at = new Date(start + i * 1000);
    return {
      id: crypto.randomUUID(),
      orgId,
      name: `${["Lease", "Offer letter", "Services agreement", "NDA"][i % 4]} ${crypto.randomBytes(3).toString("hex")}`,
      status,
      sourceKind: "file",
      originalPdfKey: `bench/${i}.pdf`,
      originalHash: crypto.createHash("sha256").update(String(i)).digest("hex"),
      pageCount: 1 + (i % 7),
      senderName: "Bench Sender",
      senderEmail: "sender@example.com",
      emailSubject: "Please sign",
      emailMessage: "Hello, here is the document we talked about.",
      createdBy: userId,
      createdOn: at,
      ...(status === "draft" ? {} : { sentAt: at }),
      ...(status === "completed" ? { completedAt: at } : status === "voided" ? { voidedAt: at, voidReason: "Replaced" } : {}),
      ...(status === "declined" ? { declinedAt: at, declineReason: "Not me" } : {}),
    };
  });
  const recipients = documents.flatMap((d, i) =>
    [1, 2].map((n) => ({
      documentId: d.id,
      name: `Signer ${n}`,
      email: `signer${n}.${i}@example.com`,
      externalId: `crm-${i}-${n}`,
      signingOrder: n,
      accessTokenHash: crypto.randomBytes(16).toString("hex"),
      ...(d.status === "completed" || (d.status !== "draft" && n === 1 && i % 3 === 0) ? { signedAt: d.createdOn, viewedAt: d.createdOn } : {}),
    })),
  );
  for (let i = 0; i < documents.length; i += 1000) await client.signingDocument.createMany({ data: documents.slice(i, i + 1000) });
  for (let i = 0; i < recipients.length; i += 1000) await client.signingRecipient.createMany({ data: recipients.slice(i, i + 1000) });
}

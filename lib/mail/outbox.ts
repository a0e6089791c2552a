import type { Db } from "@/lib/db/client";

export async function listOutbox(db: Db, q: { orgId: string; to?: string; limit: number; offset: number }) {
  const where = { orgId: q.orgId, ...(q.to ? { to: { equals: q.to, mode: "insensitive" as const } } : {}) };
  const [rows, totalRecords] = await Promise.all([
    db.outboxMessage.findMany({ where, orderBy: [{ createdOn: "desc" }, { id: "desc" }], take: q.limit, skip: q.offset }),
    db.outboxMessage.count({ where }),
  ]);
  return {
    results: rows.map((m) => ({
      id: m.id,
      kind: m.kind,
      to: m.to,
      cc: m.cc,
      from: m.fromAddress,
      replyTo: m.replyTo,
      subject: m.subject,
      text: m.text,
      html: m.html,
      documentId: m.documentId,
      transport: m.transport,
      sentAt: m.sentAt?.toISOString() ?? null,
      error: m.error,
      createdOn: m.createdOn.toISOString(),
    })),
    totalRecords,
  };
}

// The document list writes each document as the single read does (documentJson), though it builds the
// page as one JSON text in the database (lib/esign/list.ts): every state, recipients signed, viewed and
// waiting in signing order, timestamps with microseconds, text that JSON must escape, a language the
// reply falls back from. Compared field by field with getDocument, on a real (in-memory) database.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDocument } from "@/lib/esign/documents";
import { listDocuments } from "@/lib/esign/list";
import { seededPGlite } from "../support/seeded-pglite";

const db = seededPGlite();
const ids: string[] = [];

/** Each document: its row's odd values, and its recipients' signing orders and what each has done. */
const DOCUMENTS = [
  { name: 'Draft "quoted" <tag> & ünïcødé 📄', status: "draft", language: "de", recipients: [{ order: 1 }] },
  {
    name: "Sent, first signed",
    status: "sent",
    language: "fr",
    sentAt: true,
    expiresAt: true,
    recipients: [{ order: 1, signed: true, viewed: true }, { order: 2, viewed: true }, { order: 2 }],
  },
  { name: "Sent, nobody yet", status: "sent", language: "xx", sentAt: true, recipients: [{ order: 1 }, { order: 1 }] },
  { name: "Completed", status: "completed", language: "es", sentAt: true, completedAt: true, recipients: [{ order: 1, signed: true, viewed: true }] },
  { name: "Voided", status: "voided", sentAt: true, voided: 'Wrong\nprice \\ "again"', recipients: [{ order: 1, viewed: true }] },
  { name: "Declined", status: "declined", sentAt: true, declined: "Not\tme", recipients: [{ order: 1, viewed: true }, { order: 2 }] },
  { name: "No recipients yet", status: "draft", recipients: [] },
] as const;

beforeAll(async () => {
  const { orgId, userId } = db;
  // Timestamps with microseconds, as PostgreSQL's now() writes them: the reply has milliseconds.
  const at = (n: number) => `2026-11-${String(10 + n).padStart(2, "0")} 10:11:12.${String(123456 + n * 111111).slice(0, 6)}+00`;
  for (const [i, d] of DOCUMENTS.entries()) {
    const id = crypto.randomUUID();
    ids.push(id);
    const doc = d as { sentAt?: boolean; expiresAt?: boolean; completedAt?: boolean; voided?: string; declined?: string; language?: string };
    await db.sql.query(
      `INSERT INTO signing_document (id, "orgId", name, description, status, "sourceKind", "originalPdfKey", "originalHash", "pageCount", "createdBy",
         "createdOn", "updatedOn", "senderName", "senderEmail", "ccEmails", language, "emailSubject", "emailMessage", "reminderDays",
         "sentAt", "expiresAt", "completedAt", "voidedAt", "voidReason", "declinedAt", "declineReason")
       VALUES ($1::uuid, $2::uuid, $3, $4, $5::"DocumentStatus", 'file', 'k', $6, 2, $7::uuid,
         $8::timestamptz, $9::timestamptz, 'Sender', 'sender@example.com', $10::jsonb, $11, $12, $13, $14,
         $15::timestamptz, $16::timestamptz, $17::timestamptz, $18::timestamptz, $19, $20::timestamptz, $21)`,
      [
        id,
        orgId,
        d.name,
        i % 2 ? "" : `Line one\nline "two" ${i}`,
        d.status,
        crypto.createHash("sha256").update(d.name).digest("hex"),
        userId,
        at(i),
        at(i + 1),
        JSON.stringify(i % 2 ? [] : [`cc${i}@example.com`, "other@example.com"]),
        doc.language ?? "en",
        i % 3 ? null : `Subject ${i}`,
        i % 3 ? `Message ${i} <b>` : null,
        i,
        doc.sentAt ? at(i + 2) : null,
        doc.expiresAt ? "2027-01-01 00:00:00.999999+00" : null,
        doc.completedAt ? at(i + 3) : null,
        doc.voided ? at(i + 3) : null,
        doc.voided ?? null,
        doc.declined ? at(i + 3) : null,
        doc.declined ?? null,
      ],
    );
    for (const [n, r] of (d.recipients as readonly { order: number; signed?: boolean; viewed?: boolean }[]).entries())
      await db.sql.query(
        `INSERT INTO signing_recipient (id, "documentId", name, email, "externalId", "signingOrder", "accessTokenHash", "createdOn", "signedAt", "viewedAt")
         VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $1, $7::timestamptz, $8::timestamptz, $9::timestamptz)`,
        [
          crypto.randomUUID(),
          id,
          `Signer ${n} "${i}"`,
          `signer${n}.${i}@example.com`,
          n % 2 ? null : `crm-${i}-${n}`,
          r.order,
          at(n),
          r.signed ? at(i + 4) : null,
          r.viewed ? at(i + 5) : null,
        ],
      );
  }
}, 60_000);

describe("the document list", () => {
  it("writes every document as the single read does, newest first", async () => {
    const page = await listDocuments(db.sql, db.orgId, { limit: 100, offset: 0 });
    expect(page.totalRecords).toBe(DOCUMENTS.length);
    expect(page.results.map((d) => d.id)).toEqual([...ids].reverse());
    for (const listed of page.results) expect(listed).toStrictEqual(await getDocument(db.prisma, db.orgId, listed.id));
    // What the fixtures were made to show: turns, statuses, the language fallback, microseconds rounded
    // to milliseconds as the single read rounds them.
    const sent = page.results.find((d) => d.name === "Sent, first signed")!;
    expect(sent.recipients.map((r) => r.status)).toEqual(["completed", "ready", "ready"]);
    expect(sent.expiresAt).toBe("2027-01-01T00:00:01.000Z");
    expect(page.results.find((d) => d.name === "Sent, nobody yet")!.language).toBe("en");
    expect(page.results.find((d) => d.name === "Declined")!.recipients.map((r) => r.status)).toEqual(["pending", "pending"]);
    expect(page.results.find((d) => d.name === "No recipients yet")!.recipients).toEqual([]);
  });

  it("pages, filters by status and name, and says the total on a page past the end", async () => {
    const first = await listDocuments(db.sql, db.orgId, { limit: 3, offset: 0 });
    const rest = await listDocuments(db.sql, db.orgId, { limit: 3, offset: 3 });
    const last = await listDocuments(db.sql, db.orgId, { limit: 3, offset: 6 });
    expect([...first.results, ...rest.results, ...last.results].map((d) => d.id)).toEqual([...ids].reverse());
    expect(await listDocuments(db.sql, db.orgId, { limit: 3, offset: 30 })).toEqual({ results: [], totalRecords: DOCUMENTS.length });
    const sent = await listDocuments(db.sql, db.orgId, { limit: 1, offset: 0, status: "sent" });
    expect(sent.totalRecords).toBe(2);
    expect(sent.results.map((d) => d.name)).toEqual(["Sent, nobody yet"]);
    const named = await listDocuments(db.sql, db.orgId, { limit: 100, offset: 0, query: "ÜNÏCØDÉ" });
    expect(named.results.map((d) => d.id)).toEqual([ids[0]]);
    expect(await listDocuments(db.sql, db.orgId, { limit: 100, offset: 0, query: "%" })).toEqual({ results: [], totalRecords: 0 });
    expect(await listDocuments(db.sql, crypto.randomUUID(), { limit: 100, offset: 0 })).toEqual({ results: [], totalRecords: 0 });
  });
});

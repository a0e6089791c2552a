// The audit chain's one-statement append (appendAuditAfter) on a real, migrated PGlite: chained from the
// newest entry it was given, with the change beside it written once; and, when another entry came in
// after that read, the statement changes nothing and the locking way appends after the newest entry.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { AUDIT_HEAD_JOIN, type AuditHead, appendAuditAfter, appendAuditSql, verifyAuditChain } from "@/lib/esign/audit";
import type { SqlQueryOptions, SqlRunner } from "@/lib/db/driver";
import { Prisma } from "@/lib/generated/prisma/client";
import { migratedPGlite } from "../support/migrated-pglite";

const db = migratedPGlite();

/** A sent document with one recipient and its "created" entry. */
async function documentWithRecipient(): Promise<{ documentId: string; recipientId: string }> {
  const [orgId, userId, documentId, recipientId] = [0, 0, 0, 0].map(() => crypto.randomUUID());
  await db.sql.query(`INSERT INTO organization (id, name, slug, "updatedOn") VALUES ($1::uuid, 'Org', $1, now())`, [orgId]);
  await db.sql.query(`INSERT INTO "user" (id, email, name, "passwordHash", "updatedOn") VALUES ($1::uuid, $1 || '@example.com', 'U', 'x', now())`, [userId]);
  await db.sql.query(
    `INSERT INTO signing_document (id, "orgId", name, status, "sourceKind", "originalPdfKey", "originalHash", "pageCount", "createdBy", "updatedOn")
     VALUES ($1::uuid, $2::uuid, 'Doc', 'sent', 'upload', 'k', 'h', 1, $3::uuid, now())`,
    [documentId, orgId, userId],
  );
  await db.sql.query(
    `INSERT INTO signing_recipient (id, "documentId", name, email, "signingOrder", "accessTokenHash") VALUES ($1::uuid, $2::uuid, 'R', 'r@example.com', 1, $1)`,
    [recipientId, documentId],
  );
  await db.sql.transaction((tx) => appendAuditSql(tx, documentId, { actionType: "created" }));
  return { documentId, recipientId };
}

/** The head as the signing-URL context reads it: without locks, in the statement that reads the document. */
async function head(documentId: string): Promise<AuditHead | null> {
  const [row] = await db.sql.query<{ lastSeq: number | null; lastHash: string | null }>(
    `SELECT head."lastSeq", head."lastHash" FROM signing_document d ${AUDIT_HEAD_JOIN} WHERE d.id = $1::uuid`,
    [documentId],
  );
  return row.lastSeq === null ? null : { seq: row.lastSeq, currentHash: row.lastHash! };
}

async function entries(documentId: string) {
  const rows = await db.sql.query<{
    id: string;
    documentId: string;
    seq: number;
    actionType: string;
    timestamp: Date;
    recipientId: string | null;
    userId: string | null;
    ip: string | null;
    userAgent: string | null;
    details: Record<string, unknown>;
    hashVersion: number;
    previousHash: string;
    currentHash: string;
  }>(`SELECT * FROM audit_entry WHERE "documentId" = $1::uuid ORDER BY seq`, [documentId]);
  return rows.map((r) => ({ ...r, timestamp: new Date(r.timestamp).toISOString() }));
}

async function grantsOf(recipientId: string): Promise<number> {
  const [{ grants }] = await db.sql.query<{ grants: number }>(`SELECT count(*)::int AS grants FROM signing_url_grant WHERE "recipientId" = $1::uuid`, [
    recipientId,
  ]);
  return grants;
}

const setReturnUrl = (recipientId: string, url: string, entryWritten: Prisma.Sql) =>
  Prisma.sql`UPDATE "signing_recipient" SET "returnUrl" = ${url} WHERE "id" = ${recipientId}::uuid AND ${entryWritten}`;
const addGrant = (recipientId: string, entryWritten: Prisma.Sql) =>
  Prisma.sql`INSERT INTO "signing_url_grant" ("id", "recipientId", "tokenHash", "mode", "expiresAt")
             SELECT ${crypto.randomUUID()}::uuid, ${recipientId}::uuid, ${crypto.randomBytes(16).toString("hex")}, 'override', now() + interval '5 minutes'
             WHERE ${entryWritten}`;

/** A single-use signing URL's entry, with its grant beside it, through `runner`. */
const grantIssued = (runner: SqlRunner, documentId: string, from: AuditHead | null, recipientId: string, details?: Record<string, unknown>) =>
  appendAuditAfter(runner, documentId, from, { actionType: "signing_url_issued", recipientId, details }, (written) => [addGrant(recipientId, written)]);

/** What a signing URL appends: its entry, with the return URL and a grant beside it. */
const issue = (documentId: string, from: AuditHead | null, recipientId: string, returnUrl: string) =>
  appendAuditAfter(db.sql, documentId, from, { actionType: "signing_url_issued", recipientId }, (written) => [
    setReturnUrl(recipientId, returnUrl, written),
    addGrant(recipientId, written),
  ]);

/** The database's runner, counting the statements sent through it. */
function counting(): { runner: SqlRunner; statements: () => number } {
  let statements = 0;
  const runner: SqlRunner = Object.create(db.sql, {
    query: {
      value: (text: string, values?: unknown[], options?: SqlQueryOptions) => {
        statements++;
        return db.sql.query(text, values, options);
      },
    },
  });
  return { runner, statements: () => statements };
}

/** A document whose head was read before a "viewed" entry came in: the head read is stale. */
async function headReadBeforeAViewing(): Promise<{ documentId: string; recipientId: string; stale: AuditHead | null }> {
  const { documentId, recipientId } = await documentWithRecipient();
  const stale = await head(documentId);
  await db.sql.transaction((tx) => appendAuditSql(tx, documentId, { actionType: "viewed", recipientId }));
  return { documentId, recipientId, stale };
}

/** The chain holds `actions` in order, whole, with `entry` appended last after the one before it; its entries. */
async function expectAppendedLast(documentId: string, entry: { id: string; previousHash: string }, actions: string[]) {
  const all = await entries(documentId);
  expect(all.map((e) => [e.seq, e.actionType])).toEqual(actions.map((action, i) => [i + 1, action]));
  expect(all.at(-1)!.id).toBe(entry.id);
  expect(entry.previousHash).toBe(all.at(-2)!.currentHash);
  expect(verifyAuditChain(all)).toBe(-1);
  return all;
}

describe("one-statement audit append", () => {
  it("chains from the head it was given and writes the change beside it", async () => {
    const { documentId, recipientId } = await documentWithRecipient();
    const before = await head(documentId);
    expect(before?.seq).toBe(1);
    const entry = await issue(documentId, before, recipientId, "https://a.example/back");
    const all = await expectAppendedLast(documentId, entry, ["created", "signing_url_issued"]);
    expect(all[1].previousHash).toBe(before!.currentHash);
    const [recipient] = await db.sql.query<{ returnUrl: string }>(`SELECT "returnUrl" FROM signing_recipient WHERE id = $1::uuid`, [recipientId]);
    expect(recipient.returnUrl).toBe("https://a.example/back");
    expect(await grantsOf(recipientId)).toBe(1);
  });

  it("appends after the newest entry when another came in after the head was read, writing the change once", async () => {
    const { documentId, recipientId } = await documentWithRecipient();
    const stale = await head(documentId);
    // Two appends after the read: the stale head's next seq (2) is taken.
    await db.sql.transaction((tx) => appendAuditSql(tx, documentId, { actionType: "viewed", recipientId }));
    await db.sql.transaction((tx) => appendAuditSql(tx, documentId, { actionType: "reminded", recipientId }));
    const entry = await issue(documentId, stale, recipientId, "https://b.example/back");
    await expectAppendedLast(documentId, entry, ["created", "viewed", "reminded", "signing_url_issued"]);
    expect(await grantsOf(recipientId)).toBe(1);
  });

  it("tries again from the newest entry its failed statement answered with: one statement more, not two", async () => {
    const { documentId, recipientId, stale } = await headReadBeforeAViewing();
    const { runner, statements } = counting();
    const entry = await grantIssued(runner, documentId, stale, recipientId);
    expect(statements()).toBe(2);
    await expectAppendedLast(documentId, entry, ["created", "viewed", "signing_url_issued"]);
    expect(await grantsOf(recipientId)).toBe(1);
  });

  it("keeps the chain whole under concurrent appends, one statement each: this process's appends take turns", async () => {
    const { documentId, recipientId } = await documentWithRecipient();
    const read = await head(documentId);
    const { runner, statements } = counting();
    // Every append starts from the same head: each chains from the entry the one before it wrote.
    const written = await Promise.all(Array.from({ length: 8 }, (_, i) => grantIssued(runner, documentId, read, recipientId, { i })));
    expect(statements()).toBe(8);
    const all = await entries(documentId);
    expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(all.slice(1).map((e) => e.id)).toEqual(written.map((e) => e.id));
    expect(verifyAuditChain(all)).toBe(-1);
    expect(await grantsOf(recipientId)).toBe(8);
  });

  it("chains from the head it read itself when the append queued before it failed", async () => {
    const { documentId, recipientId, stale } = await headReadBeforeAViewing();
    const fresh = await head(documentId);
    // The first append's statement fails (its connection dropped): the second, queued behind it, appends
    // after the newest entry from the head it read, in one statement.
    const failing: SqlRunner = Object.create(db.sql, { query: { value: () => Promise.reject(new Error("connection lost")) } });
    const first = appendAuditAfter(failing, documentId, stale, { actionType: "signing_url_issued", recipientId });
    const { runner, statements } = counting();
    const second = grantIssued(runner, documentId, fresh, recipientId);
    await expect(first).rejects.toThrow("connection lost");
    const entry = await second;
    expect(statements()).toBe(1);
    await expectAppendedLast(documentId, entry, ["created", "viewed", "signing_url_issued"]);
    expect(await grantsOf(recipientId)).toBe(1);
  });
});

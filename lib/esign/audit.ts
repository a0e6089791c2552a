// The audit trail of a signing document: append-only and hash-chained, so any edit or deletion
// of an entry breaks every hash after it (docs/contract.md "Signing documents": currentHash = SHA-256 of the previous
// hash and the entry's canonical JSON). Entries that record who acted (userId, from 2026-11-26 on) hash
// as version 2: the same fields plus userId and hashVersion; entries written before hash as they always did.
import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import { runStatement, type SqlRunner } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";

const { sql, join, raw } = Prisma;

export const GENESIS_HASH = "0".repeat(64);

export type AuditAction =
  | "created"
  | "fields_updated"
  | "sent"
  | "viewed"
  | "signed"
  | "completed"
  | "voided"
  | "declined"
  | "resent"
  | "reminded"
  | "signing_url_issued"
  | "passcode_sent"
  | "passcode_failed"
  | "identity_verified"
  | "signing_url_redeemed";

export interface AuditInput {
  actionType: AuditAction;
  recipientId?: string | null;
  /** The person or API key's user who acted (not a signer: they are recipientId). */
  userId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown>;
}

export interface AuditEntryJson {
  id: string;
  documentId: string;
  actionType: string;
  timestamp: string;
  previousHash: string;
  currentHash: string;
  details: Record<string, unknown>;
  recipientId: string | null;
  userId: string | null;
  ip: string | null;
  userAgent: string | null;
  /** 1 (or absent, in JSON saved before versions): the original hashed fields; 2: adds userId and hashVersion. */
  hashVersion: number;
}

/** The hash version new entries get. */
export const AUDIT_HASH_VERSION = 2;

/** JSON with object keys sorted at every level, so the same entry always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

type HashedEntry = Omit<AuditEntryJson, "currentHash" | "previousHash" | "userId" | "hashVersion"> & { userId?: string | null; hashVersion?: number };

/**
 * The part of an entry its hash covers: everything but the hashes themselves. Version 1 (entries written
 * before who-acted was recorded) must keep hashing exactly as it did, so its fields never change here.
 */
function hashedPart(e: HashedEntry) {
  const v1 = {
    id: e.id,
    documentId: e.documentId,
    actionType: e.actionType,
    timestamp: e.timestamp,
    recipientId: e.recipientId,
    ip: e.ip,
    userAgent: e.userAgent,
    details: e.details,
  };
  return (e.hashVersion ?? 1) >= 2 ? { ...v1, userId: e.userId ?? null, hashVersion: e.hashVersion } : v1;
}

export function chainHash(previousHash: string, entry: HashedEntry): string {
  return crypto
    .createHash("sha256")
    .update(previousHash)
    .update(canonicalJson(hashedPart(entry)))
    .digest("hex");
}

/** Index of the first entry whose hash does not follow from its predecessor, or -1 when intact. */
export function verifyAuditChain(entries: (HashedEntry & { previousHash: string; currentHash: string })[]): number {
  let previous = GENESIS_HASH;
  for (const [i, e] of entries.entries()) {
    if (e.previousHash !== previous || chainHash(previous, e) !== e.currentHash) return i;
    previous = e.currentHash;
  }
  return -1;
}

/**
 * The two locks an append takes, in one statement and in this order. First the document's row: state
 * changes lock that row (FOR UPDATE) before appending, and an append that took the advisory lock first
 * and then, inserting its entry, needed the row's key share would deadlock with them (a signer's first
 * view against a void or a decline). Then the advisory lock that serialises appends per document (two
 * writers would otherwise chain from the same predecessor). The order holds because a subquery with a
 * locking clause is never flattened: its rows are locked before the outer SELECT calls the function.
 * A statement's snapshot is taken before it waits on them, so the newest entry is read after them in a
 * statement of its own (appendAuditSql), which sees whatever the locks waited for.
 */
const lockStatement = (documentId: string) => sql`SELECT pg_advisory_xact_lock(hashtext('audit:' || d.id::text))
  FROM (SELECT id FROM signing_document WHERE id = ${documentId}::uuid FOR NO KEY UPDATE) d`;
/** The same locks as a statement of their own, taking the document's id as $1. */
const LOCK_SQL = lockStatement("").text;

/** A document's newest entry: what the next one chains from. */
export type AuditHead = { seq: number; currentHash: string };

const headStatement = (documentId: string) =>
  sql`SELECT "seq", "currentHash" FROM "audit_entry" WHERE "documentId" = ${documentId}::uuid ORDER BY "seq" DESC LIMIT 1`;
/** The same read as a statement of its own, taking the document's id as $1. */
const HEAD_SQL = headStatement("").text;

/** The entry that follows `last` (the document's newest entry, or none), with its place and hashes. */
function nextEntry(documentId: string, input: AuditInput, at: Date, last: AuditHead | null) {
  const entry = {
    id: crypto.randomUUID(),
    documentId,
    actionType: input.actionType,
    timestamp: at.toISOString(),
    recipientId: input.recipientId ?? null,
    userId: input.userId ?? null,
    ip: input.ip ?? null,
    userAgent: input.userAgent ?? null,
    details: input.details ?? {},
    hashVersion: AUDIT_HASH_VERSION,
  };
  const previousHash = last?.currentHash ?? GENESIS_HASH;
  return { seq: (last?.seq ?? 0) + 1, json: { ...entry, previousHash, currentHash: chainHash(previousHash, entry) } };
}

/**
 * Takes an append's locks ahead of it, for a transaction that writes a signer's rows before it
 * appends: a signature locks the document and then writes its recipient, so writing the recipient
 * first and the document second would deadlock with it. The append itself takes them again (a no-op).
 */
export async function lockForAppend(tx: Prisma.TransactionClient, documentId: string): Promise<void> {
  await tx.$executeRawUnsafe(LOCK_SQL, documentId);
}

/** Appends one entry. Call inside the transaction that makes the change it records. */
export async function appendAudit(tx: Prisma.TransactionClient, documentId: string, input: AuditInput, at = new Date()): Promise<AuditEntryJson> {
  await lockForAppend(tx, documentId);
  const last = await tx.auditEntry.findFirst({ where: { documentId }, orderBy: { seq: "desc" }, select: { seq: true, currentHash: true } });
  const { seq, json } = nextEntry(documentId, input, at, last);
  await tx.auditEntry.create({ data: { ...json, seq, timestamp: at, details: json.details as Prisma.InputJsonValue } });
  return json;
}

/**
 * appendAudit on the driver (lib/db/sql.ts), for hot paths that write without Prisma; same locks, same
 * chain. `alongside`: the change the entry records, as data-modifying statements that run in the
 * entry's INSERT (as WITH clauses), after the locks: a change and its entry cost one round trip.
 */
export async function appendAuditSql(
  tx: SqlRunner,
  documentId: string,
  input: AuditInput,
  opts: { at?: Date; alongside?: Prisma.Sql[] } = {},
): Promise<AuditEntryJson> {
  const at = opts.at ?? new Date();
  await tx.query(LOCK_SQL, [documentId]);
  const [last] = await tx.query<AuditHead>(HEAD_SQL, [documentId]);
  const { seq, json } = nextEntry(documentId, input, at, last ?? null);
  await runStatement(tx, withClauses(opts.alongside ?? [], sql`${ENTRY_INSERT} VALUES (${entryValues(json, seq, at)})`));
  return json;
}

/** The newest entry of the document `d` in a read that joins it (as `lastSeq`, `lastHash`), for appendAuditAfter. */
export const AUDIT_HEAD_JOIN = `LEFT JOIN LATERAL (SELECT a."seq" AS "lastSeq", a."currentHash" AS "lastHash" FROM "audit_entry" a
                   WHERE a."documentId" = d."id" ORDER BY a."seq" DESC LIMIT 1) head ON true`;

/**
 * appendAuditSql in one statement and no transaction, for a hot path whose earlier read also took the
 * document's newest entry (`head`, read without locks; AUDIT_HEAD_JOIN): the statement takes the same
 * two locks, writes the entry chained from `head` and then the changes. It is a compare-and-set on the
 * chain: when another entry came in after the read, the entry's (documentId, seq) is taken and nothing is
 * written (`changes` get a condition that says whether the entry was) and the statement answers with the
 * newest entry instead; the append tries again from there, and after CHAIN_ATTEMPTS runs the locking way,
 * in a transaction. Four round trips fewer than that way (BEGIN, lock, read, COMMIT) when nobody raced.
 * Calls in one process for one document take turns (appendsInFlight), each chained from the entry the
 * one before it wrote. Nothing fails on a race: a failed statement would cost the pool its connection
 * (pg-pool drops a client whose query failed).
 */
export async function appendAuditAfter(
  runner: SqlRunner,
  documentId: string,
  head: AuditHead | null,
  input: AuditInput,
  changes: (entryWritten: Prisma.Sql) => Prisma.Sql[] = () => [],
): Promise<AuditEntryJson> {
  const before = appendsInFlight.get(documentId);
  const appended = (async () => chainAfter(runner, documentId, newer(head, before ? await before : null), input, changes))();
  const tail = appended.then(
    ({ written }) => written,
    () => null,
  );
  appendsInFlight.set(documentId, tail);
  try {
    return (await appended).json;
  } finally {
    if (appendsInFlight.get(documentId) === tail) appendsInFlight.delete(documentId);
  }
}

/**
 * This process's appendAuditAfter calls in flight, per document: the newest entry each will have
 * written (null when it failed or wrote the locking way). A later call waits for the one before it and
 * chains from that entry, instead of racing it in the database, where it would wait on the locks, have
 * its insert refused, and read the head again: two signers' URLs for one document asked at once is an
 * integrator's everyday case. Other instances and other writers still meet at the compare-and-set.
 */
const appendsInFlight = new Map<string, Promise<AuditHead | null>>();

const newer = (a: AuditHead | null, b: AuditHead | null) => (!a || (b && b.seq > a.seq) ? b : a);

async function chainAfter(
  runner: SqlRunner,
  documentId: string,
  head: AuditHead | null,
  input: AuditInput,
  changes: (entryWritten: Prisma.Sql) => Prisma.Sql[],
): Promise<{ json: AuditEntryJson; written: AuditHead | null }> {
  let newest = head;
  for (let attempt = 0; attempt < CHAIN_ATTEMPTS; attempt++) {
    const at = new Date();
    const { seq, json } = nextEntry(documentId, input, at, newest);
    // Each change reads the entry's clause, which reads the lock's: the locks come first, then the entry,
    // then the changes. The reply is the entry's id or, when its seq was taken, the newest entry.
    const [reply] = await runStatement<{ id: string | null; seq: number | null; currentHash: string | null }>(
      runner,
      withClauses(
        changes(sql`EXISTS (SELECT 1 FROM "audit_written")`),
        sql`SELECT "id", NULL::int AS "seq", NULL::text AS "currentHash" FROM "audit_written"
            UNION ALL SELECT NULL::uuid, h."seq", h."currentHash" FROM (${headStatement(documentId)}) h WHERE NOT EXISTS (SELECT 1 FROM "audit_written")`,
        {
          audit_lock: lockStatement(documentId),
          audit_written: sql`${ENTRY_INSERT} SELECT ${entryValues(json, seq, at)} FROM "audit_lock" ON CONFLICT ("documentId", "seq") DO NOTHING RETURNING "id"`,
        },
      ),
    );
    if (reply?.id) return { json, written: { seq, currentHash: json.currentHash } };
    // Another writer appended since the read (two signers of one document at once): chain from its entry,
    // as the statement saw it, which saves a round trip. A statement that waited on the locks for that
    // writer took its snapshot before the writer committed and sees nothing newer: a read of its own then.
    const seen = reply?.seq != null && reply.seq > (newest?.seq ?? 0) ? { seq: reply.seq, currentHash: reply.currentHash! } : null;
    [newest = null] = seen ? [seen] : await runner.query<AuditHead>(HEAD_SQL, [documentId]);
    if (!newest) break; // the document is gone
  }
  // Still racing, or no document: the locking way decides, as it always did.
  const json = await runner.transaction((tx) => appendAuditSql(tx, documentId, input, { alongside: changes(sql`TRUE`) }));
  return { json, written: null };
}

/** How many times appendAuditAfter chains from a newer entry before it takes the locks first. */
const CHAIN_ATTEMPTS = 3;

/** `main` after the `named` clauses and the changes, as data-modifying WITH clauses (change0, change1, …). */
function withClauses(changes: Prisma.Sql[], main: Prisma.Sql, named: Record<string, Prisma.Sql> = {}): Prisma.Sql {
  const clauses = [
    ...Object.entries(named).map(([name, query]) => sql`${raw(`"${name}"`)} AS (${query})`),
    ...changes.map((write, i) => sql`${raw(`change${i}`)} AS (${write})`),
  ];
  return clauses.length ? sql`WITH ${join(clauses, ", ")} ${main}` : main;
}

const ENTRY_INSERT = sql`INSERT INTO "audit_entry" ("id", "documentId", "seq", "actionType", "timestamp", "recipientId", "userId", "ip", "userAgent", "details", "hashVersion", "previousHash", "currentHash")`;

function entryValues(json: AuditEntryJson, seq: number, at: Date): Prisma.Sql {
  return sql`${json.id}::uuid, ${json.documentId}::uuid, ${seq}, ${json.actionType}, ${at}, ${json.recipientId}::uuid, ${json.userId}::uuid, ${json.ip}, ${json.userAgent},
            ${JSON.stringify(json.details)}::jsonb, ${json.hashVersion}, ${json.previousHash}, ${json.currentHash}`;
}

/** Who an entry names, for the audit-trail reply: the acting person or key's user, and the recipient. */
export interface AuditParty {
  name: string;
  email: string;
}

export type AuditTrailEntry = AuditEntryJson & { createdOn: string; user: AuditParty | null; recipient: AuditParty | null };

/** The document's entries, oldest first, with createdOn (= timestamp) and the people they name. */
export async function auditTrail(db: Db, documentId: string): Promise<AuditTrailEntry[]> {
  const rows = await db.auditEntry.findMany({ where: { documentId }, orderBy: { seq: "asc" } });
  const userIds = [...new Set(rows.map((r) => r.userId).filter((id): id is string => !!id))];
  const [users, recipients] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } }) : [],
    db.signingRecipient.findMany({ where: { documentId }, select: { id: true, name: true, email: true } }),
  ]);
  const party = (list: { id: string; name: string; email: string }[], id: string | null): AuditParty | null => {
    const found = id ? list.find((p) => p.id === id) : undefined;
    return found ? { name: found.name, email: found.email } : null;
  };
  return rows.map((r) => ({
    id: r.id,
    documentId: r.documentId,
    actionType: r.actionType,
    timestamp: r.timestamp.toISOString(),
    createdOn: r.timestamp.toISOString(),
    previousHash: r.previousHash,
    currentHash: r.currentHash,
    details: r.details as Record<string, unknown>,
    recipientId: r.recipientId,
    userId: r.userId,
    ip: r.ip,
    userAgent: r.userAgent,
    hashVersion: r.hashVersion,
    user: party(users, r.userId),
    recipient: party(recipients, r.recipientId),
  }));
}

// The bulk send worker (docs/adr/0011-bulk-send-worker.md): every instance polls for rows to send and
// claims one at a time under a lease (queued, or sending with its lease run out -> sending, a
// compare-and-set on the row's claim count). A claimed row makes its document under the id chosen
// when the row was recorded, so a row taken up again after a crash finds that document and finishes
// it (sends the draft, emails the signers not yet emailed) instead of making a second one. A row
// refused by a check records its error and leaves nothing; an internal error or a crash leaves the
// claim to run out, and after MAX_ATTEMPTS claims the row fails. Whoever finishes a batch's last row
// marks the batch done; each pass also finishes batches whose last row ended just before a crash.
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { deleteDraft } from "@/lib/esign/delete-draft";
import { emailReadySigners, prepareDocument, sendDocument } from "@/lib/esign/documents";
import type { RecipientInput } from "@/lib/esign/schemas";
import type { EsignDeps } from "@/lib/esign/types";
import { QuireError } from "@/lib/errors";
import type { BulkSendRow } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { kickPoller, startPoller, stopPoller } from "@/lib/server/poller";
import { crashPoint } from "@/lib/server/test-faults";

/** Claims of one row before it fails: a row that stops its worker every time must not block the queue. */
export const MAX_ROW_ATTEMPTS = 3;
const OPEN = ["queued", "sending"];
const QUEUE = "bulk sends";

/** A row waiting for a worker: never claimed, or claimed by one whose lease has run out. */
const claimable = (at: Date) => ({ OR: [{ status: "queued" }, { status: "sending", leaseUntil: { lt: at } }] });

/** The next row for this worker, claimed; null when none is waiting. */
async function claimNext(db: Db, leaseMs: number): Promise<BulkSendRow | null> {
  for (;;) {
    const at = new Date();
    const candidates = await db.bulkSendRow.findMany({ where: claimable(at), orderBy: [{ updatedOn: "asc" }, { rowNumber: "asc" }], take: 5 });
    if (candidates.length === 0) return null;
    for (const c of candidates) {
      // The claim count is the row's version: of concurrent claims exactly one still finds it.
      const { count } = await db.bulkSendRow.updateMany({
        where: { id: c.id, attempts: c.attempts, ...claimable(at) },
        data: { status: "sending", leaseUntil: new Date(at.getTime() + leaseMs), attempts: { increment: 1 } },
      });
      if (count === 1) return { ...c, status: "sending", attempts: c.attempts + 1 };
    }
  }
}

/** The batch is done once no row is open; run after each row's commit, so the last one to commit sees it. */
async function finishBatch(db: Db, bulkSendId: string): Promise<void> {
  const open = await db.bulkSendRow.count({ where: { bulkSendId, status: { in: OPEN } } });
  if (open === 0) await db.bulkSend.updateMany({ where: { id: bulkSendId, status: "sending" }, data: { status: "done", finishedAt: new Date() } });
}

async function endRow(db: Db, row: BulkSendRow, outcome: { status: "sent" } | { status: "failed"; error: string }): Promise<void> {
  await db.bulkSendRow.updateMany({
    where: { id: row.id, status: "sending" },
    data: { status: outcome.status, error: outcome.status === "failed" ? `Row ${row.rowNumber}: ${outcome.error}` : null, leaseUntil: null },
  });
  await finishBatch(db, row.bulkSendId);
}

/** Makes and sends the row's document, or finishes the one an earlier claim of this row started. */
async function sendRowDocument(deps: EsignDeps, row: BulkSendRow, documentId: string): Promise<void> {
  const batch = await deps.db.bulkSend.findUniqueOrThrow({ where: { id: row.bulkSendId } });
  const actor = { orgId: batch.orgId, userId: batch.createdBy };
  const meta = { ip: batch.ip, userAgent: batch.userAgent };
  let doc = await deps.db.signingDocument.findUnique({ where: { id: documentId }, select: { status: true } });
  if (!doc) {
    try {
      const input = { layoutId: batch.layoutId, recipients: row.recipients as RecipientInput[], sendEmail: batch.sendEmail };
      await prepareDocument(deps, actor, input, undefined, "sign", meta, documentId);
      return;
    } catch (err) {
      // Made meanwhile by a worker whose lease ran out while it was still working: finish it below.
      if (!isUniqueViolation(err)) throw err;
      doc = await deps.db.signingDocument.findUniqueOrThrow({ where: { id: documentId }, select: { status: true } });
    }
  }
  if (doc.status === "draft") {
    try {
      await sendDocument(deps, actor, documentId, meta);
      return;
    } catch (err) {
      if (!(err instanceof QuireError && err.code === "DocumentAlreadySent")) throw err;
    }
  }
  // Sent before the crash: the signing emails may not all have gone out.
  await emailReadySigners(deps, documentId, { unmailed: true });
}

/** A row refused by a check leaves nothing behind: its draft, if one was made, is deleted. */
async function failRow(deps: EsignDeps, row: BulkSendRow, documentId: string, reason: string): Promise<void> {
  const doc = await deps.db.signingDocument.findUnique({ where: { id: documentId }, select: { status: true, orgId: true } });
  // Once sent, the document has gone to its signers: the row is sent, whatever failed after.
  if (doc && doc.status !== "draft") return endRow(deps.db, row, { status: "sent" });
  if (doc) await deleteDraft(deps, doc.orgId, documentId).catch(() => {});
  await endRow(deps.db, row, { status: "failed", error: reason });
}

async function processRow(deps: EsignDeps, row: BulkSendRow): Promise<void> {
  // Recorded with every valid row (and by the migration for rows recorded before the worker).
  const documentId = row.documentId!;
  if (row.attempts > MAX_ROW_ATTEMPTS) {
    log.error({ bulkSendId: row.bulkSendId, row: row.rowNumber }, "a bulk send row stopped its worker too often; it fails");
    return failRow(deps, row, documentId, "an internal error; try again");
  }
  try {
    await sendRowDocument(deps, row, documentId);
  } catch (err) {
    if (err instanceof QuireError) return failRow(deps, row, documentId, err.message);
    // Perhaps passing (the database, the storage): the claim runs out and the row is tried again.
    log.error({ bulkSendId: row.bulkSendId, row: row.rowNumber, attempt: row.attempts, err: (err as Error).message }, "a bulk send row failed");
    return;
  }
  // Tests: a crash after the document went out and before the row says so (mid-batch, from row 11).
  if (row.rowNumber > 10) crashPoint("bulk-row-sent");
  await endRow(deps.db, row, { status: "sent" });
}

/** Sends claimable rows until none is left, `stopping` turns true or `budgetMs` is spent; returns how many it handled. */
export async function runBulkSendPass(deps: EsignDeps, opts: { leaseMs?: number; stopping?: () => boolean; budgetMs?: number } = {}): Promise<number> {
  const { leaseMs = getConfig().bulkSend.leaseMs, stopping = () => false, budgetMs = Number.POSITIVE_INFINITY } = opts;
  const started = Date.now();
  // Batches whose last row ended just before a crash (its worker never got to finishBatch).
  const unfinished = await deps.db.bulkSend.findMany({ where: { status: "sending", rows: { none: { status: { in: OPEN } } } }, select: { id: true } });
  for (const b of unfinished) await finishBatch(deps.db, b.id);
  let handled = 0;
  while (!stopping() && Date.now() - started < budgetMs) {
    const row = await claimNext(deps.db, leaseMs);
    if (!row) break;
    await processRow(deps, row);
    handled++;
  }
  return handled;
}

/** Rows were recorded: this process's worker starts on them now. */
export function kickBulkSendWorker(): void {
  kickPoller(QUEUE);
}

/** Every instance polls: the claims split the rows. Idle, another instance's batch waits at most 10 s. */
export function startBulkSendWorker(getDeps: () => Promise<EsignDeps>): void {
  startPoller({ name: QUEUE, pass: async (stopping) => runBulkSendPass(await getDeps(), { stopping }), busyMs: 100, idleMs: 10_000 });
}

/** Shutdown: the row in hand is finished, no other is taken. */
export async function stopBulkSendWorker(): Promise<void> {
  await stopPoller(QUEUE);
}

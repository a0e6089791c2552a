// Completion of a fully signed document, durable and exactly once (docs/contract.md "Signing documents").
// The last signature's transaction creates a CompletionJob; this module runs it: seal the PDF, then in
// one transaction compare-and-set the document to `completed` with its `completed` audit entry, the
// signature.document.completed event and the emails to every party; then send the emails.
//
// Every instance runs a worker that claims due jobs under a lease (the webhook queue's discipline);
// the job is created held by the last signer's own request, which runs it right after its commit, so
// the happy path neither waits for a poll nor races another instance's worker for it (that worker's
// claim made the signer's reply say "sent" while the other instance sealed). A
// crash anywhere leaves either no completion (the job is retried when its lease runs out) or the whole
// completion (the job finds the document completed and only sends what is still unsent). A seal that
// keeps failing ends the job as `failed` with signature.document.finalization_failed, once; the
// dashboard's retry puts it back.
import { displayIp } from "@/lib/net/ip-display";
import crypto from "node:crypto";
import { appendAudit } from "@/lib/esign/audit";
import { requireDocument } from "@/lib/esign/documents";
import { recordSigningEvent } from "@/lib/esign/events";
import { FIELD_READING_ORDER } from "@/lib/esign/field-order";
import type { SigningDeps } from "@/lib/esign/signing";
import { ConflictError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { languageOr } from "@/lib/i18n";
import { log } from "@/lib/log";
import { loadBranding, mailBrand, orgLogo } from "@/lib/orgs/branding";
import { crashPoint, injectedSealFailure } from "@/lib/server/test-faults";
import { startPoller, stopPoller } from "@/lib/server/poller";
import { ccParties, onePerAddress, senderParty } from "@/lib/esign/mail-parties";
import { documentMail } from "@/lib/esign/document-mail";

type Tx = Prisma.TransactionClient;

/** Attempts before a job is marked failed (and the event sent). */
export const MAX_COMPLETION_ATTEMPTS = 5;
/** Waits after the 1st, 2nd, … failed attempt. */
const BACKOFF_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000];
/** The job's attempt the last signer's request runs (enqueueCompletion leases it with the job). */
const FIRST_ATTEMPT = 1;
/** A claim holds this long: sealing with a time-stamping service takes seconds; a dead holder's claim runs out. */
const LEASE_MS = 5 * 60_000;
const COMPLETED_MAIL = "signing_completed";

export interface CompletionDeps extends SigningDeps {
  /** Multiplies lease and back-off (COMPLETION_RETRY_SCALE). */
  retryScale: number;
}

/**
 * Called inside the last signature's transaction: the completion exists exactly when the signature does,
 * as its first attempt, leased to the caller, which runs it with runEnqueuedCompletion() once committed.
 * If the process dies first, the lease runs out and any instance's worker takes the job.
 */
export async function enqueueCompletion(tx: Tx, deps: Pick<CompletionDeps, "retryScale">, documentId: string): Promise<void> {
  await tx.completionJob.create({ data: { documentId, attempts: FIRST_ATTEMPT, leaseUntil: leaseFrom(new Date(), deps) } });
}

function leaseFrom(now: Date, deps: Pick<CompletionDeps, "retryScale">): Date {
  return new Date(now.getTime() + LEASE_MS * deps.retryScale);
}

/**
 * Takes the job if it is due and nobody holds it (compare-and-set: of concurrent claims one wins);
 * returns the attempt's number, or null when it is not ours to run.
 */
async function claim(deps: CompletionDeps, documentId: string): Promise<number | null> {
  const now = new Date();
  const { count } = await deps.db.completionJob.updateMany({
    where: { documentId, status: "pending", nextAttemptAt: { lte: now }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { leaseUntil: leaseFrom(now, deps), attempts: { increment: 1 } },
  });
  if (count === 0) return null;
  return (await deps.db.completionJob.findUniqueOrThrow({ where: { documentId }, select: { attempts: true } })).attempts;
}

/** Runs the document's job now if it is due and free; returns whether this call ran it. */
export async function runCompletion(deps: CompletionDeps, documentId: string): Promise<boolean> {
  const attempt = await claim(deps, documentId);
  if (attempt === null) return false;
  await attemptCompletion(deps, documentId, attempt);
  return true;
}

/** Runs the job enqueueCompletion() leased to the caller: its first attempt. */
export async function runEnqueuedCompletion(deps: CompletionDeps, documentId: string): Promise<void> {
  await attemptCompletion(deps, documentId, FIRST_ATTEMPT);
}

/** One attempt of a job this caller holds: done, or its failure recorded for a retry. */
async function attemptCompletion(deps: CompletionDeps, documentId: string, attempt: number): Promise<void> {
  try {
    await finalize(deps, documentId, attempt);
    await deps.db.completionJob.updateMany({ where: { documentId, status: "pending" }, data: { status: "done", leaseUntil: null, lastError: null } });
  } catch (err) {
    await recordFailure(deps, documentId, err);
  }
}

async function recordFailure(deps: CompletionDeps, documentId: string, err: unknown): Promise<void> {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
  log.error({ documentId, err: message }, "completing a signed document failed");
  const job = await deps.db.completionJob.findUnique({ where: { documentId }, include: { document: { select: { orgId: true, name: true } } } });
  if (!job) return;
  if (job.attempts < MAX_COMPLETION_ATTEMPTS) {
    const wait = BACKOFF_MS[Math.min(job.attempts - 1, BACKOFF_MS.length - 1)] * deps.retryScale;
    await deps.db.completionJob.updateMany({
      where: { documentId, status: "pending" },
      data: { leaseUntil: null, lastError: message, nextAttemptAt: new Date(Date.now() + wait) },
    });
    return;
  }
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.completionJob.updateMany({
      where: { documentId, status: "pending" },
      data: { status: "failed", leaseUntil: null, lastError: message },
    });
    // Only the attempt that moved the job to failed announces it.
    if (count === 1) {
      await recordSigningEvent(tx, { id: documentId, orgId: job.document.orgId, name: job.document.name }, "signature.document.finalization_failed", {
        attempts: job.attempts,
        error: message,
      });
    }
  });
}

/** Seals and records the completion (unless done already), then sends what is still unsent. */
async function finalize(deps: CompletionDeps, documentId: string, attempt: number): Promise<void> {
  const doc = await deps.db.signingDocument.findUniqueOrThrow({
    where: { id: documentId },
    include: { recipients: { orderBy: { signingOrder: "asc" } }, fields: { orderBy: FIELD_READING_ORDER } },
  });
  if (doc.status === "sent") await seal(deps, doc, attempt);
  const done = await deps.db.signingDocument.findUniqueOrThrow({ where: { id: documentId } });
  if (done.status !== "completed" || !done.signedPdfKey) return;
  const unsent = await deps.db.outboxMessage.findMany({ where: { documentId, kind: COMPLETED_MAIL, sentAt: null, error: null }, select: { id: true } });
  if (unsent.length) {
    const pdf = await deps.storage.get(done.signedPdfKey);
    await deps.mail.deliverQueued(
      unsent.map((m) => m.id),
      [{ filename: `${done.name} (signed).pdf`, content: pdf, contentType: "application/pdf" }],
    );
  }
}

type LoadedDocument = Prisma.SigningDocumentGetPayload<{ include: { recipients: true; fields: true } }>;

/** Where attempt n stores its sealed PDF: one key per attempt, so attempts never overwrite each other. */
const sealedKey = (doc: { orgId: string; id: string }, attempt: number) => `signing/${doc.orgId}/${doc.id}/signed-${attempt}.pdf`;

async function seal(deps: CompletionDeps, doc: LoadedDocument, attempt: number): Promise<void> {
  const completedAt = new Date();
  injectedSealFailure();
  // Each signer's first signing request; a document sent without emails counts from when it was sent.
  const requests = await deps.db.outboxMessage.findMany({
    where: { documentId: doc.id, kind: "signing_request" },
    select: { to: true, createdOn: true },
    orderBy: { createdOn: "asc" },
  });
  const firstRequest = (email: string) => requests.find((m) => m.to.toLowerCase() === email.toLowerCase())?.createdOn ?? doc.sentAt;
  const branding = await loadBranding(deps.db, doc.orgId);
  const sealed = await deps.seal({
    original: await deps.storage.get(doc.originalPdfKey),
    fields: doc.fields
      .filter((f) => f.value !== null && f.value !== "")
      .map((f) => ({ page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, type: f.type, value: f.value! })),
    hide: doc.fields.flatMap((f) => (f.anchorRect ? [{ page: f.page, ...(f.anchorRect as { x: number; y: number; width: number; height: number }) }] : [])),
    certificate: {
      documentName: doc.name,
      documentId: doc.id,
      completedAt,
      sender: { name: branding.senderName, footer: branding.emailFooter, logo: branding.logoPath ? await orgLogo(deps.db, doc.orgId) : null },
      signers: doc.recipients.map((r) => ({
        name: r.name,
        email: r.email,
        sentAt: firstRequest(r.email),
        viewedAt: r.viewedAt,
        signedAt: r.signedAt!,
        ip: r.signedIp ? displayIp(r.signedIp) : "unknown",
        userAgent: r.signedUserAgent ?? "unknown",
        verification: r.verificationUsed ?? "none",
      })),
    },
  });
  crashPoint("during-seal");
  const signedKey = sealedKey(doc, attempt);
  await deps.storage.put(signedKey, sealed);
  crashPoint("after-seal");
  const documentHash = crypto.createHash("sha256").update(sealed).digest("hex");
  const brand = await mailBrand(deps.db, doc.orgId, deps.baseUrl);
  const won = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.signingDocument.updateMany({
      where: { id: doc.id, status: "sent" },
      data: { status: "completed", completedAt, signedPdfKey: signedKey },
    });
    if (count === 0) return false;
    await appendAudit(tx, doc.id, { actionType: "completed", details: { signedPdfSha256: documentHash } }, completedAt);
    await recordSigningEvent(tx, doc, "signature.document.completed", {
      completedAt: completedAt.toISOString(),
      documentHash,
      recipients: doc.recipients.map((r) => ({ id: r.id, email: r.email, name: r.name, signedAt: r.signedAt?.toISOString() })),
    });
    // Every party gets the completed copy (independent of sendEmail, per docs/contract.md "Signing documents"): recorded
    // here, with the completion, and sent after it commits.
    const parties = [...doc.recipients.map((r) => ({ name: r.name, email: r.email })), ...ccParties(doc), ...senderParty(doc)];
    for (const p of onePerAddress(parties)) {
      const mail = deps.emailsCompleted({ recipientName: p.name, documentName: doc.name, lang: languageOr(doc.language), brand });
      await deps.mail.queue(tx, documentMail(doc, COMPLETED_MAIL, p.email, mail));
    }
    return true;
  });
  // One sealed PDF remains: the winner's. A losing attempt removes its own file; the winner removes
  // what earlier attempts stored before they crashed or failed.
  const leftovers = won ? Array.from({ length: attempt - 1 }, (_, i) => sealedKey(doc, i + 1)) : [signedKey];
  await Promise.all(leftovers.map((key) => deps.storage.delete(key).catch(() => {})));
}

/** One worker pass: runs every due job this instance can claim; returns how many it ran. */
export async function runCompletionPass(deps: CompletionDeps, limit = 10): Promise<number> {
  const due = await deps.db.completionJob.findMany({
    where: { status: "pending", nextAttemptAt: { lte: new Date() }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date() } }] },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
    select: { documentId: true },
  });
  let ran = 0;
  for (const { documentId } of due) if (await runCompletion(deps, documentId)) ran++;
  return ran;
}

/** The dashboard's "Retry finalization": a failed job is queued again with fresh attempts, and run. */
export async function retryFinalization(deps: CompletionDeps, orgId: string, documentId: string): Promise<{ id: string; status: string }> {
  await requireDocument(deps.db, orgId, documentId);
  const { count } = await deps.db.completionJob.updateMany({
    where: { documentId, status: "failed" },
    data: { status: "pending", attempts: 0, nextAttemptAt: new Date(), leaseUntil: null },
  });
  if (count === 0) throw new ConflictError("This document's finalization has not failed: there is nothing to retry", "NothingToRetry");
  await runCompletion(deps, documentId);
  const doc = await deps.db.signingDocument.findUniqueOrThrow({ where: { id: documentId }, select: { status: true } });
  return { id: documentId, status: doc.status };
}

export async function finalizationOf(
  db: SigningDeps["db"],
  documentId: string,
): Promise<{ status: string; attempts: number; lastError: string | null } | null> {
  return db.completionJob.findUnique({ where: { documentId }, select: { status: true, attempts: true, lastError: true } });
}

/** Polls for due jobs while the server runs; every instance may run one (claims decide who works). Idle, it looks every 4 s. */
export function startCompletionWorker(getDeps: () => Promise<CompletionDeps>, intervalMs = 1_000): void {
  startPoller({ name: "document completions", pass: async () => runCompletionPass(await getDeps()), busyMs: intervalMs, idleMs: 4_000 });
}

/** Graceful shutdown: no new claims; the job under way finishes (its lease covers a crash instead). */
export async function stopCompletionWorker(): Promise<void> {
  await stopPoller("document completions");
}

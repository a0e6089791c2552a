// The signer's side: open a signing link, see the document and one's fields, sign. The last signature
// queues the document's completion in its own transaction (lib/esign/completion.ts: seal, record,
// event, emails, durable and exactly once) and runs it at once.
import { now } from "@/lib/clock";
import { appendAudit, lockForAppend } from "@/lib/esign/audit";
import { type CompletionDeps, enqueueCompletion, runEnqueuedCompletion } from "@/lib/esign/completion";
import { recordSigningEvent } from "@/lib/esign/events";
import type { EsignDeps } from "@/lib/esign/types";
import { emailReadySigners } from "@/lib/esign/documents";
import { recipientStatuses } from "@/lib/esign/recipients";
import { currentPdf } from "@/lib/esign/signer-copies";
import { accessOf, loadByToken, maskDestination, notSignable, requireSignable, requireVerified, SignerError } from "@/lib/esign/signer-access";
import { ValidationError } from "@/lib/errors";
import { type Language, languageOr } from "@/lib/i18n";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Attachment, OutgoingMail } from "@/lib/mail/mailer";
import type { MailBrand } from "@/lib/mail/templates";
import type { SealRequest } from "@/lib/pdf/seal";
import { loadBranding } from "@/lib/orgs/branding";
import { crashPoint, heldForTest, SIGNATURE_COMMITTED_HOLD } from "@/lib/server/test-faults";
import { fieldBox } from "@/lib/esign/signer-fields";

export interface SealInput {
  original: Buffer;
  fields: { page: number; x: number; y: number; width: number; height: number; type: string; value: string }[];
  /** Text anchors the fields consumed, removed from the output (docs/contract.md "Signing documents"). */
  hide: { page: number; x: number; y: number; width: number; height: number }[];
  certificate: {
    documentName: string;
    documentId: string;
    completedAt: Date;
    signers: { name: string; email: string; signedAt: Date; ip: string; userAgent: string; verification: string }[];
    sender?: SealRequest["certificate"]["sender"];
  };
}

export interface SigningDeps extends EsignDeps {
  seal: (input: SealInput) => Promise<Buffer>;
  emailsCompleted: (a: { recipientName: string; documentName: string; lang?: Language; brand?: MailBrand }) => { subject: string; html: string; text: string };
  emailsDeclined: (a: {
    recipientName: string;
    documentName: string;
    signerName: string;
    signerEmail: string;
    reason: string;
    lang?: Language;
    brand?: MailBrand;
  }) => {
    subject: string;
    html: string;
    text: string;
  };
  /** Mail recorded in a transaction and sent after it commits (completion emails, exactly once). */
  mail: {
    queue: (tx: Prisma.TransactionClient, mail: Omit<OutgoingMail, "attachments">) => Promise<string>;
    deliverQueued: (ids: string[], attachments?: Attachment[]) => Promise<void>;
  };
}

export { SignerError };

export type SignerState = "ready" | "verification_required" | "not_your_turn" | "already_signed" | "completed" | "voided" | "declined" | "expired" | "draft";

export async function openSigningSession(
  deps: EsignDeps,
  token: string,
  meta: { ip?: string | null; userAgent?: string | null },
  sessionToken?: string | null,
) {
  const loaded = await loadByToken(deps.db, token);
  const recipient = loaded.recipient;
  const doc = recipient.document;
  const statuses = recipientStatuses(doc.status, doc.recipients);
  const mine = statuses.find((r) => r.id === recipient.id)!;
  const expired = doc.expiresAt !== null && doc.expiresAt <= now();
  let state: SignerState = recipient.signedAt
    ? "already_signed"
    : doc.status === "voided" || doc.status === "declined"
      ? doc.status
      : doc.status === "completed"
        ? "completed"
        : doc.status === "draft"
          ? "draft"
          : expired
            ? "expired"
            : mine.status === "ready"
              ? "ready"
              : "not_your_turn";
  // Only a signable document is behind the checks; the other states reveal nothing of it.
  const access = await accessOf(deps, loaded, sessionToken);
  const document = {
    id: doc.id,
    name: doc.name,
    status: doc.status,
    pageCount: doc.pageCount,
    voidReason: doc.voidReason,
    declineReason: doc.declineReason,
    senderName: doc.senderName,
    language: languageOr(doc.language),
    /** The sender organization's branding (lib/orgs/branding.ts): what the signer sees anyway. */
    branding: await loadBranding(deps.db, doc.orgId),
  };
  if (state === "ready" && !access.verified) {
    state = "verification_required";
    const r = access.requirement;
    return {
      state,
      document,
      verification:
        r.kind === "otp" ? { kind: "otp" as const, channel: r.channel, destination: maskDestination(r.channel, recipient) } : { kind: "single_use" as const },
      pages: [],
      filled: [],
      recipient: { id: recipient.id, name: recipient.name, email: recipient.email, returnUrl: null },
      fields: [],
      access,
    };
  }
  if (state === "ready" && !recipient.viewedAt) {
    await deps.db.$transaction(async (tx) => {
      // First open only (compare-and-set): concurrent opens record one view and one event.
      await lockForAppend(tx, doc.id);
      const viewedAt = new Date();
      const { count } = await tx.signingRecipient.updateMany({ where: { id: recipient.id, viewedAt: null }, data: { viewedAt } });
      if (count === 0) return;
      await appendAudit(tx, doc.id, { actionType: "viewed", recipientId: recipient.id, ip: meta.ip, userAgent: meta.userAgent });
      await recordSigningEvent(tx, doc, "signature.document.viewed", { recipientId: recipient.id, email: recipient.email, viewedAt: viewedAt.toISOString() });
    });
  }
  const ready = state === "ready";
  const signerNames = new Map(doc.recipients.map((r) => [r.id, r.name]));
  return {
    state,
    document,
    verification: null,
    access,
    // Stamping leaves the page boxes as they were: the original's sizes are the page images' sizes.
    pages: ready ? await deps.pageSizes(await deps.storage.get(doc.originalPdfKey)) : [],
    /** Earlier signers' values, drawn on the page images; described here for the read-only overlay. */
    filled: ready
      ? doc.fields
          .filter((f) => f.recipientId !== recipient.id && f.value !== null && f.value !== "")
          .map((f) => ({
            ...fieldBox(f),
            signer: signerNames.get(f.recipientId) ?? "",
            value: f.value!.startsWith("data:image/") ? null : f.value!,
          }))
      : [],
    recipient: { id: recipient.id, name: recipient.name, email: recipient.email, returnUrl: recipient.returnUrl },
    fields: doc.fields
      .filter((f) => f.recipientId === recipient.id)
      .map((f) => ({
        ...fieldBox(f),
        required: f.required,
        defaultValue: f.defaultValue,
        isReadonly: f.isReadonly,
        isMultiline: f.isMultiline,
      })),
  };
}

export async function signerPdf(deps: EsignDeps, token: string, sessionToken?: string | null): Promise<Buffer> {
  const loaded = await loadByToken(deps.db, token);
  requireVerified(await accessOf(deps, loaded, sessionToken));
  return currentPdf(deps, loaded.recipient.document);
}

const DATA_URL_PNG = /^data:image\/png;base64,[A-Za-z0-9+/=]+$/;

function checkValue(type: string, value: string): string | null {
  if (type === "signature" || type === "initial") {
    if (DATA_URL_PNG.test(value)) return value.length > 2_000_000 ? "the drawn image is too large" : null;
    return value.trim().length >= 1 && value.length <= 200 ? null : "type your name or draw it";
  }
  if (type === "checkbox") return value === "true" || value === "false" ? null : "must be true or false";
  if (type === "email") return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? null : "must be an email address";
  return value.length <= 10_000 ? null : "is too long";
}

export async function submitSignature(
  deps: CompletionDeps,
  token: string,
  values: Record<string, string>,
  meta: { ip?: string | null; userAgent?: string | null },
  sessionToken?: string | null,
) {
  const session = await openSigningSession(deps, token, meta, sessionToken);
  if (session.state === "verification_required") requireVerified(session.access);
  if (session.state === "already_signed") throw new SignerError("conflict", "You have already signed this document", "AlreadySigned");
  if (session.state === "voided" || session.state === "declined" || session.state === "expired") throw notSignable(session.state, session.state === "expired");
  if (session.state === "not_your_turn") throw new SignerError("conflict", "It is not your turn yet: an earlier signer has not signed", "NotYourTurn");
  if (session.state !== "ready") throw new SignerError("conflict", "This document cannot be signed", "DocumentNotSignable");

  const issues = [];
  const accepted: { id: string; value: string }[] = [];
  for (const f of session.fields) {
    const given = values[f.id] ?? (f.isReadonly ? f.defaultValue : undefined) ?? undefined;
    const value = f.type === "date" && !given ? new Date().toISOString().slice(0, 10) : given;
    if (value === undefined || value === "" || (f.type === "checkbox" && value === "false" && f.required)) {
      if (f.required) issues.push({ field: f.id, message: `${f.type.replace("_", " ")} is required` });
      continue;
    }
    const problem = checkValue(f.type, value);
    if (problem) issues.push({ field: f.id, message: `${f.type}: ${problem}` });
    else accepted.push({ id: f.id, value });
  }
  const unknown = Object.keys(values).filter((k) => !session.fields.some((f) => f.id === k));
  for (const k of unknown) issues.push({ field: k, message: "not one of your fields" });
  if (issues.length) throw new ValidationError(`Please complete the form: ${issues.map((i) => i.message).join("; ")}`, issues, "FieldsInvalid");

  const documentId = session.document.id;
  const signedAt = new Date();
  const last = await deps.db.$transaction(async (tx) => {
    // Row lock: two signers finishing at once must not both think the other is still pending, and a
    // void that committed since the session was read wins (the state is read again under the lock).
    const [locked] = await tx.$queryRaw<
      { status: string; expiresAt: Date | null }[]
    >`SELECT status, "expiresAt" FROM signing_document WHERE id = ${documentId}::uuid FOR UPDATE`;
    requireSignable(locked);
    const fresh = await tx.signingRecipient.findUniqueOrThrow({ where: { id: session.recipient.id } });
    if (fresh.signedAt) throw new SignerError("conflict", "You have already signed this document", "AlreadySigned");
    for (const a of accepted) await tx.signingField.update({ where: { id: a.id }, data: { value: a.value } });
    await tx.signingRecipient.update({
      where: { id: fresh.id },
      data: { signedAt, signedIp: meta.ip ?? null, signedUserAgent: meta.userAgent ?? null, verificationUsed: session.access.via },
    });
    await appendAudit(
      tx,
      documentId,
      { actionType: "signed", recipientId: fresh.id, ip: meta.ip, userAgent: meta.userAgent, details: { fields: accepted.length } },
      signedAt,
    );
    const remainingSigners = await tx.signingRecipient.count({ where: { documentId, signedAt: null } });
    const last = remainingSigners === 0;
    const docRow = await tx.signingDocument.findUniqueOrThrow({ where: { id: documentId }, select: { id: true, orgId: true, name: true } });
    await recordSigningEvent(tx, docRow, "signature.document.recipient_signed", {
      recipientId: fresh.id,
      email: fresh.email,
      signedAt: signedAt.toISOString(),
      isFinalSigner: last,
      remainingSigners,
    });
    if (last) await enqueueCompletion(tx, deps, documentId);
    crashPoint("before-signature-commit");
    return last;
  });
  crashPoint("after-signature-commit");

  if (!last) {
    await emailReadySigners(deps, documentId);
    return { documentId, status: "sent", returnUrl: session.recipient.returnUrl };
  }
  // The completion is this request's to run now (enqueueCompletion leased it here); if it fails, the job retries it.
  await heldForTest(SIGNATURE_COMMITTED_HOLD);
  await runEnqueuedCompletion(deps, documentId);
  const { status } = await deps.db.signingDocument.findUniqueOrThrow({ where: { id: documentId }, select: { status: true } });
  return { documentId, status, returnUrl: session.recipient.returnUrl };
}

// Signing documents: prepare (for signing or for review), send, read, void, resend, download. The source
// becomes one PDF first (sources.ts), fields are placed on it (field-plan.ts), recipients checked
// (recipients.ts).
import crypto from "node:crypto";
import { now } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { appendAudit } from "@/lib/esign/audit";
import { recordSigningEvent } from "@/lib/esign/events";
import { DocumentNotFoundError, DocumentNotSignableError, DocumentNotVoidableError, invalid, RecipientNotFoundError } from "@/lib/esign/errors";
import { planFields } from "@/lib/esign/field-plan";
import { documentPreviewLink } from "@/lib/esign/file-links";
import { planLayoutFields } from "@/lib/esign/layouts";
import {
  checkExpiresAt,
  checkIdentities,
  checkRecipients,
  checkReturnUrl,
  needsSingleUseUrl,
  type RecipientRow,
  type RecipientStatus,
  recipientStatuses,
  recipientSummaries,
} from "@/lib/esign/recipients";
import type { PrepareInput } from "@/lib/esign/schemas";
import { expiryWarningDue, scheduleReminders } from "@/lib/esign/reminders";
import { resolveSource, sha256 } from "@/lib/esign/sources";
import { hashToken, signingLinkToken } from "@/lib/esign/tokens";
import type { Actor, EsignDeps, RequestMeta } from "@/lib/esign/types";
import type { DocumentStatus, Prisma } from "@/lib/generated/prisma/client";
import { languageOr } from "@/lib/i18n";
import { isUuid } from "@/lib/ids";
import { isUniqueViolation } from "@/lib/db/errors";
import { orgDefaultLanguage } from "@/lib/orgs/appearance";
import { mailBrand } from "@/lib/orgs/branding";
import type { UploadedFile } from "@/lib/uploads/file";
import { signingRequestMail } from "@/lib/esign/signing-request-mail";
import { documentMail } from "@/lib/esign/document-mail";

export interface PrepareReply {
  success: true;
  documentId: string;
  status: DocumentStatus;
  message: string;
  recipients: { id: string; name: string; email: string; externalId: string | null; signingOrder: number; status: RecipientStatus }[];
  previewUrl?: string;
}

export async function prepareDocument(
  deps: EsignDeps,
  actor: Actor,
  input: PrepareInput,
  file: UploadedFile | undefined,
  mode: "sign" | "review",
  meta: RequestMeta,
  /** The new document's id when the caller chose it (a bulk send row's idempotency key); else a fresh one. */
  documentId?: string,
): Promise<PrepareReply> {
  checkRecipients(input.recipients);
  checkReturnUrl(input.returnUrl);
  await checkIdentities(
    deps.db,
    actor.orgId,
    input.recipients.map((r) => ({ identityVerification: r.identityVerification, phone: r.phone ?? null })),
    input.automated ?? false,
  );
  checkExpiresAt(input.expiresAt);
  const reminderDays =
    input.reminderDays ??
    (await deps.db.organization.findUniqueOrThrow({ where: { id: actor.orgId }, select: { signingReminderDays: true } })).signingReminderDays;
  const resolved = await resolveSource(deps, actor, input, file);
  const sealable = await deps.inspectPdf(resolved.pdf);
  const source = { ...resolved, pdf: sealable.pdf };
  const pageCount = sealable.pages.length;
  // From a layout, a recipient signs in its role's place unless it says otherwise.
  const fromLayout = resolved.layout ? planLayoutFields(resolved.layout, input.recipients, input.fields) : null;
  const fields = fromLayout?.fields ?? (await planFields(deps, source.pdf, sealable.pages, input.recipients, input.fields ?? []));
  const sendEmail = input.sendEmail ?? true;
  const language = input.language ?? (await orgDefaultLanguage(deps.db, actor.orgId));

  const id = documentId ?? crypto.randomUUID();
  const pdfKey = `signing/${actor.orgId}/${id}/original.pdf`;
  await deps.storage.put(pdfKey, source.pdf);
  try {
    const recipientIds = input.recipients.map(() => crypto.randomUUID());
    await deps.db.$transaction(async (tx) => {
      await tx.signingDocument.create({
        data: {
          id,
          orgId: actor.orgId,
          name: input.documentName ?? source.name,
          description: input.documentDescription ?? "",
          sourceKind: source.kind,
          sourceRef: source.ref,
          originalPdfKey: pdfKey,
          originalHash: sha256(source.pdf),
          pageCount,
          senderName: input.senderName ?? null,
          senderEmail: input.senderEmail ?? null,
          ccEmails: input.ccEmails ?? [],
          sendEmail,
          language,
          automated: input.automated ?? false,
          expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
          emailSubject: input.emailSubject ?? null,
          emailMessage: input.emailMessage || null,
          reminderDays,
          createdBy: actor.userId,
          recipients: {
            create: input.recipients.map((r, i) => ({
              id: recipientIds[i],
              name: r.name,
              email: r.email,
              phone: r.phone ?? null,
              externalId: r.externalId ?? null,
              signingOrder: r.signingOrder ?? fromLayout?.signingOrder[i] ?? i + 1,
              identityVerification: (r.identityVerification ?? undefined) as Prisma.InputJsonValue | undefined,
              returnUrl: input.returnUrl ?? null,
              accessTokenHash: hashToken(signingLinkToken(deps.linkSecret, recipientIds[i])),
            })),
          },
        },
      });
      if (fields.length) {
        await tx.signingField.createMany({
          data: fields.map(({ recipientIndex, anchorRect, ...f }) => ({
            ...f,
            anchorRect: anchorRect ? { ...anchorRect } : undefined,
            documentId: id,
            recipientId: recipientIds[recipientIndex],
          })),
        });
      }
      await appendAudit(tx, id, {
        actionType: "created",
        userId: actor.userId,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: { source: source.kind, pageCount, recipients: input.recipients.length, fields: fields.length },
      });
    });
  } catch (err) {
    // A chosen id already taken: another worker made this document from the same file; keep it.
    if (!(documentId && isUniqueViolation(err))) await deps.storage.delete(pdfKey).catch(() => {});
    throw err;
  }
  if (mode === "sign") return sendDocument(deps, actor, id, meta);
  const reply = await replyFor(deps.db, id, "Document created for review; send it with POST /esign/documents/{id}/send.");
  return { ...reply, previewUrl: (await documentPreviewLink(deps, actor.orgId, id)).url };
}

async function replyFor(db: Db, id: string, message: string): Promise<PrepareReply> {
  const doc = await db.signingDocument.findUniqueOrThrow({
    where: { id },
    include: { recipients: { orderBy: [{ signingOrder: "asc" }, { createdOn: "asc" }] } },
  });
  return {
    success: true,
    documentId: doc.id,
    status: doc.status,
    message,
    recipients: recipientSummaries(doc.status, doc.recipients),
  };
}

async function loadDocument(db: Db, orgId: string, id: string) {
  const doc = isUuid(id)
    ? await db.signingDocument.findFirst({ where: { id, orgId }, include: { recipients: { orderBy: [{ signingOrder: "asc" }, { createdOn: "asc" }] } } })
    : null;
  if (!doc) throw new DocumentNotFoundError();
  return doc;
}

/**
 * Emails the signing link to every recipient whose turn it is (unless sendEmail is false). `unmailed`:
 * only to those not emailed for this document yet (finishing a send that stopped half-way).
 */
export async function emailReadySigners(
  deps: EsignDeps,
  documentId: string,
  opts: { force?: boolean; only?: string[]; unmailed?: boolean } = {},
): Promise<number> {
  const doc = await deps.db.signingDocument.findUniqueOrThrow({ where: { id: documentId }, include: { recipients: true } });
  if (!doc.sendEmail && !opts.force) return 0;
  let targets = opts.only
    ? doc.recipients.filter((r) => opts.only!.includes(r.id) && !r.signedAt && !needsSingleUseUrl(r.identityVerification))
    : recipientStatuses(doc.status, doc.recipients).filter((r) => r.status === "ready" && !needsSingleUseUrl(r.identityVerification));
  if (opts.unmailed) {
    const mailed = await deps.db.outboxMessage.findMany({ where: { documentId, kind: "signing_request" }, select: { to: true } });
    targets = targets.filter((r) => !mailed.some((m) => m.to === r.email));
  }
  const brand = await mailBrand(deps.db, doc.orgId, deps.baseUrl);
  for (const r of targets) {
    const mail = signingRequestMail(deps, doc, r, brand);
    // No cc here: the link signs as this recipient; cc parties get the completed copy instead.
    await deps.sendMail(documentMail(doc, "signing_request", r.email, mail));
  }
  // The automatic reminders count from the latest signing email (none when links are not emailed).
  if (doc.sendEmail)
    await scheduleReminders(
      deps.db,
      doc,
      targets.map((r) => r.id),
    );
  return targets.length;
}

export async function sendDocument(deps: EsignDeps, actor: Actor, id: string, meta: RequestMeta): Promise<PrepareReply> {
  const doc = await loadDocument(deps.db, actor.orgId, id);
  if (doc.status !== "draft") throw invalid(`The document is already ${doc.status}`, "DocumentAlreadySent", "documentId");
  // A draft prepared for review may sit until its expiresAt has passed.
  if (doc.expiresAt && doc.expiresAt.getTime() <= now().getTime())
    throw invalid("The document's expiresAt has passed; prepare it again with a later expiresAt", "ExpiresAtInPast", "expiresAt");
  // Settings may have changed since the draft was made.
  await checkIdentities(deps.db, actor.orgId, doc.recipients, doc.automated);
  await deps.db.$transaction(async (tx) => {
    // Compare-and-set: of concurrent sends exactly one moves the draft; the others find it sent.
    const { count } = await tx.signingDocument.updateMany({
      where: { id, status: "draft" },
      data: { status: "sent", sentAt: new Date(), expiryWarningAt: expiryWarningDue(doc) },
    });
    if (count === 0) {
      // A draft deleted meanwhile is gone, not sent.
      if (!(await tx.signingDocument.findUnique({ where: { id }, select: { id: true } }))) throw new DocumentNotFoundError();
      throw invalid("The document is already sent", "DocumentAlreadySent", "documentId");
    }
    await appendAudit(tx, id, { actionType: "sent", userId: actor.userId, ip: meta.ip, userAgent: meta.userAgent, details: { sendEmail: doc.sendEmail } });
    await recordSigningEvent(tx, doc, "signature.document.sent", {
      recipients: doc.recipients.map((r) => ({ id: r.id, email: r.email, name: r.name, signingOrder: r.signingOrder })),
    });
  });
  await emailReadySigners(deps, id);
  return replyFor(
    deps.db,
    id,
    doc.sendEmail
      ? "Document sent for signing; signing links were emailed to the signers whose turn it is."
      : "Document ready for signing. Signing-link emails were not sent (sendEmail is false): request a signing URL for each recipient.",
  );
}

/**
 * A timestamp as documentJson is given it: a Date off a loaded row, or a listed page's text of it,
 * already in the reply's form (lib/esign/list.ts, stampField), which saves a page of 100 documents
 * about a thousand dates made and written out again.
 */
type Stamp = Date | string;
function iso(t: Stamp): string;
function iso(t: Stamp | null): string | null;
function iso(t: Stamp | null): string | null {
  return t === null ? null : typeof t === "string" ? t : t.toISOString();
}

/** What documentJson reads: a loaded document row, or a listed one (lib/esign/list.ts). */
export interface DocumentView {
  id: string;
  name: string;
  description: string;
  status: DocumentStatus;
  pageCount: number;
  originalHash: string;
  senderName: string | null;
  senderEmail: string | null;
  ccEmails: Prisma.JsonValue;
  sendEmail: boolean;
  language: string;
  expiresAt: Stamp | null;
  emailSubject: string | null;
  emailMessage: string | null;
  reminderDays: number;
  createdOn: Stamp;
  updatedOn: Stamp;
  sentAt: Stamp | null;
  completedAt: Stamp | null;
  voidedAt: Stamp | null;
  voidReason: string | null;
  declinedAt: Stamp | null;
  declineReason: string | null;
  recipients: (Omit<RecipientRow, "signedAt"> & { signedAt: Stamp | null; viewedAt: Stamp | null })[];
}

export function documentJson(doc: DocumentView) {
  return {
    id: doc.id,
    name: doc.name,
    description: doc.description,
    status: doc.status,
    pageCount: doc.pageCount,
    documentHash: doc.originalHash,
    senderName: doc.senderName,
    senderEmail: doc.senderEmail,
    ccEmails: doc.ccEmails,
    sendEmail: doc.sendEmail,
    language: languageOr(doc.language),
    expiresAt: iso(doc.expiresAt),
    emailSubject: doc.emailSubject,
    emailMessage: doc.emailMessage,
    reminderDays: doc.reminderDays,
    createdOn: iso(doc.createdOn),
    updatedOn: iso(doc.updatedOn),
    sentAt: iso(doc.sentAt),
    completedAt: iso(doc.completedAt),
    voidedAt: iso(doc.voidedAt),
    voidReason: doc.voidReason,
    declinedAt: iso(doc.declinedAt),
    declineReason: doc.declineReason,
    recipients: recipientSummaries(doc.status, doc.recipients, (r) => ({ viewedAt: iso(r.viewedAt), signedAt: iso(r.signedAt) })),
  };
}

export async function getDocument(db: Db, orgId: string, id: string) {
  return documentJson(await loadDocument(db, orgId, id));
}

export async function voidDocument(deps: EsignDeps, actor: Actor, id: string, reason: string, meta: RequestMeta) {
  const doc = await loadDocument(deps.db, actor.orgId, id);
  const voidedAt = new Date();
  await deps.db.$transaction(async (tx) => {
    // Compare-and-set: only a draft, or a sent document someone has yet to sign (a fully signed one is
    // being completed), moves to voided; of concurrent voids exactly one does. The row lock comes first
    // so that the check below sees a last signature committed while this void waited for it.
    await tx.$queryRaw`SELECT id FROM signing_document WHERE id = ${id}::uuid FOR UPDATE`;
    const { count } = await tx.signingDocument.updateMany({
      where: { id, OR: [{ status: "draft" }, { status: "sent", recipients: { some: { signedAt: null } } }] },
      data: { status: "voided", voidedAt, voidReason: reason },
    });
    if (count === 0) throw new DocumentNotVoidableError((await tx.signingDocument.findUniqueOrThrow({ where: { id }, select: { status: true } })).status);
    await appendAudit(tx, id, { actionType: "voided", userId: actor.userId, ip: meta.ip, userAgent: meta.userAgent, details: { reason } });
    await recordSigningEvent(tx, doc, "signature.document.voided", { reason, voidedAt: voidedAt.toISOString() });
  });
  if (doc.status === "sent") {
    const brand = await mailBrand(deps.db, doc.orgId, deps.baseUrl);
    for (const r of doc.recipients.filter((x) => !x.signedAt)) {
      const mail = deps.emails.documentVoided({ recipientName: r.name, documentName: doc.name, reason, lang: languageOr(doc.language), brand });
      await deps.sendMail(documentMail(doc, "document_voided", r.email, mail));
    }
  }
  return { id, name: doc.name, status: "voided" as const, voidReason: reason, voidedAt: voidedAt.toISOString() };
}

/** Explicit resend: emails the chosen (or the ready) signers even when sendEmail was false. */
export async function resendDocument(deps: EsignDeps, actor: Actor, id: string, recipientIds: string[] | undefined, meta: RequestMeta) {
  const doc = await loadDocument(deps.db, actor.orgId, id);
  if (doc.status !== "sent") throw new DocumentNotSignableError(doc.status);
  if ((recipientIds ?? []).some((rid) => !doc.recipients.some((r) => r.id === rid))) throw new RecipientNotFoundError();
  // Without a choice: the signers whose turn it is (the others would only find "not your turn yet").
  const only =
    recipientIds ??
    recipientStatuses(doc.status, doc.recipients)
      .filter((r) => r.status === "ready")
      .map((r) => r.id);
  // A resend is the sender vouching for the signer: it lifts a passcode lock (docs/contract.md "Passcodes").
  await deps.db.signingRecipient.updateMany({ where: { id: { in: only }, documentId: id }, data: { lockedAt: null, passcodeFailures: 0 } });
  // Compare-and-set on the state: a document voided or completed meanwhile gets no more signing emails.
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.signingDocument.updateMany({ where: { id, status: "sent" }, data: { updatedOn: new Date() } });
    if (count === 0) throw new DocumentNotSignableError((await tx.signingDocument.findUniqueOrThrow({ where: { id }, select: { status: true } })).status);
    await appendAudit(tx, id, { actionType: "resent", userId: actor.userId, ip: meta.ip, userAgent: meta.userAgent, details: { recipientIds: only } });
  });
  const recipientCount = await emailReadySigners(deps, id, { force: true, only });
  return { success: true, recipientCount };
}

export async function documentPdf(deps: EsignDeps, orgId: string, id: string): Promise<{ data: Buffer; fileName: string }> {
  const doc = await loadDocument(deps.db, orgId, id);
  const key = doc.status === "completed" && doc.signedPdfKey ? doc.signedPdfKey : doc.originalPdfKey;
  return { data: await deps.storage.get(key), fileName: `${doc.name}${doc.status === "completed" ? " (signed)" : ""}.pdf` };
}

/** GET /esign/documents/{id}/status: the document's state and each signer's (what the hosted service's clients read). */
export async function documentStatusOf(db: Db, orgId: string, id: string) {
  const doc = await loadDocument(db, orgId, id);
  return {
    status: doc.status,
    recipients: recipientStatuses(doc.status, doc.recipients).map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      status: r.status,
      signedAt: r.signedAt?.toISOString() ?? null,
    })),
  };
}

export async function requireDocument(db: Db, orgId: string, id: string) {
  return loadDocument(db, orgId, id);
}

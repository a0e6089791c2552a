// A signer declines (decisions.md "Declining"): the document becomes `declined`, final like `voided`.
// One transaction holds the compare-and-set, the audit entry, the signature.document.declined event and
// the emails to the sender, cc and the signers who already signed (queued in the outbox, sent after it
// commits). The signing page does not post esign:declined (interface.md 6.2).
import { appendAudit } from "@/lib/esign/audit";
import { recordSigningEvent } from "@/lib/esign/events";
import { openSigningSession, type SigningDeps } from "@/lib/esign/signing";
import { notSignable, requireSignable, requireVerified, SignerError } from "@/lib/esign/signer-access";
import type { RequestMeta } from "@/lib/esign/types";
import { ccParties, onePerAddress, senderParty } from "@/lib/esign/mail-parties";
import { languageOr } from "@/lib/i18n";
import { mailBrand } from "@/lib/orgs/branding";
import { documentMail } from "@/lib/esign/document-mail";

const DECLINED_MAIL = "document_declined";

export async function declineDocument(deps: SigningDeps, token: string, reason: string, meta: RequestMeta, sessionToken?: string | null) {
  const session = await openSigningSession(deps, token, meta, sessionToken);
  if (session.state === "verification_required") requireVerified(session.access);
  if (session.state === "already_signed") throw new SignerError("conflict", "You have already signed this document", "AlreadySigned");
  if (session.state === "not_your_turn") throw new SignerError("conflict", "It is not your turn yet: an earlier signer has not signed", "NotYourTurn");
  const documentId = session.document.id;
  const recipientId = session.recipient.id;
  const declinedAt = new Date();
  const { orgId } = await deps.db.signingDocument.findUniqueOrThrow({ where: { id: session.document.id }, select: { orgId: true } });
  const brand = await mailBrand(deps.db, orgId, deps.baseUrl);
  const mailIds = await deps.db.$transaction(async (tx) => {
    // Row lock, then the state read again: a signature, void or decline that committed meanwhile wins.
    // The signer's own signature is told first, as openSigningSession tells it: their signature may
    // also have completed the document.
    const [locked] = await tx.$queryRaw<
      { status: string; expiresAt: Date | null }[]
    >`SELECT status, "expiresAt" FROM signing_document WHERE id = ${documentId}::uuid FOR UPDATE`;
    const fresh = await tx.signingRecipient.findUniqueOrThrow({ where: { id: recipientId } });
    if (fresh.signedAt) throw new SignerError("conflict", "You have already signed this document", "AlreadySigned");
    requireSignable(locked);
    const { count } = await tx.signingDocument.updateMany({
      where: { id: documentId, status: "sent" },
      data: { status: "declined", declinedAt, declineReason: reason, declinedBy: recipientId },
    });
    if (count !== 1) throw notSignable("sent", false);
    await appendAudit(tx, documentId, { actionType: "declined", recipientId, ip: meta.ip, userAgent: meta.userAgent, details: { reason } }, declinedAt);
    const doc = await tx.signingDocument.findUniqueOrThrow({ where: { id: documentId }, include: { recipients: true } });
    await recordSigningEvent(tx, doc, "signature.document.declined", { recipientId, email: fresh.email, reason, declinedAt: declinedAt.toISOString() });
    const parties = [...senderParty(doc), ...ccParties(doc), ...doc.recipients.filter((r) => r.signedAt).map((r) => ({ name: r.name, email: r.email }))];
    const ids: string[] = [];
    // The signer who declined knows already.
    for (const p of onePerAddress(parties, [fresh.email])) {
      const mail = deps.emailsDeclined({
        recipientName: p.name,
        documentName: doc.name,
        signerName: fresh.name,
        signerEmail: fresh.email,
        reason,
        lang: languageOr(doc.language),
        brand,
      });
      ids.push(await deps.mail.queue(tx, documentMail(doc, DECLINED_MAIL, p.email, mail)));
    }
    return ids;
  });
  await deps.mail.deliverQueued(mailIds);
  return { documentId, status: "declined" as const, declinedAt: declinedAt.toISOString(), reason };
}

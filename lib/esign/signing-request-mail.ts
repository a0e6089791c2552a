// The signing-link email of one recipient, written the same way for the first request (documents.ts)
// and for each automatic reminder (reminders.ts): the sender's wording, the link, the language, the brand.
import type { EsignDeps } from "@/lib/esign/types";
import { signingLink, signingLinkToken } from "@/lib/esign/tokens";
import { languageOr } from "@/lib/i18n";
import type { Email, MailBrand } from "@/lib/mail/templates";

interface RequestingDocument {
  name: string;
  senderName: string | null;
  emailSubject: string | null;
  emailMessage: string | null;
  expiresAt: Date | null;
  language: string | null;
}

export function signingRequestMail(
  deps: Pick<EsignDeps, "emails" | "baseUrl" | "linkSecret">,
  doc: RequestingDocument,
  recipient: { id: string; name: string },
  brand: MailBrand | undefined,
  reminder = false,
): Email {
  return deps.emails.signingRequest({
    recipientName: recipient.name,
    senderName: doc.senderName ?? undefined,
    documentName: doc.name,
    subject: doc.emailSubject ?? undefined,
    message: doc.emailMessage ?? undefined,
    signUrl: signingLink(deps.baseUrl, signingLinkToken(deps.linkSecret, recipient.id)),
    expiresAt: doc.expiresAt,
    reminder,
    lang: languageOr(doc.language),
    brand,
  });
}

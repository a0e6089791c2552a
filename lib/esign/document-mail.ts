// A signing document's email to one address: sent in the sender's name, replies go to the sender, and it
// is filed under the document (the mail log and the outbox find it there). One place for every kind.
import type { MailMessage } from "@/lib/esign/types";
import type { Email } from "@/lib/mail/templates";

interface SendingDocument {
  id: string;
  orgId: string;
  senderName: string | null;
  senderEmail: string | null;
}

export function documentMail(doc: SendingDocument, kind: string, to: string, email: Email): MailMessage {
  return {
    orgId: doc.orgId,
    kind,
    to,
    fromName: doc.senderName ?? undefined,
    replyTo: doc.senderEmail ?? undefined,
    ...email,
    documentId: doc.id,
  };
}

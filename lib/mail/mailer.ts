// Outgoing email. Every message is recorded in the outbox table (what the dashboard's Outbox shows);
// with SMTP_URL set it is also sent through SMTP. A failed send is recorded and logged, never thrown
// into the business flow that asked for it (a signature must not fail because a mail server did).
import nodemailer from "nodemailer";
import { getConfig } from "@/lib/config";
import { db as defaultDb, type Db } from "@/lib/db/client";
import { log } from "@/lib/log";

export interface Attachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface OutgoingMail {
  orgId?: string;
  kind: string;
  to: string;
  cc?: string[];
  fromName?: string;
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  documentId?: string;
  attachments?: Attachment[];
}

export interface MailTransport {
  readonly name: "smtp" | "outbox";
  /** Delivers the message; the outbox transport has nothing to do beyond the record. */
  deliver(message: nodemailer.SendMailOptions): Promise<void>;
}

export const outboxTransport: MailTransport = { name: "outbox", deliver: async () => {} };

export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    name: "smtp",
    deliver: async (message) => {
      await transporter.sendMail(message);
    },
  };
}

function fromHeader(configured: string, senderName?: string): string {
  if (!senderName) return configured;
  // Never claim the sender's own domain (it would fail SPF/DMARC): their name, our address.
  const address = /<([^>]+)>/.exec(configured)?.[1] ?? configured;
  return `"${senderName.replace(/["\\\r\n]/g, "")} via Quire" <${address}>`;
}

export function createMailer(deps: { db: Db; transport: MailTransport; from: string }) {
  return async function sendMail(mail: OutgoingMail): Promise<{ id: string; transport: MailTransport["name"] }> {
    const attachmentsNote = mail.attachments?.length
      ? `\n\nAttachments: ${mail.attachments.map((a) => `${a.filename} (${Math.ceil(a.content.length / 1024)} KB)`).join(", ")}`
      : "";
    const from = fromHeader(deps.from, mail.fromName);
    const row = await deps.db.outboxMessage.create({
      data: {
        orgId: mail.orgId ?? null,
        kind: mail.kind,
        to: mail.to,
        cc: mail.cc ?? [],
        fromAddress: from,
        replyTo: mail.replyTo ?? null,
        subject: mail.subject,
        html: mail.html,
        text: mail.text + attachmentsNote,
        documentId: mail.documentId ?? null,
        transport: deps.transport.name,
        sentAt: deps.transport.name === "outbox" ? new Date() : null,
      },
    });
    if (deps.transport.name === "smtp") {
      try {
        await deps.transport.deliver({ from, to: mail.to, cc: mail.cc, replyTo: mail.replyTo, subject: mail.subject, html: mail.html, text: mail.text, attachments: mail.attachments });
        await deps.db.outboxMessage.update({ where: { id: row.id }, data: { sentAt: new Date() } });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        log.error({ outboxId: row.id, kind: mail.kind, error: message }, "email could not be sent");
        await deps.db.outboxMessage.update({ where: { id: row.id }, data: { error: message.slice(0, 1000) } });
      }
    }
    return { id: row.id, transport: deps.transport.name };
  };
}

let configured: ReturnType<typeof createMailer> | undefined;

/** Sends with the configured transport (SMTP_URL) and records in the outbox. */
export async function sendMail(mail: OutgoingMail) {
  if (!configured) {
    const { mail: settings } = getConfig();
    configured = createMailer({ db: await defaultDb(), transport: settings.smtpUrl ? smtpTransport(settings.smtpUrl) : outboxTransport, from: settings.from });
  }
  return configured(mail);
}

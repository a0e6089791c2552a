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

type OutboxWriter = Pick<Db, "outboxMessage">;

/**
 * What the outbox keeps of a message once SMTP has delivered it: signing links and passcodes are
 * credentials, and the recipient's mailbox now holds them; the database does not need to.
 */
export function redactCredentials(text: string, kind: string): string {
  let out = text.replace(/(\/sign\/)(?!open\b)[A-Za-z0-9_-]{8,}/g, "$1[redacted]").replace(/([?&]token=)[^&\s"'<>]+/g, "$1[redacted]");
  if (/passcode/.test(kind)) out = out.replace(/\b\d{6}\b/g, "[redacted]");
  return out;
}

export function createMailer(deps: { db: Db; transport: MailTransport; from: string }) {
  const record = (writer: OutboxWriter, mail: OutgoingMail) => {
    const attachmentsNote = mail.attachments?.length
      ? `\n\nAttachments: ${mail.attachments.map((a) => `${a.filename} (${Math.ceil(a.content.length / 1024)} KB)`).join(", ")}`
      : "";
    return writer.outboxMessage.create({
      data: {
        orgId: mail.orgId ?? null,
        kind: mail.kind,
        to: mail.to,
        cc: mail.cc ?? [],
        fromAddress: fromHeader(deps.from, mail.fromName),
        replyTo: mail.replyTo ?? null,
        subject: mail.subject,
        html: mail.html,
        text: mail.text + attachmentsNote,
        documentId: mail.documentId ?? null,
        transport: deps.transport.name,
        sentAt: deps.transport.name === "outbox" ? new Date() : null,
      },
    });
  };

  /** SMTP: sends a recorded message and notes the outcome on its row. */
  const deliver = async (
    row: { id: string; fromAddress: string; to: string; cc: unknown; replyTo: string | null; subject: string; html: string; text: string; kind: string },
    text: string,
    attachments?: Attachment[],
  ) => {
    try {
      await deps.transport.deliver({
        from: row.fromAddress,
        to: row.to,
        cc: (row.cc as string[]) ?? [],
        replyTo: row.replyTo ?? undefined,
        subject: row.subject,
        html: row.html,
        text,
        attachments,
      });
      await deps.db.outboxMessage.update({
        where: { id: row.id },
        data: { sentAt: new Date(), html: redactCredentials(row.html, row.kind), text: redactCredentials(text, row.kind) },
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.error({ outboxId: row.id, kind: row.kind, error: message }, "email could not be sent");
      await deps.db.outboxMessage.update({ where: { id: row.id }, data: { error: message.slice(0, 1000) } });
    }
  };

  return {
    /** Records the message and, with SMTP, sends it now. */
    async send(mail: OutgoingMail): Promise<{ id: string; transport: MailTransport["name"] }> {
      const row = await record(deps.db, mail);
      if (deps.transport.name === "smtp") await deliver(row, mail.text, mail.attachments);
      return { id: row.id, transport: deps.transport.name };
    },
    /**
     * Records the message inside the caller's transaction: it exists exactly when the change that
     * caused it commits. With SMTP it goes out on deliverQueued(); in the outbox it is already final.
     */
    async queue(tx: OutboxWriter, mail: Omit<OutgoingMail, "attachments">): Promise<string> {
      return (await record(tx, mail)).id;
    },
    /** Sends the queued messages that have not gone out yet (each once, whoever calls). */
    async deliverQueued(ids: string[], attachments?: Attachment[]): Promise<void> {
      if (deps.transport.name !== "smtp" || ids.length === 0) return;
      const rows = await deps.db.outboxMessage.findMany({ where: { id: { in: ids }, sentAt: null, error: null } });
      for (const row of rows) await deliver(row, row.text, attachments);
    },
  };
}

let configured: ReturnType<typeof createMailer> | undefined;

async function mailer(): Promise<ReturnType<typeof createMailer>> {
  if (!configured) {
    const { mail: settings } = getConfig();
    configured = createMailer({ db: await defaultDb(), transport: settings.smtpUrl ? smtpTransport(settings.smtpUrl) : outboxTransport, from: settings.from });
  }
  return configured;
}

/** Sends with the configured transport (SMTP_URL) and records in the outbox. */
export async function sendMail(mail: OutgoingMail) {
  return (await mailer()).send(mail);
}

/** Records a message in the caller's transaction, to be sent with deliverQueuedMail once it commits. */
export async function queueMail(tx: OutboxWriter, mail: Omit<OutgoingMail, "attachments">): Promise<string> {
  return (await mailer()).queue(tx, mail);
}

export async function deliverQueuedMail(ids: string[], attachments?: Attachment[]): Promise<void> {
  return (await mailer()).deliverQueued(ids, attachments);
}

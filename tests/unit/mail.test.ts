import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlRunner } from "@/lib/db/driver";
import { applyMigrations } from "@/lib/db/migrate";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { createMailer, outboxTransport, type MailTransport } from "@/lib/mail/mailer";
import { documentVoidedEmail, signingRequestEmail } from "@/lib/mail/templates";

let pglite: PGlite;
let prisma: PrismaClient;
beforeAll(async () => {
  pglite = await PGlite.create();
  await applyMigrations(sqlRunner({ kind: "pglite", pglite }));
  prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
});
afterAll(async () => {
  await prisma.$disconnect();
  await pglite.close();
});

describe("email templates", () => {
  it("escape user text and carry the link in both versions", () => {
    const mail = signingRequestEmail({ recipientName: "<script>alert(1)</script>", senderName: "Eve & Co", documentName: "MSA", signUrl: "https://q.example/sign/abc" });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.html).toContain('href="https://q.example/sign/abc"');
    expect(mail.text).toContain("https://q.example/sign/abc");
    expect(mail.subject).toBe("Eve & Co asks you to sign “MSA”");
    expect(documentVoidedEmail({ recipientName: "A", documentName: "D", reason: "<b>x</b>" }).html).toContain("&lt;b&gt;x&lt;/b&gt;");
  });
});

describe("createMailer", () => {
  it("records every message in the outbox, with the sender as 'Name via Quire' and reply-to", async () => {
    const send = createMailer({ db: prisma, transport: outboxTransport, from: "Quire <no-reply@quire.test>" });
    const { id, transport } = await send({ kind: "test", to: "a@example.com", fromName: "Sam \"S\" Sender", replyTo: "sam@example.com", subject: "Hi", html: "<p>Hi</p>", text: "Hi", attachments: [{ filename: "x.pdf", content: Buffer.alloc(2048), contentType: "application/pdf" }] });
    expect(transport).toBe("outbox");
    const row = await prisma.outboxMessage.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ to: "a@example.com", fromAddress: '"Sam S Sender via Quire" <no-reply@quire.test>', replyTo: "sam@example.com", transport: "outbox" });
    expect(row.sentAt).not.toBeNull();
    expect(row.text).toContain("Attachments: x.pdf (2 KB)");
  });

  it("keeps the record and the error when SMTP delivery fails, without throwing", async () => {
    const failing: MailTransport = { name: "smtp", deliver: async () => Promise.reject(new Error("connection refused")) };
    const send = createMailer({ db: prisma, transport: failing, from: "no-reply@quire.test" });
    const { id } = await send({ kind: "test", to: "b@example.com", subject: "S", html: "h", text: "t" });
    const row = await prisma.outboxMessage.findUniqueOrThrow({ where: { id } });
    expect(row.sentAt).toBeNull();
    expect(row.error).toBe("connection refused");
  });

  it("marks SMTP messages sent once delivered", async () => {
    const delivered: unknown[] = [];
    const ok: MailTransport = { name: "smtp", deliver: async (m) => void delivered.push(m) };
    const { id } = await createMailer({ db: prisma, transport: ok, from: "no-reply@quire.test" })({ kind: "test", to: "c@example.com", subject: "S", html: "h", text: "t" });
    expect(delivered).toHaveLength(1);
    expect((await prisma.outboxMessage.findUniqueOrThrow({ where: { id } })).sentAt).not.toBeNull();
  });
});

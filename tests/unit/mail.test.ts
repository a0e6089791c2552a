import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { NotFoundError } from "@/lib/errors";
import { createMailer, outboxTransport, type MailTransport } from "@/lib/mail/mailer";
import { emailLinks, getOutboxMessage, listOutbox, previewHtml } from "@/lib/mail/outbox";
import { documentVoidedEmail, signingRequestEmail } from "@/lib/mail/templates";
import { migratedPGlite } from "../support/migrated-pglite";

const db = migratedPGlite();
let prisma: PrismaClient;
beforeAll(() => {
  prisma = new PrismaClient({ adapter: new PrismaPGlite(db.pglite) });
});
afterAll(async () => {
  await prisma.$disconnect();
});

describe("email templates", () => {
  it("escape user text and carry the link in both versions", () => {
    const mail = signingRequestEmail({
      recipientName: "<script>alert(1)</script>",
      senderName: "Eve & Co",
      documentName: "MSA",
      signUrl: "https://q.example/sign/abc",
    });
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
    const send = createMailer({ db: prisma, transport: outboxTransport, from: "Quire <no-reply@quire.test>" }).send;
    const { id, transport } = await send({
      kind: "test",
      to: "a@example.com",
      fromName: 'Sam "S" Sender',
      replyTo: "sam@example.com",
      subject: "Hi",
      html: "<p>Hi</p>",
      text: "Hi",
      attachments: [{ filename: "x.pdf", content: Buffer.alloc(2048), contentType: "application/pdf" }],
    });
    expect(transport).toBe("outbox");
    const row = await prisma.outboxMessage.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({
      to: "a@example.com",
      fromAddress: '"Sam S Sender via Quire" <no-reply@quire.test>',
      replyTo: "sam@example.com",
      transport: "outbox",
    });
    expect(row.sentAt).not.toBeNull();
    expect(row.text).toContain("Attachments: x.pdf (2 KB)");
  });

  it("keeps the record and the error when SMTP delivery fails, without throwing", async () => {
    const failing: MailTransport = { name: "smtp", deliver: async () => Promise.reject(new Error("connection refused")) };
    const send = createMailer({ db: prisma, transport: failing, from: "no-reply@quire.test" }).send;
    const { id } = await send({ kind: "test", to: "b@example.com", subject: "S", html: "h", text: "t" });
    const row = await prisma.outboxMessage.findUniqueOrThrow({ where: { id } });
    expect(row.sentAt).toBeNull();
    expect(row.error).toBe("connection refused");
  });

  it("marks SMTP messages sent once delivered", async () => {
    const delivered: unknown[] = [];
    const ok: MailTransport = { name: "smtp", deliver: async (m) => void delivered.push(m) };
    const { id } = await createMailer({ db: prisma, transport: ok, from: "no-reply@quire.test" }).send({
      kind: "test",
      to: "c@example.com",
      subject: "S",
      html: "h",
      text: "t",
    });
    expect(delivered).toHaveLength(1);
    expect((await prisma.outboxMessage.findUniqueOrThrow({ where: { id } })).sentAt).not.toBeNull();
  });
});

describe("outbox reading", () => {
  it("lists an organization's messages newest first, by exact recipient or a part of it, and opens one only in its organization", async () => {
    const [mine, theirs] = await Promise.all(["outbox-a", "outbox-b"].map((slug) => prisma.organization.create({ data: { slug, name: slug } })));
    const send = createMailer({ db: prisma, transport: outboxTransport, from: "no-reply@quire.test" }).send;
    const first = await send({ orgId: mine.id, kind: "test", to: "Ada@Example.com", subject: "First", html: "h", text: "t", cc: ["cc@example.com"] });
    await new Promise((r) => setTimeout(r, 5));
    await send({ orgId: mine.id, kind: "test", to: "bob@example.com", subject: "Second", html: "h", text: "t" });
    const foreign = await send({ orgId: theirs.id, kind: "test", to: "ada@example.com", subject: "Theirs", html: "h", text: "t" });

    const all = await listOutbox(prisma, { orgId: mine.id, limit: 10, offset: 0 });
    expect(all.results.map((m) => m.subject)).toEqual(["Second", "First"]);
    expect(all.totalRecords).toBe(2);
    expect((await listOutbox(prisma, { orgId: mine.id, to: "ada@example.com", limit: 10, offset: 0 })).results.map((m) => m.subject)).toEqual(["First"]);
    expect((await listOutbox(prisma, { orgId: mine.id, to: "ada", limit: 10, offset: 0 })).totalRecords).toBe(0);
    expect((await listOutbox(prisma, { orgId: mine.id, search: "EXAMPLE.com", limit: 1, offset: 1 })).results.map((m) => m.subject)).toEqual(["First"]);

    expect(await getOutboxMessage(prisma, { orgId: mine.id, id: first.id })).toMatchObject({
      id: first.id,
      subject: "First",
      to: "Ada@Example.com",
      cc: ["cc@example.com"],
      transport: "outbox",
    });
    await expect(getOutboxMessage(prisma, { orgId: mine.id, id: foreign.id })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getOutboxMessage(prisma, { orgId: mine.id, id: "not-a-uuid" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("finds each link of an email once, with the label of its HTML anchor", () => {
    const mail = signingRequestEmail({ recipientName: "Ada", documentName: "MSA", signUrl: "https://q.example/sign/abc?x=1&y=2" });
    expect(emailLinks(mail.html, mail.text)).toEqual([{ url: "https://q.example/sign/abc?x=1&y=2", label: "Review and sign" }]);
    expect(emailLinks('<a href="mailto:a@b.c">mail</a><a href="https://a.example/">A</a>', "See https://b.example/x. And https://a.example/")).toEqual([
      { url: "https://a.example/", label: "A" },
      { url: "https://b.example/x", label: null },
    ]);
  });

  it("makes links of the preview open in a new tab without breaking the doctype", () => {
    expect(previewHtml("<!doctype html><html><body>x</body></html>")).toBe('<!doctype html><html><base target="_blank"><body>x</body></html>');
    expect(previewHtml('<html lang="en"><head><title>t</title></head></html>')).toBe(
      '<html lang="en"><head><base target="_blank"><title>t</title></head></html>',
    );
    expect(previewHtml("<p>x</p>")).toBe('<base target="_blank"><p>x</p>');
  });
});

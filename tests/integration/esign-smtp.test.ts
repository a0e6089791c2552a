// Signing emails over real SMTP: Quire sends to an SMTP server this test runs, and the test reads
// what arrived (MIME parsed) instead of the outbox table. Its own Quire server, because SMTP_URL
// is read at start-up.
import type net from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as } from "../support/api";
import { onePagePdf, PNG, pdfTool, SIGNING_LINK, signerApi, tokenOf, type SignerField } from "../support/esign";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";

interface Received {
  /** Envelope recipients (RCPT TO): who the message was delivered to, Cc included. */
  rcpt: string[];
  mail: ParsedMail;
}

const received: Received[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  // Plain SMTP on loopback: no STARTTLS offered, so nodemailer sends in the clear as to a local relay.
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream).then(
      (mail) => {
        received.push({ rcpt: session.envelope.rcptTo.map((a) => a.address.toLowerCase()), mail });
        callback();
      },
      (err) => callback(err),
    );
  },
});

let quire: RunningQuire;
let baseUrl: string;
let smtpPort: number;

beforeAll(async () => {
  smtpPort = await new Promise<number>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(0, "127.0.0.1", () => resolve((smtp.server.address() as net.AddressInfo).port));
  });
  quire = await startQuireServer((process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase, {
    extraEnv: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: "Quire Mail <mail@quire.test>" },
  });
  baseUrl = quire.server.baseUrl;
});

afterAll(async () => {
  await quire?.stop();
  if (smtp.server.listening) await new Promise<void>((r) => smtp.close(() => r()));
});

const admin = () => as(baseUrl, quire.server.seed, "administrator");

/** Messages delivered to an address whose subject mentions the document. */
function deliveredTo(email: string, documentName: string): ParsedMail[] {
  return received.filter((r) => r.rcpt.includes(email) && (r.mail.subject ?? "").includes(documentName)).map((r) => r.mail);
}

async function waitForMail(email: string, documentName: string, count = 1): Promise<ParsedMail[]> {
  // Quire sends before it answers and this server acknowledges after parsing, so mail is normally
  // here already; the wait is slack only.
  const deadline = Date.now() + 5_000;
  while (deadline > Date.now() && deliveredTo(email, documentName).length < count) await new Promise((r) => setTimeout(r, 50));
  return deliveredTo(email, documentName);
}

async function prepare(documentName: string, recipients: { name: string; email: string }[]) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await onePagePdf())]), "contract.pdf");
  form.set("documentName", documentName);
  form.set("senderName", "Sam Sender");
  form.set("senderEmail", "sam@example.com");
  form.set("ccEmails", JSON.stringify(["carol@example.com"]));
  form.set("recipients", JSON.stringify(recipients.map((r, i) => ({ ...r, signingOrder: i + 1 }))));
  form.set(
    "fields",
    JSON.stringify(
      recipients.flatMap((r, i) => [
        { type: "signature", recipientEmail: r.email, page: 1, x: 50, y: 600 - i * 120, width: 160, height: 40 },
        { type: "text", recipientEmail: r.email, page: 1, x: 250, y: 600 - i * 120, width: 200, height: 20 },
      ]),
    ),
  );
  const res = await as(baseUrl, quire.server.seed, "contributor")("/esign/single/prepare-for-signing", { method: "POST", body: form });
  expect(res.status, res.text).toBe(200);
  return res.json.data.documentId as string;
}

async function signAs(link: string, text: string) {
  const signer = signerApi(baseUrl, tokenOf(link));
  const session = await signer.session();
  expect(session.json.data.state).toBe("ready");
  const values = Object.fromEntries(session.json.data.fields.map((f: SignerField) => [f.id, f.type === "signature" ? PNG : text]));
  return signer.sign(values);
}

async function outboxFor(email: string, documentId: string) {
  const res = await admin()(`/api/outbox?to=${encodeURIComponent(email)}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return (
    res.json.data.results as { kind: string; transport: string; sentAt: string | null; error: string | null; documentId: string; text: string; html: string }[]
  ).filter((m) => m.documentId === documentId);
}

describe("signing emails over SMTP", () => {
  const name = "Consulting agreement SMTP-1";
  let documentId: string;

  it("emails the first signer a multipart request from “<sender> via Quire”, replying to the sender, with a working link", async () => {
    documentId = await prepare(name, [
      { name: "Ada Client", email: "ada@example.com" },
      { name: "Bob Provider", email: "bob@example.com" },
    ]);
    const [request, ...more] = await waitForMail("ada@example.com", name);
    expect(more).toEqual([]);
    expect(request.headers.get("content-type")).toMatchObject({ value: "multipart/alternative" });
    expect(request.html).toEqual(expect.stringContaining("Review and sign"));
    expect(request.text).toContain("Review and sign");
    expect(request.from?.value).toEqual([{ name: "Sam Sender via Quire", address: "mail@quire.test" }]);
    expect(request.replyTo?.value).toEqual([{ name: "", address: "sam@example.com" }]);
    expect(request.to).toMatchObject({ value: [{ address: "ada@example.com" }] });

    const link = SIGNING_LINK.exec(request.text ?? "")?.[0];
    expect(link, "a signing link in the text part").toBeTruthy();
    expect(link!.startsWith(`${baseUrl}/sign/`)).toBe(true);
    expect((request.html as string).includes(link!)).toBe(true);
    const page = await fetch(link!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(name);

    // Nobody else hears of it yet: Bob's turn comes later, and a cc gets the completed copy only
    // (a signing link in a cc'd request would let the cc sign in the signer's name).
    expect(request.cc).toBeUndefined();
    expect(deliveredTo("bob@example.com", name)).toEqual([]);
    expect(deliveredTo("carol@example.com", name)).toEqual([]);
    expect(deliveredTo("sam@example.com", name)).toEqual([]);
  });

  it("emails the second signer once the first has signed, and every party the sealed PDF at the end", async () => {
    const adaLink = SIGNING_LINK.exec(deliveredTo("ada@example.com", name)[0].text ?? "")![0];
    const first = await signAs(adaLink, "Ada typed this");
    expect(first.status, first.text).toBe(200);
    expect(first.json.data.status).toBe("sent");

    const [bobRequest, ...more] = await waitForMail("bob@example.com", name);
    expect(more).toEqual([]);
    expect(bobRequest.subject).toContain("asks you to sign");
    const done = await signAs(SIGNING_LINK.exec(bobRequest.text ?? "")![0], "Bob typed this");
    expect(done.status, done.text).toBe(200);
    expect(done.json.data.status).toBe("completed");

    for (const who of ["ada@example.com", "bob@example.com", "carol@example.com", "sam@example.com"]) {
      const completed = (await waitForMail(who, `Completed: “${name}”`)).filter((m) => m.subject?.startsWith("Completed"));
      expect(completed.length, who).toBe(1);
      const mail = completed[0];
      expect(mail.from?.value[0]).toEqual({ name: "Sam Sender via Quire", address: "mail@quire.test" });
      expect(mail.html).toEqual(expect.stringContaining("Everyone has signed"));
      expect(mail.text).toContain("Everyone has signed");
      expect(mail.attachments.map((a) => [a.contentType, a.filename])).toEqual([["application/pdf", `${name} (signed).pdf`]]);
      const pdf = mail.attachments[0].content;
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(pdfTool(pdf, "pdfsig"), who).toMatch(/Signature is Valid/);
      const text = pdfTool(pdf, "pdftotext");
      expect(text).toContain("Ada typed this");
      expect(text).toContain("Bob typed this");
    }
  });

  it("still records every message in the outbox, as sent over SMTP", async () => {
    const ada = await outboxFor("ada@example.com", documentId);
    expect(ada.map((m) => m.kind).sort()).toEqual(["signing_completed", "signing_request"]);
    const all = [
      ...ada,
      ...(await outboxFor("bob@example.com", documentId)),
      ...(await outboxFor("carol@example.com", documentId)),
      ...(await outboxFor("sam@example.com", documentId)),
    ];
    expect(all).toHaveLength(2 + 2 + 1 + 1);
    for (const m of all) {
      expect(m.transport).toBe("smtp");
      expect(m.sentAt).not.toBeNull();
      expect(m.error).toBeNull();
    }
    // As many SMTP deliveries as outbox rows: nothing sent twice, nothing only recorded.
    expect(received.filter((r) => (r.mail.subject ?? "").includes(name))).toHaveLength(all.length);
    // Delivered, a signing request keeps no credential in the database: the link is redacted.
    const mailedLink = SIGNING_LINK.exec(deliveredTo("ada@example.com", name)[0].text ?? "")![0];
    const stored = ada.find((m) => m.kind === "signing_request")!;
    expect(stored.text).not.toContain(tokenOf(mailedLink));
    expect(`${stored.text}${stored.html ?? ""}`).not.toContain(tokenOf(mailedLink));
    expect(stored.text).toContain("/sign/[redacted]");
  });

  it("signs and completes while the mail server is down, recording the failure on each outbox row", async () => {
    await new Promise<void>((r) => smtp.close(() => r()));
    const down = "Consulting agreement SMTP-down";
    const id = await prepare(down, [{ name: "Dan Solo", email: "dan@example.com" }]);
    const [request] = await outboxFor("dan@example.com", id);
    expect(request).toMatchObject({ kind: "signing_request", transport: "smtp", sentAt: null, error: expect.stringMatching(/ECONNREFUSED|connect/i) });

    // The link still works (a resend or the API's signing URL would deliver it): signing must not depend on mail.
    const token = (await admin()(`/api/outbox?to=dan%40example.com&limit=10`)).json.data.results
      .map((m: { text: string }) => SIGNING_LINK.exec(m.text)?.[0])
      .find(Boolean);
    const done = await signAs(token, "Dan typed this");
    expect(done.status, done.text).toBe(200);
    expect(done.json.data.status).toBe("completed");
    const status = await as(baseUrl, quire.server.seed, "contributor")(`/esign/documents/${id}/status`);
    expect(status.json).toEqual({
      data: {
        status: "completed",
        recipients: [{ id: expect.any(String), name: "Dan Solo", email: "dan@example.com", status: "completed", signedAt: expect.any(String) }],
      },
    });

    const completed = (await outboxFor("dan@example.com", id)).filter((m) => m.kind === "signing_completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ transport: "smtp", sentAt: null, error: expect.any(String) });
    expect(received.filter((r) => (r.mail.subject ?? "").includes(down))).toEqual([]);
  });
});

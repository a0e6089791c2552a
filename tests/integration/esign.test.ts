// E-signing over HTTP: prepare, sign in order on the signer API, seal, audit, void, resend.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, inject, it } from "vitest";
import { verifyAuditChain } from "@/lib/esign/audit";
import { as, call } from "../support/helpers";

const { baseUrl, seed, other } = inject("quire");
const contributor = as(baseUrl, seed, "contributor");
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

async function twoPagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText("Master services agreement between the parties.", { x: 50, y: 780, size: 12, font });
  const p2 = doc.addPage([595, 842]);
  p2.drawText("Client signature: [[sign:client]]", { x: 50, y: 300, size: 12, font });
  p2.drawText("Provider signature: [[sign:provider]]", { x: 50, y: 200, size: 12, font });
  return Buffer.from(await doc.save());
}

function text(pdf: Buffer, tool = "pdftotext"): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-esign-")), "d.pdf");
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync(tool, tool === "pdftotext" ? ["-layout", file, "-"] : [file], { encoding: "utf8" });
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}

function tokenOf(link: string): string {
  return link.split("/sign/")[1];
}

async function prepare(extra: Record<string, unknown> = {}) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await twoPagePdf())]), "msa.pdf");
  form.set("documentName", "MSA with Initech");
  form.set("senderName", "Sam Sender");
  form.set("senderEmail", "sam@example.com");
  form.set(
    "recipients",
    JSON.stringify([
      { name: "Ada Client", email: "ada@example.com", signingOrder: 1, externalId: "crm-ada" },
      { name: "Bob Provider", email: "bob@example.com", signingOrder: 2 },
    ]),
  );
  form.set(
    "fields",
    JSON.stringify([
      { type: "signature", recipientEmail: "ada@example.com", template: { anchor: "[[sign:client]]", placement: "replace" } },
      { type: "full_name", recipientEmail: "ada@example.com", page: 1, x: 50, y: 100, width: 200, height: 20 },
      { type: "signature", recipientExternalId: undefined, recipientEmail: "bob@example.com", template: { anchor: "[[sign:provider]]", placement: "replace" } },
    ]),
  );
  for (const [k, v] of Object.entries(extra)) form.set(k, String(v));
  return contributor("/esign/single/prepare-for-signing", { method: "POST", body: form });
}

async function mailsTo(to: string): Promise<{ subject: string; text: string; kind: string; documentId: string }[]> {
  const res = await as(baseUrl, seed, "administrator")(`/api/outbox?to=${encodeURIComponent(to)}&limit=50`);
  expect(res.status, res.text).toBe(200);
  return res.json.data.results;
}

async function linkFor(to: string): Promise<string> {
  const mails = await mailsTo(to);
  const link = mails.map((m) => /https?:\/\/\S+\/sign\/[A-Za-z0-9_-]+/.exec(m.text)?.[0]).find(Boolean);
  expect(link, `a signing link emailed to ${to}`).toBeTruthy();
  return link!;
}

const signer = (token: string) => ({
  session: () => call(baseUrl, `/api/signer/${token}`),
  sign: (values: Record<string, string>) => call(baseUrl, `/api/signer/${token}/sign`, { method: "POST", body: { values } }),
});

describe("prepare-for-signing, sign in order, seal", () => {
  let documentId: string;

  it("prepares from an uploaded PDF with fields on anchors and coordinates, emailing the first signer", async () => {
    const res = await prepare();
    expect(res.status, res.text).toBe(200);
    const d = res.json.data;
    expect(d).toMatchObject({ success: true, status: "sent" });
    expect(d.recipients.map((r: { email: string; status: string }) => [r.email, r.status])).toEqual([
      ["ada@example.com", "ready"],
      ["bob@example.com", "pending"],
    ]);
    documentId = d.documentId;
    expect((await mailsTo("ada@example.com")).some((m) => m.kind === "signing_request")).toBe(true);
    expect((await mailsTo("bob@example.com")).filter((m) => m.subject.includes("MSA with Initech"))).toEqual([]);
  });

  it("refuses the second signer before the first, then lets each sign in turn", async () => {
    // Bob gets his link early through an explicit resend; it is still not his turn.
    const bobId = (await contributor(`/esign/documents/${documentId}`)).json.data.recipients[1].id;
    expect(
      (await contributor(`/esign/documents/${documentId}/resend-email`, { method: "POST", body: { recipientIds: [bobId] } })).json.data.recipientCount,
    ).toBe(1);
    const early = signer(tokenOf(await linkFor("bob@example.com")));
    expect((await early.session()).json.data.state).toBe("not_your_turn");
    const refused = await early.sign({});
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe("not_your_turn");

    const ada = signer(tokenOf(await linkFor("ada@example.com")));
    const session = await ada.session();
    expect(session.status).toBe(200);
    expect(session.json.data.state).toBe("ready");
    expect(session.json.data.fields.map((f: { type: string }) => f.type).sort()).toEqual(["full_name", "signature"]);
    const sigField = session.json.data.fields.find((f: { type: string }) => f.type === "signature");
    expect(sigField.page).toBe(2);

    const missing = await ada.sign({});
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe("fields_invalid");

    const values = Object.fromEntries(session.json.data.fields.map((f: { id: string; type: string }) => [f.id, f.type === "signature" ? PNG : "Ada Lovelace"]));
    const signed = await ada.sign(values);
    expect(signed.status, signed.text).toBe(200);
    expect(signed.json.data.status).toBe("sent");
    expect((await ada.sign(values)).json.code).toBe("already_signed");
    const midway = (await contributor(`/esign/documents/${documentId}/status`)).json.data;
    expect(midway).toEqual({
      status: "sent",
      recipients: [
        { id: expect.any(String), name: expect.any(String), email: "ada@example.com", status: "completed", signedAt: expect.any(String) },
        { id: bobId, name: expect.any(String), email: "bob@example.com", status: "ready", signedAt: null },
      ],
    });

    const bobSigner = signer(tokenOf(await linkFor("bob@example.com")));
    const bobSession = await bobSigner.session();
    expect(bobSession.json.data.state).toBe("ready");
    const done = await bobSigner.sign(Object.fromEntries(bobSession.json.data.fields.map((f: { id: string }) => [f.id, "Bob Builder"])));
    expect(done.status, done.text).toBe(200);
    expect(done.json.data.status).toBe("completed");
  });

  it("produces a sealed PDF: values stamped, a certificate page, a valid digital signature", async () => {
    const status = await contributor(`/esign/documents/${documentId}/status`);
    expect(status.json.data.status).toBe("completed");
    expect(status.json.data.recipients.map((r: { status: string; signedAt: string | null }) => [r.status, typeof r.signedAt])).toEqual([
      ["completed", "string"],
      ["completed", "string"],
    ]);
    const res = await fetch(`${baseUrl}/esign/documents/${documentId}/download`, {
      headers: { authorization: `Bearer ${seed.keys.contributor}`, "x-service-org-id": seed.orgId },
    });
    const pdf = Buffer.from(await res.arrayBuffer());
    const content = text(pdf);
    expect(content).toContain("Ada Lovelace");
    expect(content).toContain("Bob Builder");
    expect(content).toMatch(/Certificate of completion/i);
    expect(content).toContain("ada@example.com");
    expect(text(pdf, "pdfsig")).toMatch(/Signature is Valid/);
    for (const who of ["ada@example.com", "bob@example.com", "sam@example.com"]) {
      expect(
        (await mailsTo(who)).some((m) => m.kind === "signing_completed"),
        who,
      ).toBe(true);
    }
  });

  it("records every action in a hash chain that verifies end to end", async () => {
    const res = await contributor(`/esign/documents/${documentId}/audit-trail`);
    expect(res.status).toBe(200);
    const trail = res.json.data.auditTrail;
    expect(res.json.data.document).toEqual({ id: documentId, name: "MSA with Initech" });
    expect(trail.map((e: { actionType: string }) => e.actionType)).toEqual(["created", "sent", "resent", "viewed", "signed", "viewed", "signed", "completed"]);
    expect(verifyAuditChain(trail)).toBe(-1);
    const tampered = trail.map((e: { details: object }, i: number) => (i === 3 ? { ...e, details: { forged: true } } : e));
    expect(verifyAuditChain(tampered)).toBe(3);

    // Who acted, as the hosted service's clients read it: the key's user for the sender's actions, the
    // signer for theirs, nobody for Quire's own completion. createdOn is the timestamp.
    const key = { name: expect.any(String), email: seed.login.email };
    const ada = { name: "Ada Client", email: "ada@example.com" };
    const bob = { name: "Bob Provider", email: "bob@example.com" };
    expect(trail.map((e: { actionType: string; user: unknown; recipient: unknown }) => [e.actionType, e.user, e.recipient])).toEqual([
      ["created", key, null],
      ["sent", key, null],
      ["resent", key, null],
      ["viewed", null, ada],
      ["signed", null, ada],
      ["viewed", null, bob],
      ["signed", null, bob],
      ["completed", null, null],
    ]);
    for (const e of trail) expect(e.createdOn).toBe(e.timestamp);
    expect(trail.map((e: { hashVersion: number }) => e.hashVersion)).toEqual(Array(8).fill(2));
    // userId is covered by the hash.
    const reassigned = trail.map((e: { userId: string | null }, i: number) => (i === 0 ? { ...e, userId: crypto.randomUUID() } : e));
    expect(verifyAuditChain(reassigned)).toBe(0);
  });
});

describe("document endpoints and errors", () => {
  it("sends without emails when sendEmail is false, saying signing URLs must be requested", async () => {
    const res = await prepare({ sendEmail: "false", documentName: "Silent one" });
    expect(res.status).toBe(200);
    expect(res.json.data.message).toMatch(/not sent.*signing URL/i);
    const mails = (await mailsTo("ada@example.com")).filter((m) => m.subject.includes("Silent one"));
    expect(mails).toEqual([]);
    const resend = await contributor(`/esign/documents/${res.json.data.documentId}/resend-email`, { method: "POST", body: {} });
    expect(resend.json.data).toEqual({ success: true, recipientCount: 1 });
    expect((await mailsTo("ada@example.com")).some((m) => m.subject.includes("Silent one"))).toBe(true);
  });

  it("lists newest first with recipients, paging by totalRecords; a page past the end still says the total", async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await prepare({ sendEmail: "false", documentName: `Paged lease ${n}`, language: n === 2 ? "fr" : "en" });
      expect(res.status, res.text).toBe(200);
      ids.push(res.json.data.documentId);
    }
    const page = async (q: string) => (await contributor(`/esign/documents?query=Paged%20lease&${q}`)).json.data;
    const all = await page("limit=100");
    expect(all.totalRecords).toBe(3);
    expect(all.results.map((d: { id: string }) => d.id)).toEqual([...ids].reverse());
    expect(all.results.map((d: { language: string }) => d.language)).toEqual(["en", "fr", "en"]);
    expect(all.results[0].recipients.map((r: { email: string }) => r.email)).toEqual(["ada@example.com", "bob@example.com"]);
    expect(all.results[0]).toEqual((await contributor(`/esign/documents/${ids[2]}`)).json.data);
    const paged = [...(await page("limit=2")).results, ...(await page("limit=2&offset=2")).results];
    expect(paged.map((d: { id: string }) => d.id)).toEqual([...ids].reverse());
    expect(await page("limit=2&offset=2")).toMatchObject({ totalRecords: 3 });
    expect(await page("limit=2&offset=10")).toEqual({ results: [], totalRecords: 3 });
    expect(await page("limit=2&status=completed")).toEqual({ results: [], totalRecords: 0 });
  });

  it("voids a document: signers see it voided", async () => {
    const res = await prepare({ documentName: "To be voided" });
    const id = res.json.data.documentId;
    const voided = await contributor(`/esign/documents/${id}/void`, { method: "POST", body: { reason: "Wrong price" } });
    expect(voided.json.data).toMatchObject({ id, name: "To be voided", status: "voided", voidReason: "Wrong price" });
    expect((await mailsTo("ada@example.com")).some((m) => m.kind === "document_voided" && m.subject.includes("To be voided"))).toBe(true);
    const again = await contributor(`/esign/documents/${id}/void`, { method: "POST", body: { reason: "again" } });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe("DocumentNotVoidable");
  });

  it("answers 7.4 errors in the signing shape", async () => {
    const user = await as(baseUrl, seed, "user")("/esign/single/prepare-for-signing", { method: "POST", body: {} });
    expect(user.status).toBe(403);
    expect(user.json).toEqual({ message: "Forbidden" });
    const dup = await contributor("/esign/single/prepare-for-signing", {
      method: "POST",
      body: {
        fileLink: "https://example.com/x.pdf",
        recipients: [
          { name: "A", email: "a@example.com", externalId: "x" },
          { name: "B", email: "b@example.com", externalId: "x" },
        ],
      },
    });
    expect(dup.status).toBe(400);
    expect(dup.json).toEqual({ message: expect.any(String), type: "DuplicateExternalId", error: expect.any(String), code: "DuplicateExternalId" });
    const missing = await contributor("/esign/documents/00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: "Document not found", type: "DocumentNotFound" });
    const theirs = await as(baseUrl, other, "administrator")(`/esign/documents/00000000-0000-4000-8000-000000000000`);
    expect(theirs.status).toBe(404);
  });

  it("refuses an expiresAt in the past in the signing error shape, creating nothing", async () => {
    const res = await prepare({ expiresAt: new Date(Date.now() - 60_000).toISOString(), documentName: "Expired on arrival" });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      message: "expiresAt must be in the future",
      type: "ExpiresAtInPast",
      error: "expiresAt must be in the future",
      code: "ExpiresAtInPast",
    });
    const listed = await contributor(`/esign/documents?query=${encodeURIComponent("Expired on arrival")}`);
    expect(listed.json.data.totalRecords).toBe(0);
  });

  it("expires: once expiresAt passes, the signer API answers 410 document_expired and the signing page says so", async () => {
    const expiresAt = new Date(Date.now() + 4_000);
    const res = await prepare({ expiresAt: expiresAt.toISOString(), documentName: "Short-lived offer" });
    expect(res.status, res.text).toBe(200);
    const documentId = res.json.data.documentId;
    expect((await contributor(`/esign/documents/${documentId}`)).json.data.expiresAt).toBe(expiresAt.toISOString());
    const request = (await mailsTo("ada@example.com")).find((m) => m.documentId === documentId);
    expect(request?.text).toMatch(/Please sign before/);
    const token = tokenOf(/https?:\/\/\S+\/sign\/[A-Za-z0-9_-]+/.exec(request!.text)![0]);
    const ada = signer(token);
    expect((await ada.session()).json.data.state).toBe("ready");

    await new Promise((r) => setTimeout(r, expiresAt.getTime() - Date.now() + 250));
    const session = await ada.session();
    expect(session.status).toBe(200);
    expect(session.json.data.state).toBe("expired");
    const values = Object.fromEntries(session.json.data.fields.map((f: { id: string; type: string }) => [f.id, f.type === "signature" ? PNG : "Ada Lovelace"]));
    const late = await ada.sign(values);
    expect(late.status).toBe(410);
    expect(late.json).toEqual({ error: "This signing request has expired", code: "document_expired" });
    const page = await fetch(`${baseUrl}/sign/${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("This signing request has expired");
    expect((await contributor(`/esign/documents/${documentId}`)).json.data.recipients[0].signedAt).toBeNull();
  });

  it("names an anchor that is not in the document", async () => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await twoPagePdf())]), "msa.pdf");
    form.set("recipients", JSON.stringify([{ name: "A", email: "a@example.com" }]));
    form.set("fields", JSON.stringify([{ type: "signature", recipientEmail: "a@example.com", template: { anchor: "[[nowhere]]" } }]));
    const res = await contributor("/esign/single/prepare-for-signing", { method: "POST", body: form });
    expect(res.status).toBe(400);
    expect(res.json.message).toContain("[[nowhere]]");
  });

  it("accepts a DOCX, a template and a deliverable as the source", async () => {
    const templates = await contributor("/template-item?type=template&query=services%20agreement");
    const templateId = templates.json.data.results[0].id;
    const fromTemplate = await contributor("/esign/single/prepare-for-signing", {
      method: "POST",
      body: {
        templateId,
        sendEmail: false,
        recipients: [{ name: "C", email: "c@example.com" }],
        fields: [{ type: "signature", recipientEmail: "c@example.com", template: { anchor: "[[sign:client]]" } }],
      },
    });
    expect(fromTemplate.status, fromTemplate.text).toBe(200);
    const review = await contributor("/esign/single/prepare-for-review", {
      method: "POST",
      body: { templateId, recipients: [{ name: "D", email: "d@example.com" }] },
    });
    expect(review.json.data).toMatchObject({ status: "draft", previewUrl: expect.stringContaining(`${baseUrl}/esign/files/`) });
    const sent = await contributor(`/esign/documents/${review.json.data.documentId}/send`, { method: "POST" });
    expect(sent.json.data.status).toBe("sent");
  });
});

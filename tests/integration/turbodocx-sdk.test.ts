// The acceptance test of issue 20: the hosted service's own SDK (@turbodocx/sdk 0.2.0 from npm) drives
// Quire with nothing changed but its base URL: configured with base URL, API key and organization id
// (plus the sender email that SDK asks for on every configuration), no proxy. It calls /turbosign/...
// with x-rapiddocx-org-id and Content-Type: application/json on its GETs, and reads the fields its
// types declare.
import crypto from "node:crypto";
import { AuthenticationError, NotFoundError, TurboSign } from "@turbodocx/sdk";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { buildSampleContractDocx, SAMPLE_CONTRACT_ANCHORS } from "@/lib/templates/samples";
import { as, authHeaders } from "../support/api";
import { onePagePdf, PNG, pdfTool, SIGNING_LINK, signerApi, tokenOf } from "../support/esign";

const { baseUrl, seed } = inject("quire");
const admin = as(baseUrl, seed, "administrator");
const run = crypto.randomBytes(3).toString("hex");
const SENDER = "sender@quire.example";

beforeAll(() => {
  TurboSign.configure({ baseUrl, apiKey: seed.keys.contributor, orgId: seed.orgId, senderEmail: SENDER });
});

/** A PDF carrying text tags for anchors. */
async function taggedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText("Order form, signed by the client below.", { x: 50, y: 780, size: 12, font });
  page.drawText("Client signature: {ClientSign}", { x: 50, y: 300, size: 12, font });
  page.drawText("Date: {ClientDate}", { x: 50, y: 260, size: 12, font });
  return Buffer.from(await doc.save());
}

const email = (who: string) => `${who}-${run}@example.com`;
const coordinates = (recipientEmail: string) => [{ type: "signature" as const, recipientEmail, page: 1, x: 50, y: 120, width: 150, height: 40 }];

function signerOf(mails: { text: string }[], recipientEmail: string) {
  const link = mails.map((m) => SIGNING_LINK.exec(m.text)?.[0]).find(Boolean);
  expect(link, `a signing link mailed to ${recipientEmail}`).toBeTruthy();
  return signerApi(baseUrl, tokenOf(link!));
}

async function mailsTo(recipientEmail: string): Promise<{ text: string }[]> {
  return (await admin(`/api/outbox?to=${encodeURIComponent(recipientEmail)}&limit=20`)).json.data.results;
}

async function sessionOf(recipientEmail: string) {
  return (await signerOf(await mailsTo(recipientEmail), recipientEmail).session()).json.data;
}

async function signAs(recipientEmail: string): Promise<void> {
  const signer = signerOf(await mailsTo(recipientEmail), recipientEmail);
  const session = (await signer.session()).json.data;
  const values = Object.fromEntries(session.fields.map((f: { id: string; type: string }) => [f.id, f.type === "signature" ? PNG : "2026-11-26"]));
  const signed = await signer.sign(values);
  expect(signed.status, signed.text).toBe(200);
}

describe("@turbodocx/sdk against Quire", () => {
  it("createSignatureReviewLink with a file: a draft whose previewUrl a person opens without a key", async () => {
    const res = await TurboSign.createSignatureReviewLink({
      file: await onePagePdf("Review me"),
      fileName: "review.pdf",
      documentName: `SDK review ${run}`,
      recipients: [{ name: "Rita Review", email: email("rita"), signingOrder: 1 }],
      fields: coordinates(email("rita")),
    });
    expect(res).toMatchObject({ success: true, status: "draft", documentId: expect.any(String), message: expect.any(String) });
    expect(res.recipients?.map((r) => r.email)).toEqual([email("rita")]);
    const preview = await fetch(res.previewUrl!);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-type")).toBe("application/pdf");
    expect(pdfTool(Buffer.from(await preview.arrayBuffer()), "pdftotext")).toContain("Review me");
    expect((await TurboSign.getStatus(res.documentId)).status).toBe("draft");
  });

  let signedId: string;

  it("sendSignature with a file and coordinates; getStatus; a signer signs; download gives the sealed PDF", async () => {
    const res = await TurboSign.sendSignature({
      file: await onePagePdf("Coordinates agreement"),
      documentName: `SDK coordinates ${run}`,
      documentDescription: "Sent by the hosted service's SDK",
      recipients: [{ name: "Cora Coord", email: email("cora"), signingOrder: 1 }],
      fields: coordinates(email("cora")),
      ccEmails: [email("cc")],
    });
    expect(res).toMatchObject({ success: true, documentId: expect.any(String), message: expect.any(String) });
    signedId = res.documentId;
    const status = (await TurboSign.getStatus(signedId)) as { status: string; recipients: { email: string; status: string }[] };
    expect(status.status).toBe("sent");
    expect(status.recipients.map((r) => [r.email, r.status])).toEqual([[email("cora"), "ready"]]);

    await signAs(email("cora"));
    await expect.poll(async () => (await TurboSign.getStatus(signedId)).status, { timeout: 30_000 }).toBe("completed");
    const blob = await TurboSign.download(signedId);
    const bytes = Buffer.from(await blob.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdfTool(bytes, "pdfsig")).toMatch(/Signature is Valid/);
    const keyed = await fetch(`${baseUrl}/esign/documents/${signedId}/download`, { headers: authHeaders(seed, "contributor") });
    expect(bytes.equals(Buffer.from(await keyed.arrayBuffer()))).toBe(true);
  });

  it("getAuditTrail reads createdOn, user and recipient on the entries", async () => {
    const trail = await TurboSign.getAuditTrail(signedId);
    expect(trail.document).toEqual({ id: signedId, name: `SDK coordinates ${run}` });
    const byAction = Object.fromEntries(trail.auditTrail.map((e) => [e.actionType, e]));
    expect(Object.keys(byAction)).toEqual(expect.arrayContaining(["created", "sent", "viewed", "signed", "completed"]));
    for (const e of trail.auditTrail) expect(e.createdOn).toBe(e.timestamp);
    expect(byAction.created.user).toEqual({ name: expect.any(String), email: seed.login.email });
    expect(byAction.signed.recipient).toEqual({ name: "Cora Coord", email: email("cora") });
    expect(byAction.signed.user ?? null).toBeNull();
  });

  it("sendSignature with anchors (text tags) places the fields where the tags are", async () => {
    const res = await TurboSign.sendSignature({
      file: await taggedPdf(),
      documentName: `SDK anchors ${run}`,
      recipients: [{ name: "Ann Anchor", email: email("ann"), signingOrder: 1 }],
      fields: [
        { type: "signature", recipientEmail: email("ann"), template: { anchor: "{ClientSign}", placement: "replace", size: { width: 120, height: 30 } } },
        { type: "date", recipientEmail: email("ann"), template: { anchor: "{ClientDate}", placement: "replace", size: { width: 100, height: 20 } } },
      ],
    });
    expect(res.success).toBe(true);
    // Where the signer sees the fields (the signing page's session).
    const fields = (await sessionOf(email("ann"))).fields as { type: string; page: number; y: number }[];
    expect(fields.map((f) => f.type).sort()).toEqual(["date", "signature"]);
    // The tags sit low on the page (PDF y 300 and 260 from the bottom of an 842 pt page): top-left y about 540 and 580.
    const sig = fields.find((f) => f.type === "signature")!;
    expect(sig.page).toBe(1);
    expect(sig.y).toBeGreaterThan(500);
    expect(sig.y).toBeLessThan(560);
  });

  it("sendSignature with a deliverable; resend; void", async () => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await buildSampleContractDocx())]), "contract.docx");
    form.set("name", `SDK contract ${run}`);
    const template = await admin("/template", { method: "POST", body: form });
    expect(template.status, template.text).toBe(201);
    const deliverable = await admin("/v1/deliverable", {
      method: "POST",
      body: { name: `Contract ${run}`, templateId: template.json.data.id, variables: [{ placeholder: "{ClientName}", text: "Initech", mimeType: "text" }] },
    });
    expect(deliverable.status, deliverable.text).toBe(200);
    const res = await TurboSign.sendSignature({
      deliverableId: deliverable.json.data.results.deliverable.id,
      documentName: `SDK deliverable ${run}`,
      recipients: [{ name: "Dee Deliverable", email: email("dee"), signingOrder: 1 }],
      fields: [{ type: "signature", recipientEmail: email("dee"), template: { anchor: SAMPLE_CONTRACT_ANCHORS.signature, placement: "replace" } }],
    });
    expect(res.success).toBe(true);
    const id = res.documentId;
    const status = (await TurboSign.getStatus(id)) as { status: string; recipients: { id: string }[] };
    expect(status.status).toBe("sent");

    const resent = await TurboSign.resend(id, [status.recipients[0].id]);
    expect(resent).toEqual({ success: true, recipientCount: 1 });

    const voided = await TurboSign.void(id, "Superseded");
    expect(voided).toMatchObject({ id, name: `SDK deliverable ${run}`, status: "voided", voidReason: "Superseded", voidedAt: expect.any(String) });
    expect((await TurboSign.getStatus(id)).status).toBe("voided");
    const trail = await TurboSign.getAuditTrail(id);
    expect(trail.auditTrail.map((e) => e.actionType)).toEqual(["created", "sent", "resent", "voided"]);
  });

  it("maps Quire's errors to the SDK's error classes", async () => {
    await expect(TurboSign.getStatus(crypto.randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    await expect(TurboSign.download(crypto.randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    try {
      TurboSign.configure({ baseUrl, apiKey: "not-a-key", orgId: seed.orgId, senderEmail: SENDER });
      await expect(TurboSign.getStatus(signedId)).rejects.toBeInstanceOf(AuthenticationError);
    } finally {
      TurboSign.configure({ baseUrl, apiKey: seed.keys.contributor, orgId: seed.orgId, senderEmail: SENDER });
    }
  });
});

// Signing documents for browser tests, made through the public REST API as the seeded keys.
import { PDFDocument, StandardFonts } from "pdf-lib";
import { as } from "../tests/support/api";
import type { QuireTestServer } from "../tests/support/quire-server";

export interface FieldSpec {
  type: string;
  page?: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required?: boolean;
}

/** A one-page A4 PDF with a heading, so the page image has something to show. */
export async function onePagePdf(title: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText(title, { x: 50, y: 790, size: 16, font });
  return Buffer.from(await doc.save());
}

/** A unique address per run, so outbox searches see only this test's mail. */
export function uniqueEmail(who: string): string {
  return `${who}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** prepare-for-signing with one signer; returns the document id. */
export async function prepareForSigning(
  quire: QuireTestServer,
  o: { name: string; signer: { name: string; email: string; identityVerification?: unknown }; fields: FieldSpec[]; sendEmail?: boolean },
): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await onePagePdf(o.name))]), "document.pdf");
  form.set("documentName", o.name);
  form.set("senderName", "Sam Sender");
  form.set("senderEmail", "sam@example.com");
  form.set("recipients", JSON.stringify([o.signer]));
  form.set("fields", JSON.stringify(o.fields.map((f) => ({ page: 1, required: true, ...f, recipientEmail: o.signer.email }))));
  form.set("sendEmail", String(o.sendEmail ?? true));
  const res = await as(quire.baseUrl, quire.seed, "contributor")("/esign/single/prepare-for-signing", { method: "POST", body: form });
  if (res.status !== 200) throw new Error(`prepare-for-signing: ${res.status} ${res.text}`);
  return res.json.data.documentId as string;
}

/** prepare-for-review with one signer and no fields: a draft to place fields on; returns the document id. */
export async function prepareDraft(quire: QuireTestServer, o: { name: string; signer: { name: string; email: string } }): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await onePagePdf(o.name))]), "document.pdf");
  form.set("documentName", o.name);
  form.set("recipients", JSON.stringify([o.signer]));
  const res = await as(quire.baseUrl, quire.seed, "contributor")("/esign/single/prepare-for-review", { method: "POST", body: form });
  if (res.status !== 200) throw new Error(`prepare-for-review: ${res.status} ${res.text}`);
  return res.json.data.documentId as string;
}

export interface OutboxEntry {
  id: string;
  kind: string;
  subject: string;
  text: string;
}

/** The organization's emails to one address, newest first (GET /api/outbox, administrator key). */
export async function mailsTo(quire: QuireTestServer, to: string): Promise<OutboxEntry[]> {
  const res = await as(quire.baseUrl, quire.seed, "administrator")(`/api/outbox?to=${encodeURIComponent(to)}&limit=50`);
  if (res.status !== 200) throw new Error(`outbox: ${res.status} ${res.text}`);
  return res.json.data.results;
}

/** The signing link of the newest signing request to `to`. */
export async function signingLink(quire: QuireTestServer, to: string): Promise<string> {
  const request = (await mailsTo(quire, to)).find((m) => m.kind === "signing_request");
  const link = request && /https?:\/\/\S+\/sign\/[A-Za-z0-9_-]+/.exec(request.text)?.[0];
  if (!link) throw new Error(`no signing link emailed to ${to}`);
  return link;
}

export function api(quire: QuireTestServer) {
  return as(quire.baseUrl, quire.seed, "contributor");
}

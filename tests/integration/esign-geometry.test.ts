// Signed PDFs on real-world page geometries, over HTTP: fields placed by coordinates and by anchors on
// rotated, offset, cropped and UserUnit pages are stamped where they were asked (read back with
// poppler, an independent reader); the signing page's page images have the shape its overlay assumes;
// a signed PDF signed again keeps both signatures; what cannot be sealed is refused at prepare.
import fs from "node:fs";
import path from "node:path";
import { PDF } from "@libpdf/core";
import { describe, expect, inject, it } from "vitest";
import { as } from "../support/helpers";
import { ODD_PAGES, oddPdf, popplerWords } from "../support/odd-pdfs";
import { onePagePdf, PNG, signerApi, SIGNING_LINK, tokenOf } from "../support/esign";
import { pdfsig } from "../support/pdf-signatures";

const { baseUrl, seed, dataDir } = inject("quire");
const contributor = as(baseUrl, seed, "contributor");
const admin = as(baseUrl, seed, "administrator");
const run = `${Date.now().toString(36)}`;

interface SessionField {
  id: string;
  type: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

function prepare(pdf: Buffer, name: string, email: string, fields: object[]) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(pdf)]), `${name}.pdf`);
  form.set("documentName", name);
  form.set("senderName", "Sam Sender");
  form.set("senderEmail", "sam@example.com");
  form.set("recipients", JSON.stringify([{ name: "Gia Geometry", email }]));
  form.set("fields", JSON.stringify(fields));
  return contributor("/esign/single/prepare-for-signing", { method: "POST", body: form });
}

async function signingToken(email: string): Promise<string> {
  const res = await admin(`/api/outbox?to=${encodeURIComponent(email)}&limit=5`);
  const link = res.json.data.results.map((m: { text: string }) => SIGNING_LINK.exec(m.text)?.[0]).find(Boolean);
  expect(link, `a signing link for ${email}`).toBeTruthy();
  return tokenOf(link);
}

async function download(id: string): Promise<Buffer> {
  const res = await fetch(`${baseUrl}/esign/documents/${id}/download`, {
    headers: { authorization: `Bearer ${seed.keys.contributor}`, "x-service-org-id": seed.orgId },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** Prepares, signs every field with `valueOf`, and returns the sealed PDF. */
async function signAll(pdf: Buffer, name: string, email: string, fields: object[], valueOf: (f: SessionField) => string) {
  const prepared = await prepare(pdf, name, email, fields);
  expect(prepared.status, prepared.text).toBe(200);
  const signer = signerApi(baseUrl, await signingToken(email));
  const session = (await signer.session()).json.data;
  const signed = await signer.sign(Object.fromEntries(session.fields.map((f: SessionField) => [f.id, valueOf(f)])));
  expect(signed.status, signed.text).toBe(200);
  expect(signed.json.data.status).toBe("completed");
  return { id: prepared.json.data.documentId as string, session, sealed: await download(prepared.json.data.documentId) };
}

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Documents listed and files stored for signing: what a refused prepare must leave unchanged. */
async function stored(): Promise<{ documents: number; files: number }> {
  const res = await contributor("/esign/documents?limit=1");
  expect(res.status).toBe(200);
  const dir = path.join(dataDir, "files", "signing", seed.orgId);
  return { documents: res.json.data.totalRecords, files: fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).length : 0 };
}

describe("page geometry over HTTP", () => {
  let completed: Buffer;

  it("stamps coordinate and anchor fields where they were asked on every geometry, and the page images fit the overlay", async () => {
    const original = await oddPdf();
    const anchors = popplerWords(original).filter((w) => w.text.startsWith("[[sign:"));
    const email = `gia-${run}@example.com`;
    const fields = ODD_PAGES.flatMap((_, i) => [
      { type: "text", recipientEmail: email, page: i + 1, x: 40, y: 60, width: 150, height: 40 },
      { type: "text", recipientEmail: email, template: { anchor: `[[sign:p${i + 1}]]`, placement: "replace", size: { width: 150, height: 40 } } },
    ]);
    const prepared = await prepare(original, "Odd geometry", email, fields);
    expect(prepared.status, prepared.text).toBe(200);
    const signer = signerApi(baseUrl, await signingToken(email));
    const session = (await signer.session()).json.data;
    expect(session.fields).toHaveLength(ODD_PAGES.length * 2);

    // The overlay places boxes in page units over images of the same shape: every page image has
    // the aspect ratio of its page's displayed box (within a pixel), and every field lies on its page.
    expect(session.pages).toHaveLength(ODD_PAGES.length);
    for (const [i, page] of session.pages.entries()) {
      const res = await fetch(`${baseUrl}/api/signer/${await signingToken(email)}/page/${i + 1}?width=600`);
      expect(res.status).toBe(200);
      const img = pngSize(Buffer.from(await res.arrayBuffer()));
      expect(Math.abs(img.height - (img.width * page.height) / page.width), ODD_PAGES[i].label).toBeLessThanOrEqual(1);
    }
    for (const f of session.fields as SessionField[]) {
      const page = session.pages[f.page - 1];
      expect(f.x >= 0 && f.y >= 0 && f.x + f.width <= page.width + 0.01 && f.y + f.height <= page.height + 0.01, `field on page ${f.page}`).toBe(true);
    }

    // "replace" puts the field's bottom-left corner on the anchor's (a field on a vertical anchor on a
    // rotated page stays upright): poppler sees the anchor word there, in the same coordinates.
    const anchorFields = (session.fields as SessionField[]).filter((f) => !(f.x === 40 && f.y === 60));
    expect(anchorFields).toHaveLength(ODD_PAGES.length);
    for (const f of anchorFields) {
      const word = anchors.find((w) => w.page === f.page)!;
      const where = `anchor on ${ODD_PAGES[f.page - 1].label}: ${JSON.stringify({ f, word })}`;
      // Across the line MuPDF boxes a glyph by its font's ascent and descent, poppler more tightly: they
      // differ by up to the descent (0.4 em, 4 pt at the fixture's 10 pt) on whichever axis that is.
      // A field that would cross the page's edge is moved back onto the page.
      const page = session.pages[f.page - 1];
      expect(Math.abs(f.x - Math.min(word.x, page.width - f.width)), where).toBeLessThan(4.5);
      expect(Math.abs(f.y + f.height - (word.y + word.height)), where).toBeLessThan(4.5);
    }

    const valueOf = (f: SessionField) => `${f.x === 40 && f.y === 60 ? "COORD" : "ANCHOR"}${f.page}`;
    const signed = await signer.sign(Object.fromEntries(session.fields.map((f: SessionField) => [f.id, valueOf(f)])));
    expect(signed.status, signed.text).toBe(200);
    completed = await download(prepared.json.data.documentId);

    const words = popplerWords(completed);
    for (const f of session.fields as SessionField[]) {
      const w = words.find((x) => x.page === f.page && x.text === valueOf(f));
      expect(w, `${valueOf(f)} on ${ODD_PAGES[f.page - 1].label}`).toBeDefined();
      expect(w!.width, `${valueOf(f)} upright`).toBeGreaterThan(w!.height);
      expect(Math.abs(w!.x - (f.x + 1)), `${valueOf(f)} x`).toBeLessThan(2);
      expect(w!.y).toBeGreaterThan(f.y - 2);
      expect(w!.y + w!.height).toBeLessThan(f.y + f.height + 2);
    }
    expect(
      words.filter((w) => w.text.includes("[[sign:")),
      "consumed anchors are hidden",
    ).toEqual([]);
    expect(pdfsig(completed)).toMatch(/Signature is Valid/);
  });

  it("refuses a field that does not fit its page with a 400 naming it, and stores nothing", async () => {
    const before = await stored();
    const email = `off-${run}@example.com`;
    const res = await prepare(await oddPdf(ODD_PAGES.slice(0, 2)), "Off the page", email, [
      { type: "signature", recipientEmail: email, page: 1, x: 40, y: 60, width: 150, height: 40 },
      { type: "signature", recipientEmail: email, page: 2, x: 5000, y: 60, width: 150, height: 40 },
    ]);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "FieldOutOfPage", type: "FieldOutOfPage" });
    expect(res.json.message).toMatch(/fields\.1/);
    expect(await stored()).toEqual(before);
  });

  it("signs a completed Quire PDF again: pdfsig reports both signatures valid, under distinct names", async () => {
    expect(completed, "the first test's sealed PDF").toBeDefined();
    const email = `second-round-${run}@example.com`;
    const { sealed } = await signAll(
      completed,
      "Second round",
      email,
      [{ type: "signature", recipientEmail: email, page: 1, x: 300, y: 120, width: 150, height: 40 }],
      () => PNG,
    );
    expect(sealed.subarray(0, completed.length).equals(completed), "the first seal's bytes are kept").toBe(true);
    const report = pdfsig(sealed);
    expect(report.match(/Signature is Valid/g)).toHaveLength(2);
    expect(report).not.toMatch(/Digest Mismatch|Signature is Invalid/);
    const names = [...report.matchAll(/Signature Field Name: (.+)/g)].map((m) => m[1]);
    expect(new Set(names).size).toBe(2);
  });
});

describe("what can and cannot be sealed is decided at prepare", () => {
  it("signs an encrypted PDF whose user password is empty", async () => {
    const doc = PDF.create();
    doc.addPage({ size: "a4" }).drawText("Encrypted agreement", { x: 50, y: 700, size: 14 });
    doc.setProtection({ userPassword: "", ownerPassword: "owner-secret", permissions: { modify: false } });
    const email = `encrypted-${run}@example.com`;
    const { sealed } = await signAll(
      Buffer.from(await doc.save()),
      "Encrypted",
      email,
      [{ type: "full_name", recipientEmail: email, page: 1, x: 50, y: 200, width: 200, height: 20 }],
      () => "Eve Encrypted",
    );
    expect(pdfsig(sealed)).toMatch(/Signature is Valid/);
    expect(popplerWords(sealed).map((w) => w.text)).toContain("Eve");
  });

  it("refuses a password-protected PDF and a damaged one with their codes, storing nothing", async () => {
    const locked = PDF.create();
    locked.addPage({ size: "a4" }).drawText("Secret", { x: 50, y: 700, size: 14 });
    locked.setProtection({ userPassword: "open-sesame", ownerPassword: "owner-secret" });
    const good = await onePagePdf();
    // A real header and a real first object, then the rest of the file lost (a truncated download).
    const damaged = Buffer.concat([good.subarray(0, 40), Buffer.from("\n%%garbage\x00\x01\x02 obj << /Type /Catalog")]);
    const before = await stored();
    const email = `refused-${run}@example.com`;
    const field = [{ type: "signature", recipientEmail: email, page: 1, x: 50, y: 100, width: 150, height: 40 }];
    for (const [pdf, code, words] of [
      [Buffer.from(await locked.save()), "PdfPasswordProtected", /password/i],
      [damaged, "PdfDamaged", /damaged/i],
    ] as const) {
      const res = await prepare(pdf, code, email, field);
      expect([400, 422], res.text).toContain(res.status);
      expect(res.json).toEqual({ message: expect.stringMatching(words), type: code, error: expect.any(String), code });
      expect(res.json.message).not.toMatch(/Command Line Error|mupdf|format error/i);
      const review = await contributor("/esign/single/prepare-for-review", { method: "POST", body: formOf(pdf, email) });
      expect(review.json.code).toBe(code);
    }
    expect(await stored()).toEqual(before);
    const mails = await admin(`/api/outbox?to=${encodeURIComponent(email)}&limit=5`);
    expect(mails.json.data.results).toEqual([]);
  });
});

function formOf(pdf: Buffer, email: string): FormData {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(pdf)]), "review.pdf");
  form.set("documentName", "Review");
  form.set("recipients", JSON.stringify([{ name: "R", email }]));
  return form;
}

// The completed-document PDF on every page geometry: values stamped upright where they were asked
// (checked with poppler, an independent reader), consumed anchors removed, earlier signatures kept,
// encrypted originals, and the PAdES seal checked by pdfsig and by openssl (CMS and timestamp token).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDF } from "@libpdf/core";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAnchors } from "@/lib/pdf/anchors";
import { pageGeometry } from "@/lib/pdf/geometry";
import { loadOrCreateSigningCertificate, type SigningCertificate } from "@/lib/pdf/instance-certificate";
import { sealCompletedDocument, type StampField } from "@/lib/pdf/seal";
import { displayedSize, ODD_PAGES, oddPdf, popplerWords } from "../support/odd-pdfs";
import { pdfsig, SIGNING_CERTIFICATE_V2, signaturesOf, signedAttributeTypes, verifyCms, verifySignatureTimestamp } from "../support/pdf-signatures";
import { type LocalTsa, startLocalTsa } from "../support/tsa";

const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

let cert: SigningCertificate;
let tsa: LocalTsa;

beforeAll(async () => {
  cert = await loadOrCreateSigningCertificate({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "quire-cert-")) });
  tsa = await startLocalTsa();
});
afterAll(() => tsa?.close());

function seal(
  original: Buffer,
  fields: StampField[],
  extra: {
    hide?: (StampField | { page: number; x: number; y: number; width: number; height: number })[];
    tsaUrl?: string;
    id?: string;
    logo?: Buffer;
  } = {},
) {
  return sealCompletedDocument({
    original,
    fields,
    hide: extra.hide,
    tsaUrl: extra.tsaUrl,
    certificate: {
      documentName: "Agreement",
      documentId: extra.id ?? "4f1c2d3e-0000-4000-8000-000000000001",
      completedAt: new Date("2026-11-22T12:00:00Z"),
      sender: extra.logo ? { name: "Acme Homes", footer: null, logo: extra.logo } : undefined,
      signers: [
        {
          name: "Zoë Ångström",
          email: "zoe@example.com",
          signedAt: new Date("2026-11-22T11:59:00Z"),
          ip: "203.0.113.9",
          userAgent: "Mozilla/5.0 ".repeat(20),
          verification: "email passcode",
        },
      ],
    },
    signing: { p12: cert.p12, password: cert.password, name: "Quire" },
  });
}

describe("page geometry", () => {
  it("is the displayed box in page units on every geometry", async () => {
    const geometry = await pageGeometry(await oddPdf());
    ODD_PAGES.forEach((spec, i) => {
      const want = displayedSize(spec);
      expect({ label: spec.label, width: geometry[i].width, height: geometry[i].height }).toEqual({ label: spec.label, ...want });
    });
  });
});

describe("sealCompletedDocument", () => {
  it("stamps coordinate and anchor fields within 2 pt of where they were asked on every geometry, and removes the anchors", async () => {
    const original = await oddPdf();
    const hits = await findAnchors(
      original,
      ODD_PAGES.map((_, i) => ({ anchor: `[[sign:p${i + 1}]]`, size: { width: 150, height: 40 } })),
    );
    const before = popplerWords(original);
    const fields: StampField[] = [];
    const hide = [];
    for (const [i, [hit]] of hits.entries()) {
      // poppler and MuPDF agree on where the anchor is: MuPDF's box (full font height) holds poppler's.
      const anchorWord = before.find((w) => w.page === i + 1 && w.text === `[[sign:p${i + 1}]]`)!;
      expect(hit.page).toBe(i + 1);
      expect(anchorWord.x).toBeGreaterThan(hit.match.x - 1);
      expect(anchorWord.y).toBeGreaterThan(hit.match.y - 1);
      expect(anchorWord.x + anchorWord.width).toBeLessThan(hit.match.x + hit.match.width + 1);
      expect(anchorWord.y + anchorWord.height).toBeLessThan(hit.match.y + hit.match.height + 1);
      fields.push({ page: i + 1, x: 40, y: 60, width: 150, height: 40, type: "text", value: `COORD${i + 1}` });
      fields.push({ page: hit.page, x: hit.x, y: hit.y, width: hit.width, height: hit.height, type: "signature", value: `ANCHOR${i + 1}` });
      hide.push({ page: hit.page, ...hit.match });
    }
    const { pdf } = await seal(original, fields, { hide });
    const words = popplerWords(pdf);
    for (const f of fields) {
      const w = words.find((x) => x.page === f.page && x.text === f.value);
      expect(w, `${f.value} on ${ODD_PAGES[f.page - 1].label}`).toBeDefined();
      // Upright (a horizontal word is wider than tall) and inside the field box, starting at its left.
      expect(w!.width).toBeGreaterThan(w!.height);
      expect(Math.abs(w!.x - (f.x + 1))).toBeLessThan(2);
      expect(w!.y).toBeGreaterThan(f.y - 2);
      expect(w!.y + w!.height).toBeLessThan(f.y + f.height + 2);
    }
    expect(words.filter((w) => w.text.includes("[[sign:"))).toEqual([]);
    // The rest of the anchor's line is still there.
    expect(words.filter((w) => w.text === "Sign:").length).toBe(ODD_PAGES.length);
    expect(pdfsig(pdf)).toMatch(/Signature is Valid/);
  });

  it("appends to the original: a sealed PDF sealed again keeps both signatures valid, with distinct field names", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([595, 842]).drawText("Agreement [[sign:client]]", { x: 50, y: 780, size: 14, font });
    const original = Buffer.from(await doc.save());
    const first = await seal(original, [
      { page: 1, x: 50, y: 100, width: 200, height: 20, type: "full_name", value: "Zoë Ångström" },
      { page: 1, x: 50, y: 140, width: 20, height: 20, type: "checkbox", value: "true" },
      { page: 1, x: 50, y: 180, width: 200, height: 20, type: "text", value: "Łukasz Żółć" },
      { page: 1, x: 300, y: 100, width: 160, height: 40, type: "signature", value: PNG },
    ]);
    expect(first.pdf.subarray(0, original.length).equals(original)).toBe(true);
    const second = await seal(first.pdf, [{ page: 1, x: 50, y: 300, width: 200, height: 20, type: "text", value: "Second round" }], {
      id: "4f1c2d3e-0000-4000-8000-000000000002",
    });
    expect(second.pdf.subarray(0, first.pdf.length).equals(first.pdf)).toBe(true);
    const report = pdfsig(second.pdf);
    expect(report.match(/Signature is Valid/g)).toHaveLength(2);
    const names = [...report.matchAll(/Signature Field Name: (.+)/g)].map((m) => m[1]);
    expect(new Set(names).size).toBe(2);
    const text = popplerWords(second.pdf)
      .map((w) => w.text)
      .join(" ");
    expect(text).toContain("Zoë"); // WinAnsi: a standard font
    expect(text).toContain("Łukasz"); // beyond WinAnsi: the embedded Unicode font
    expect(text).toContain("Certificate of completion".split(" ")[0]);
    expect((await PDF.load(second.pdf)).getPageCount()).toBe(3);
    // Tampering with a byte the first seal covers breaks it.
    const tampered = Buffer.from(second.pdf);
    tampered[tampered.indexOf("Agreement")] = "B".charCodeAt(0);
    expect(pdfsig(tampered)).not.toMatch(/Signature is Valid[\s\S]*Signature is Valid/);
  });

  it("draws the organization's logo on the certificate page, and seals without it when the logo cannot be read", async () => {
    const doc = await PDFDocument.create();
    doc.addPage([595, 842]);
    const original = Buffer.from(await doc.save());
    const logo = Buffer.from(PNG.slice("data:image/png;base64,".length), "base64");
    const images = (pdf: Buffer) => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-logo-")), "sealed.pdf");
      fs.writeFileSync(file, pdf);
      // pdfimages -list: "page num type width height ..." after two header lines.
      return execFileSync("pdfimages", ["-list", file], { encoding: "utf8" })
        .split("\n")
        .slice(2)
        .filter(Boolean)
        .map((row) => row.trim().split(/\s+/).slice(0, 5).join(" "));
    };
    const branded = await seal(original, [], { logo });
    expect(images(branded.pdf)).toContain("2 0 image 1 1");
    const broken = await seal(original, [], { logo: Buffer.from("\x89PNG not really") });
    expect(images(broken.pdf)).toEqual([]);
    expect(pdfsig(broken.pdf)).toMatch(/Signature is Valid/);
  });

  it("seals an encrypted PDF whose user password is empty, incrementally", async () => {
    const doc = PDF.create();
    doc.addPage({ size: "a4" }).drawText("Encrypted agreement", { x: 50, y: 700, size: 14 });
    doc.setProtection({ userPassword: "", ownerPassword: "owner-secret", permissions: { modify: false } });
    const original = Buffer.from(await doc.save());
    const { pdf } = await seal(original, [{ page: 1, x: 50, y: 200, width: 200, height: 20, type: "text", value: "Stamped" }]);
    expect(pdf.subarray(0, original.length).equals(original)).toBe(true);
    expect(pdfsig(pdf)).toMatch(/Signature is Valid/);
    expect(popplerWords(pdf).map((w) => w.text)).toContain("Stamped");
  });

  it("is PAdES B-B without a time-stamping service and B-LT with one; openssl verifies the CMS and the timestamp token", async () => {
    const original = await oddPdf(ODD_PAGES.slice(0, 2));
    const basic = await seal(original, []);
    expect(basic.level).toBe("PAdES-B-B");
    const [b] = signaturesOf(basic.pdf);
    expect(b.subFilter).toBe("ETSI.CAdES.detached");
    expect(signedAttributeTypes(b.cms)).toContain(SIGNING_CERTIFICATE_V2);
    expect(verifyCms(b)).toMatchObject({ ok: true });
    expect(verifySignatureTimestamp(b, tsa.caFile).present).toBe(false);

    const before = tsa.requests();
    const stamped = await seal(original, [], { tsaUrl: tsa.url });
    expect(stamped.level).toBe("PAdES-B-LT");
    expect(tsa.requests()).toBeGreaterThan(before);
    expect(pdfsig(stamped.pdf)).toMatch(/Signature is Valid/);
    const [s] = signaturesOf(stamped.pdf);
    expect(verifyCms(s)).toMatchObject({ ok: true });
    const ts = verifySignatureTimestamp(s, tsa.caFile, tsa.tsaCertFile);
    expect(ts.output).toMatch(/Verification: OK/);
    expect(ts).toMatchObject({ present: true, ok: true });
    // B-LT: the validation data sits in a DSS after the signature.
    expect(stamped.pdf.toString("latin1")).toMatch(/\/DSS\s/);
    // The certificate page names the level.
    expect(
      popplerWords(stamped.pdf)
        .map((w) => w.text)
        .join(" "),
    ).toContain("B-LT");
  });
});

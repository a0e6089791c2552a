// Turns a signed-off document into its final PDF: every value stamped in place, a certificate of
// completion appended, and a PKCS#7 detached digital signature over the whole file.
import crypto from "node:crypto";
import fs from "node:fs";
import fontkit from "@pdf-lib/fontkit";
import { P12Signer } from "@signpdf/signer-p12";
import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import signpdf from "@signpdf/signpdf";
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";

export interface StampField {
  /** 1-based page; x, y, width, height in points from the page's top-left. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  type: string;
  /** Signatures/initials: a PNG data URL (drawn) or the typed text. Checkbox: "true"/"false". */
  value: string;
  /** The field replaced a text anchor: paint over the anchor first. */
  coverAnchor?: boolean;
}

export interface CertificateSigner {
  name: string;
  email: string;
  signedAt: Date;
  ip: string;
  userAgent: string;
  verification: string;
}

export interface SealRequest {
  original: Buffer;
  fields: StampField[];
  certificate: { documentName: string; documentId: string; completedAt: Date; signers: CertificateSigner[] };
  signing: { p12: Buffer; password: string; name: string };
}

const FONT_DIR = "/usr/share/fonts/truetype/dejavu";

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  script: PDFFont;
  unicode: boolean;
}

async function loadFonts(doc: PDFDocument): Promise<Fonts> {
  const file = (name: string) => `${FONT_DIR}/${name}`;
  if (fs.existsSync(file("DejaVuSans.ttf"))) {
    // Unicode names (Zoë, Ångström, Łukasz) need a TrueType font; the standard 14 are WinAnsi only.
    doc.registerFontkit(fontkit);
    const embed = (name: string, fallback: string) => doc.embedFont(fs.readFileSync(fs.existsSync(file(name)) ? file(name) : file(fallback)), { subset: true });
    return { regular: await embed("DejaVuSans.ttf", "DejaVuSans.ttf"), bold: await embed("DejaVuSans-Bold.ttf", "DejaVuSans.ttf"), script: await embed("DejaVuSerif-Italic.ttf", "DejaVuSerif.ttf"), unicode: true };
  }
  return { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold), script: await doc.embedFont(StandardFonts.TimesRomanItalic), unicode: false };
}

function printable(text: string, fonts: Fonts): string {
  const flat = text.replace(/[\r\n\t]+/g, " ");
  return fonts.unicode ? flat : flat.normalize("NFKD").replace(/[^\x20-\x7e]/g, "?");
}

function fitText(page: PDFPage, text: string, font: PDFFont, box: { x: number; y: number; width: number; height: number }) {
  let size = Math.min(14, box.height * 0.75);
  while (size > 6 && font.widthOfTextAtSize(text, size) > box.width) size -= 0.5;
  page.drawText(text, { x: box.x + 1, y: box.y + (box.height - size) / 2 + size * 0.2, size, font, color: rgb(0.05, 0.1, 0.3), maxWidth: box.width });
}

async function stamp(doc: PDFDocument, fields: StampField[], fonts: Fonts): Promise<void> {
  const pages = doc.getPages();
  for (const f of fields) {
    const page = pages[f.page - 1];
    if (!page) continue;
    const box = { x: f.x, y: page.getHeight() - f.y - f.height, width: f.width, height: f.height };
    if (f.coverAnchor) page.drawRectangle({ ...box, color: rgb(1, 1, 1) });
    if ((f.type === "signature" || f.type === "initial") && f.value.startsWith("data:image/png;base64,")) {
      const image = await doc.embedPng(Buffer.from(f.value.slice("data:image/png;base64,".length), "base64"));
      const scale = Math.min(box.width / image.width, box.height / image.height);
      const w = image.width * scale;
      const h = image.height * scale;
      page.drawImage(image, { x: box.x + (box.width - w) / 2, y: box.y + (box.height - h) / 2, width: w, height: h });
    } else if (f.type === "checkbox") {
      if (f.value === "true") fitText(page, "X", fonts.bold, box);
    } else {
      fitText(page, printable(f.value, fonts), f.type === "signature" || f.type === "initial" ? fonts.script : fonts.regular, box);
    }
  }
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width) line = next;
    else {
      if (line) lines.push(line);
      line = word;
      while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
  }
  if (line) lines.push(line);
  return lines;
}

function appendCertificate(doc: PDFDocument, cert: SealRequest["certificate"], documentHash: string, fonts: Fonts): void {
  const [width, height] = [595.28, 841.89];
  const margin = 50;
  let page = doc.addPage([width, height]);
  let y = height - margin;
  const line = (text: string, opts: { size?: number; bold?: boolean; gap?: number } = {}) => {
    const size = opts.size ?? 10;
    const font = opts.bold ? fonts.bold : fonts.regular;
    for (const part of wrap(printable(text, fonts), font, size, width - 2 * margin)) {
      if (y < margin + size) {
        page = doc.addPage([width, height]);
        y = height - margin;
      }
      page.drawText(part, { x: margin, y, size, font, color: rgb(0.1, 0.1, 0.15) });
      y -= size * 1.4;
    }
    y -= opts.gap ?? 0;
  };
  line("Certificate of completion", { size: 18, bold: true, gap: 8 });
  line(`Document: ${cert.documentName}`);
  line(`Document id: ${cert.documentId}`);
  line(`SHA-256 of the document as sent: ${documentHash}`);
  line(`Completed: ${cert.completedAt.toISOString()}`, { gap: 10 });
  for (const [i, s] of cert.signers.entries()) {
    line(`Signer ${i + 1}: ${s.name} <${s.email}>`, { bold: true, size: 11 });
    line(`Signed: ${s.signedAt.toISOString()}   IP address: ${s.ip}   Verification: ${s.verification}`);
    line(`Browser: ${s.userAgent}`, { gap: 8 });
  }
  line("This document is digitally signed by Quire; any change after signing invalidates the signature.", { size: 8 });
}

export async function sealCompletedDocument(req: SealRequest): Promise<{ pdf: Buffer; documentHash: string }> {
  const documentHash = crypto.createHash("sha256").update(req.original).digest("hex");
  const doc = await PDFDocument.load(req.original, { updateMetadata: false });
  const fonts = await loadFonts(doc);
  await stamp(doc, req.fields, fonts);
  appendCertificate(doc, req.certificate, documentHash, fonts);
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: `Signed by all parties: ${req.certificate.documentName}`.slice(0, 200),
    contactInfo: "",
    name: req.signing.name,
    location: "",
    signatureLength: 16_384,
    appName: "Quire",
  });
  // Classic cross-reference tables: the signer patches the byte range in place.
  const unsigned = Buffer.from(await doc.save({ useObjectStreams: false }));
  const signed = await signpdf.sign(unsigned, new P12Signer(req.signing.p12, { passphrase: req.signing.password }));
  return { pdf: Buffer.from(signed), documentHash };
}

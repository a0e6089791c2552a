// Turns a signed-off document into its final PDF, appended to the original as incremental updates so
// that every signature already in the file stays valid:
//   1. consumed text anchors are removed (MuPDF redaction: the glyphs go, not just painted over);
//   2. form fields are flattened into the page (unsigned documents) so the seal covers what they show;
//   3. every value is stamped upright where lib/pdf/geometry.ts says its field is, on any page geometry;
//   4. a certificate of completion is appended;
//   5. a PAdES signature (ETSI.CAdES.detached) seals the whole: B-B, or B-LT with an RFC 3161
//      signature timestamp and the validation data when a time-stamping service is configured.
// Writing is @libpdf/core's (incremental saves, PAdES, timestamps); reading is MuPDF's (engine.ts).
import crypto from "node:crypto";
import fs from "node:fs";
import {
  type EmbeddedFont,
  HttpTimestampAuthority,
  P12Signer,
  PDF,
  type PDFPage,
  rgb,
  Standard14Font,
  type Standard14FontName,
  StandardFonts,
} from "@libpdf/core";
import { log } from "@/lib/log";
import { withPdf } from "@/lib/pdf/engine";
import { documentGeometry, type PageGeometry, placement, type Rect } from "@/lib/pdf/geometry";

export interface StampField extends Rect {
  /** 1-based page; x, y, width, height in displayed page units from the top-left (geometry.ts). */
  page: number;
  type: string;
  /** Signatures/initials: a PNG data URL (drawn) or the typed text. Checkbox: "true"/"false". */
  value: string;
}

export interface CertificateSigner {
  name: string;
  email: string;
  /** When their signing request was first emailed (else when the document was sent); null if never. */
  sentAt?: Date | null;
  /** When they first opened the signing page. */
  viewedAt?: Date | null;
  signedAt: Date;
  ip: string;
  userAgent: string;
  verification: string;
}

export type SealLevel = "PAdES-B-B" | "PAdES-B-LT";

export interface SealRequest {
  original: Buffer;
  fields: StampField[];
  /** Anchor text to remove from the output (pages 1-based, displayed coordinates). */
  hide?: (Rect & { page: number })[];
  certificate: {
    documentName: string;
    documentId: string;
    completedAt: Date;
    signers: CertificateSigner[];
    /** The sending organization's branding: its display name, footer and logo (PNG or JPEG; lib/orgs/branding.ts). */
    sender?: { name: string | null; footer: string | null; logo?: Buffer | null };
  };
  signing: { p12: Buffer; password: string; name: string };
  /** RFC 3161 time-stamping service (TSA_URL): B-LT instead of B-B. */
  tsaUrl?: string | null;
}

export function sealLevel(tsaUrl: string | null | undefined): SealLevel {
  return tsaUrl ? "PAdES-B-LT" : "PAdES-B-B";
}

const FONT_DIR = "/usr/share/fonts/truetype/dejavu";
const INK = rgb(0.05, 0.1, 0.3);

interface Font {
  draw: EmbeddedFont | Standard14FontName;
  width(text: string, size: number): number;
  unicode: boolean;
}

/** One typeface: the standard PDF font for text it can encode, else an embedded Unicode font. */
interface Face {
  for(text: string): Font;
}

interface Fonts {
  regular: Face;
  bold: Face;
  script: Face;
}

// What the standard 14 fonts can show (WinAnsiEncoding is Windows-1252), printable characters only.
const WIN_ANSI = new Set(new TextDecoder("windows-1252").decode(Uint8Array.from({ length: 224 }, (_, i) => i + 32)).replace(/[\u007f-\u009f]/g, ""));

/**
 * Standard fonts cost nothing to add; an embedded TrueType font costs ~50 ms of subsetting at save
 * per face. So a face embeds its Unicode font (Zoë is WinAnsi, Łukasz and 山田 are not) only the
 * first time a text needs it.
 */
function loadFonts(doc: PDF): Fonts {
  const file = (name: string) => `${FONT_DIR}/${name}`;
  const unicode = fs.existsSync(file("DejaVuSans.ttf"));
  const face = (standardName: Standard14FontName, ttf: string, fallback: string): Face => {
    const metrics = Standard14Font.of(standardName);
    const standard: Font = { draw: standardName, width: (t, s) => metrics.widthOfTextAtSize(t, s), unicode: false };
    let embedded: Font | null = null;
    return {
      for(text) {
        if (!unicode || [...text].every((c) => WIN_ANSI.has(c))) return standard;
        if (!embedded) {
          const font = doc.embedFont(fs.readFileSync(fs.existsSync(file(ttf)) ? file(ttf) : file(fallback)));
          embedded = { draw: font, width: (t, s) => font.widthOfTextAtSize(t, s), unicode: true };
        }
        return embedded;
      },
    };
  };
  return {
    regular: face(StandardFonts.Helvetica, "DejaVuSans.ttf", "DejaVuSans.ttf"),
    bold: face(StandardFonts.HelveticaBold, "DejaVuSans-Bold.ttf", "DejaVuSans.ttf"),
    script: face(StandardFonts.TimesItalic, "DejaVuSerif-Italic.ttf", "DejaVuSerif.ttf"),
  };
}

function printable(text: string, font: Font): string {
  const flat = text.replace(/[\r\n\t]+/g, " ");
  return font.unicode ? flat : [...flat.normalize("NFKC")].map((c) => (WIN_ANSI.has(c) ? c : "?")).join("");
}

/** Draws `text` upright inside the displayed box, shrinking it to fit. */
function fitText(page: PDFPage, geometry: PageGeometry, text: string, font: Font, box: Rect): void {
  let size = Math.min(14, box.height * 0.75);
  while (size > 4 && font.width(text, size) > box.width - 2) size -= 0.5;
  const baseline = (box.height - size) / 2 + size * 0.2;
  // The text's own origin: 1 unit in from the box's left, `baseline` up from its bottom (displayed).
  const at = placement(geometry, { x: box.x + 1, y: box.y, width: box.width, height: box.height - baseline });
  page.drawText(text, { x: at.x, y: at.y, size, font: font.draw, color: INK, rotate: { angle: at.angle, origin: { x: at.x, y: at.y } } });
}

function stamp(doc: PDF, geometry: PageGeometry[], fields: StampField[], fonts: Fonts): void {
  const pages = doc.getPages();
  for (const f of fields) {
    const page = pages[f.page - 1];
    const g = geometry[f.page - 1];
    if (!page || !g) continue;
    if ((f.type === "signature" || f.type === "initial") && f.value.startsWith("data:image/png;base64,")) {
      const image = doc.embedPng(Buffer.from(f.value.slice("data:image/png;base64,".length), "base64"));
      const scale = Math.min(f.width / image.width, f.height / image.height);
      const w = image.width * scale;
      const h = image.height * scale;
      const at = placement(g, { x: f.x + (f.width - w) / 2, y: f.y + (f.height - h) / 2, width: w, height: h });
      page.drawImage(image, { x: at.x, y: at.y, width: w, height: h, rotate: { angle: at.angle, origin: { x: at.x, y: at.y } } });
    } else if (f.type === "checkbox") {
      if (f.value === "true") fitText(page, g, "X", fonts.bold.for("X"), f);
    } else {
      const font = (f.type === "signature" || f.type === "initial" ? fonts.script : fonts.regular).for(f.value);
      fitText(page, g, printable(f.value, font), font, f);
    }
  }
}

function wrap(text: string, font: Font, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (font.width(next, size) <= width) line = next;
    else {
      if (line) lines.push(line);
      line = word;
      while (font.width(line, size) > width && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && font.width(line.slice(0, cut), size) > width) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
  }
  if (line) lines.push(line);
  return lines;
}

function appendCertificate(doc: PDF, cert: SealRequest["certificate"], documentHash: string, level: SealLevel, fonts: Fonts): void {
  const [width, height] = [595.28, 841.89];
  const margin = 50;
  let page = doc.addPage({ width, height });
  let y = height - margin;
  const line = (text: string, opts: { size?: number; bold?: boolean; gap?: number } = {}) => {
    const size = opts.size ?? 10;
    const font = (opts.bold ? fonts.bold : fonts.regular).for(text);
    for (const part of wrap(printable(text, font), font, size, width - 2 * margin)) {
      if (y < margin + size) {
        page = doc.addPage({ width, height });
        y = height - margin;
      }
      page.drawText(part, { x: margin, y, size, font: font.draw, color: rgb(0.1, 0.1, 0.15) });
      y -= size * 1.4;
    }
    y -= opts.gap ?? 0;
  };
  if (cert.sender?.logo) {
    // The logo above the title, fitted in 160 x 48 pt (never enlarged past its own size). An image the
    // PDF writer cannot read is left out: a logo must never stop a document from being sealed.
    try {
      const logo = doc.embedImage(cert.sender.logo);
      const fit = Math.min(1, 160 / logo.widthInPoints, 48 / logo.heightInPoints);
      const [w, h] = [logo.widthInPoints * fit, logo.heightInPoints * fit];
      page.drawImage(logo, { x: margin, y: y - h, width: w, height: h });
      y -= h + 16;
    } catch (err) {
      log.warn({ err: (err as Error).message }, "the organization's logo could not be drawn on the certificate");
    }
  }
  line("Certificate of completion", { size: 18, bold: true, gap: 8 });
  line(`Document: ${cert.documentName}`);
  if (cert.sender?.name) line(`Sent by: ${cert.sender.name}`);
  line(`Document id: ${cert.documentId}`);
  line(`SHA-256 of the document as sent: ${documentHash}`);
  line(`Completed: ${cert.completedAt.toISOString()}`);
  line(
    `Seal: ${level === "PAdES-B-LT" ? "PAdES B-LT (signature timestamp from a trusted time-stamping service, validation data embedded)" : "PAdES B-B (no trusted timestamp)"}`,
    { gap: 10 },
  );
  for (const [i, s] of cert.signers.entries()) {
    line(`Signer ${i + 1}: ${s.name} <${s.email}>`, { bold: true, size: 11 });
    const at = (d: Date | null | undefined) => d?.toISOString() ?? "not recorded";
    line(`Sent: ${at(s.sentAt)}   Viewed: ${at(s.viewedAt)}   Signed: ${s.signedAt.toISOString()}`);
    line(`IP address: ${s.ip}   Verification: ${s.verification}`);
    line(`Browser: ${s.userAgent}`, { gap: 8 });
  }
  line("This document is digitally signed by Quire; any change after signing invalidates the signature.", { size: 8, gap: 6 });
  if (cert.sender?.footer) line(cert.sender.footer, { size: 8 });
}

/**
 * Removes the anchors' glyphs with MuPDF redactions, appended as an incremental update, and reads
 * the page geometry on the way. A file MuPDF cannot update incrementally keeps its anchors (the
 * stamps still cover the field boxes); the seal itself never depends on this step.
 */
async function removeAnchors(original: Buffer, hide: NonNullable<SealRequest["hide"]>): Promise<{ bytes: Buffer; geometry: PageGeometry[] }> {
  return withPdf(original, (doc) => {
    const geometry = documentGeometry(doc);
    if (hide.length === 0) return { bytes: original, geometry };
    try {
      for (const h of hide) {
        const page = doc.loadPage(h.page - 1) as import("mupdf").PDFPage;
        const unit = geometry[h.page - 1].userUnit;
        // Redaction rectangles are in MuPDF's displayed points; shrink slightly so neighbours stay.
        const annot = page.createAnnotation("Redact");
        annot.setRect([(h.x + 0.5) * unit, (h.y + 0.5) * unit, (h.x + h.width - 0.5) * unit, (h.y + h.height - 0.5) * unit]);
        page.applyRedactions(false, 0);
      }
      return { bytes: Buffer.from(doc.saveToBuffer("incremental").asUint8Array()), geometry };
    } catch (err) {
      log.warn({ err: (err as Error).message }, "anchors could not be removed from the signed PDF");
      return { bytes: original, geometry };
    }
  });
}

/** A field name no earlier signature uses (Documenso-style "Signature1" twice breaks readers). */
function uniqueFieldName(doc: PDF, documentId: string): string {
  const taken = new Set((doc.getForm()?.getFields() ?? []).map((f) => f.name));
  const base = `Quire seal ${documentId.slice(0, 8)}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base} (${n})`;
  return name;
}

/**
 * The document as it stands while signers are still signing: steps 1-3 only (no certificate, no seal),
 * what the signing page shows and what a signer downloads as their copy before everyone has signed.
 */
export async function stampValues(req: Pick<SealRequest, "original" | "fields" | "hide">): Promise<Buffer> {
  if (req.fields.length === 0 && !req.hide?.length) return req.original;
  const { bytes, geometry } = await removeAnchors(req.original, req.hide ?? []);
  const doc = await PDF.load(bytes, { credentials: "" });
  const form = doc.getForm();
  if (form && !form.getSignatureFields().some((f) => f.isSigned())) form.flatten({ skipSignatures: true });
  stamp(doc, geometry, req.fields, loadFonts(doc));
  return Buffer.from(await doc.save({ incremental: true }));
}

export async function sealCompletedDocument(req: SealRequest): Promise<{ pdf: Buffer; documentHash: string; level: SealLevel }> {
  const documentHash = crypto.createHash("sha256").update(req.original).digest("hex");
  const level = sealLevel(req.tsaUrl);
  const { bytes, geometry } = await removeAnchors(req.original, req.hide ?? []);
  const doc = await PDF.load(bytes, { credentials: "" });
  const form = doc.getForm();
  // An unsigned form is flattened so the seal covers what its fields show and nobody edits them
  // afterwards; a form someone already signed is left as it is (flattening would alter what they signed).
  if (form && !form.getSignatureFields().some((f) => f.isSigned())) form.flatten({ skipSignatures: true });
  const fonts = loadFonts(doc);
  stamp(doc, geometry, req.fields, fonts);
  appendCertificate(doc, req.certificate, documentHash, level, fonts);
  const signer = await P12Signer.create(req.signing.p12, req.signing.password);
  const { bytes: signed, warnings } = await doc.sign({
    signer,
    fieldName: uniqueFieldName(doc, req.certificate.documentId),
    reason: `Signed by all parties: ${req.certificate.documentName}`.slice(0, 200),
    location: "",
    contactInfo: "",
    subFilter: "ETSI.CAdES.detached",
    ...(req.tsaUrl
      ? { level: "B-LT" as const, timestampAuthority: new HttpTimestampAuthority(req.tsaUrl, { timeout: 15_000 }), estimatedSize: 32_768 }
      : { level: "B-B" as const }),
  });
  if (warnings.length) log.info({ warnings: warnings.map((w) => w.message ?? String(w)) }, "seal warnings");
  return { pdf: Buffer.from(signed), documentHash, level };
}

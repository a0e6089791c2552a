// Opens PDFs with MuPDF (WebAssembly: no poppler subprocess, runs wherever Node runs). MuPDF reads
// what viewers read: it decrypts, repairs what it can, and lays out each page as displayed. Every
// reader in Quire (page geometry, page images, anchors, the prepare-time checks) opens documents here,
// so they agree on what a document is and refuse the same files with the same words.
import { UnprocessableError } from "@/lib/errors";

type MuPdf = typeof import("mupdf");
export type MuDocument = import("mupdf").PDFDocument;

let loading: Promise<MuPdf> | null = null;

/** The WebAssembly module loads once per process, on first use. */
export function mupdf(): Promise<MuPdf> {
  loading ??= import("mupdf");
  return loading;
}

export class PdfPasswordProtectedError extends UnprocessableError {
  constructor() {
    super("The PDF is password-protected. Remove the password (or send a copy without one) and try again.", "PdfPasswordProtected");
  }
}

export class PdfDamagedError extends UnprocessableError {
  constructor(detail: string) {
    super(`The PDF is damaged and cannot be read: ${detail}. Save it again from the program that made it and retry.`, "PdfDamaged");
  }
}

export class PdfUnsupportedError extends UnprocessableError {
  constructor(detail: string) {
    super(`Quire cannot sign this PDF: ${detail}.`, "PdfUnsupported");
  }
}

/** MuPDF's messages name its internals; keep the gist, drop the "format error:" prefixes. */
function gist(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/^(\w+ error: )+/i, "").slice(0, 160) || "unknown structure";
}

/**
 * Opens a PDF, decrypting it when its user password is empty (as viewers do). The caller must
 * `destroy()` the document when done: it lives in WebAssembly memory, not on the JS heap.
 */
export async function openPdf(bytes: Uint8Array): Promise<MuDocument> {
  const m = await mupdf();
  // Readers accept a header anywhere in the first kilobyte (some tools put junk before it).
  if (!Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).includes("%PDF-")) throw new PdfDamagedError("it has no PDF header");
  let doc: import("mupdf").Document;
  try {
    doc = m.Document.openDocument(bytes, "application/pdf");
  } catch (err) {
    throw new PdfDamagedError(gist(err));
  }
  const pdf = doc.asPDF();
  if (!pdf) {
    doc.destroy();
    throw new PdfDamagedError("it is not a PDF");
  }
  if (pdf.needsPassword() && !pdf.authenticatePassword("")) {
    pdf.destroy();
    throw new PdfPasswordProtectedError();
  }
  try {
    if (pdf.countPages() < 1) throw new Error("it has no pages");
  } catch (err) {
    pdf.destroy();
    throw new PdfDamagedError(gist(err));
  }
  return pdf;
}

/** Runs `fn` on an opened document and always frees it. */
export async function withPdf<T>(bytes: Uint8Array, fn: (doc: MuDocument) => T | Promise<T>): Promise<T> {
  const doc = await openPdf(bytes);
  try {
    return await fn(doc);
  } finally {
    doc.destroy();
  }
}

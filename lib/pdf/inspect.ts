// The prepare-time check (docs/contract.md "Signing documents"): a document is accepted for signing only if Quire can seal
// it. Both engines must read it (MuPDF for pages, text and images; @libpdf/core for the sealed
// output) and agree on its pages; a dry run of the incremental update proves the seal can be
// appended. What fails here fails at once, in Quire's words, never at the last signature.
import { PDF } from "@libpdf/core";
import { openPdf, PdfDamagedError, PdfUnsupportedError } from "@/lib/pdf/engine";
import { documentGeometry, type PageGeometry } from "@/lib/pdf/geometry";

export interface SealablePdf {
  /** The bytes to store: the upload itself, or a repaired copy of a damaged, unsigned upload. */
  pdf: Buffer;
  pages: PageGeometry[];
}

function gist(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s+/g, " ").slice(0, 160);
}

async function readWithWriter(pdf: Buffer): Promise<PDF> {
  try {
    return await PDF.load(pdf, { credentials: "" });
  } catch (err) {
    throw new PdfUnsupportedError(`its structure cannot be read for sealing (${gist(err)})`);
  }
}

export async function checkSealable(upload: Buffer): Promise<SealablePdf> {
  const doc = await openPdf(upload);
  let pages: PageGeometry[];
  try {
    pages = documentGeometry(doc);
  } catch (err) {
    throw new PdfDamagedError(`a page cannot be read (${gist(err)})`);
  } finally {
    doc.destroy();
  }
  let writer = await readWithWriter(upload);
  let pdf = upload;
  if (writer.recoveredViaBruteForce) {
    // Appending to a file whose cross-reference table is broken is not possible; rewriting it is,
    // unless someone signed it (a rewrite would void their signature).
    if (
      writer
        .getForm()
        ?.getSignatureFields()
        .some((f) => f.isSigned())
    )
      throw new PdfDamagedError("its cross-reference table is broken, and repairing it would invalidate the signatures it carries");
    pdf = Buffer.from(await writer.save());
    writer = await readWithWriter(pdf);
  }
  let count: number;
  try {
    count = writer.getPageCount();
    writer.getPages();
  } catch (err) {
    throw new PdfDamagedError(`its page tree cannot be walked (${gist(err)})`);
  }
  if (count !== pages.length) throw new PdfDamagedError(`its page tree is inconsistent (${count} pages for one reader, ${pages.length} for another)`);
  try {
    // The seal's incremental update, minus the signature: touch a page and append.
    writer.getPages()[0].drawRectangle({ x: 0, y: 0, width: 0.01, height: 0.01, opacity: 0 });
    await writer.save({ incremental: true });
  } catch (err) {
    throw new PdfUnsupportedError(`an update cannot be appended to it (${gist(err)})`);
  }
  return { pdf, pages };
}

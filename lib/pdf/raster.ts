// Page facts and page images for the hosted signing page, drawn by MuPDF in-process (no poppler
// binaries): the browser shows plain images with the signer's fields laid over them, which works on
// every phone without a PDF engine in the page. Images and sizes share lib/pdf/geometry.ts's model, so
// the overlay's boxes sit where the stamps will land.
import { NotFoundError } from "@/lib/errors";
import { mupdf, withPdf } from "@/lib/pdf/engine";
import { documentGeometry, pageGeometry } from "@/lib/pdf/geometry";

export interface PageSize {
  width: number;
  height: number;
}

/** Displayed size of every page, in page units (rotation, visible box and /UserUnit applied). */
export async function pageSizes(pdf: Buffer): Promise<PageSize[]> {
  return (await pageGeometry(pdf)).map(({ width, height }) => ({ width, height }));
}

export async function pageCount(pdf: Buffer): Promise<number> {
  return withPdf(pdf, (doc) => doc.countPages());
}

/** Widest image the signing page asks for; bounds the memory one request can make MuPDF use. */
const MAX_WIDTH = 2400;

/** One page as a PNG, `width` pixels wide, showing exactly the displayed box. */
export async function renderPage(pdf: Buffer, page: number, width = 1100): Promise<Buffer> {
  const { ColorSpace } = await mupdf();
  return withPdf(pdf, (doc) => {
    if (page < 1 || page > doc.countPages()) throw new NotFoundError(`The document has no page ${page}`, "PageNotFound");
    const p = doc.loadPage(page - 1);
    const [x0, , x1] = p.getBounds();
    const scale = Math.min(width, MAX_WIDTH) / (x1 - x0);
    const pixmap = p.toPixmap([scale, 0, 0, scale, 0, 0], ColorSpace.DeviceRGB, false, true);
    try {
      return Buffer.from(pixmap.asPNG());
    } finally {
      pixmap.destroy();
    }
  });
}

export { documentGeometry };

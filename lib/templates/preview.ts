// The template as it is (placeholders visible) converted to PDF, for the detail page's preview: the PDF
// itself and its pages as images. A conversion takes LibreOffice a second or more, and the page shows
// every page as its own image, so the last few conversions are kept in memory per instance.
import { buffer } from "node:stream/consumers";
import { LruCache } from "@/lib/cache/lru";
import type { Db } from "@/lib/db/client";
import type { ConvertibleKind, PdfConverter } from "@/lib/pdf/converter-types";
import { pageCount, renderPage } from "@/lib/pdf/raster";
import type { FileStorage } from "@/lib/storage";
import { getTemplate, templateFile } from "@/lib/templates/templates";

const conversions = new LruCache<string, Promise<Buffer>>(8);

export interface TemplatePreview {
  name: string;
  pdf: Buffer;
}

export async function templatePreviewPdf(db: Db, storage: FileStorage, converter: PdfConverter, orgId: string, id: string): Promise<TemplatePreview> {
  const template = await getTemplate(db, orgId, id);
  // Keyed by the template's version: an edited template is converted again.
  const key = `${orgId}/${id}/${template.updatedOn}/${template.fileSize}`;
  let pdf = conversions.get(key);
  if (!pdf) {
    const file = await templateFile(db, storage, orgId, id);
    pdf = buffer(file.data.body).then((bytes) => converter.convert(bytes, file.kind as ConvertibleKind));
    conversions.set(key, pdf);
    // A failed conversion is not remembered: the next look tries again.
    pdf.catch(() => conversions.delete(key));
  }
  return { name: template.name, pdf: await pdf };
}

export async function templatePreviewPageCount(db: Db, storage: FileStorage, converter: PdfConverter, orgId: string, id: string): Promise<number> {
  return pageCount((await templatePreviewPdf(db, storage, converter, orgId, id)).pdf);
}

export async function templatePreviewPage(
  db: Db,
  storage: FileStorage,
  converter: PdfConverter,
  orgId: string,
  id: string,
  page: number,
  width: number,
): Promise<Buffer> {
  return renderPage((await templatePreviewPdf(db, storage, converter, orgId, id)).pdf, page, width);
}

// Shared fixtures for the render-* tests: tiny real images, small DOCX/PPTX templates, and readers
// that unzip the output so tests assert on the XML actually produced.
import { deflateSync } from "node:zlib";
import PizZip from "pizzip";
import { expect } from "vitest";
import { QuireError } from "@/lib/errors";

// ---------------------------------------------------------------------------------------------
// Images with real headers (image-size reads them), any dimensions.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid grey RGB PNG. */
export function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const rows = Buffer.alloc((width * 3 + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width * 3 + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** JPEG markers up to the frame header: enough for sniffing and sizing. */
export function jpeg(width: number, height: number): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

export function gif(width: number, height: number): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt16LE(width, 0);
  size.writeUInt16LE(height, 2);
  return Buffer.concat([Buffer.from("GIF89a", "latin1"), size, Buffer.from([0, 0, 0, 0x3b])]);
}

export const dataUrl = (data: Buffer, type = "image/png") => `data:${type};base64,${data.toString("base64")}`;

// ---------------------------------------------------------------------------------------------
// Reading output

export function zipText(file: Buffer, path: string): string {
  const entry = new PizZip(file).file(path);
  if (!entry) throw new Error(`${path} is not in the package`);
  return entry.asText();
}

export function zipNames(file: Buffer): string[] {
  return Object.keys(new PizZip(file).files);
}

export const documentXml = (file: Buffer) => zipText(file, "word/document.xml");
export const slideXml = (file: Buffer, n: number) => zipText(file, `ppt/slides/slide${n}.xml`);

/** The visible text of some WordprocessingML or DrawingML, paragraphs on their own lines. */
export function visibleText(xml: string): string {
  return xml
    .replace(/<\/(w|a):p>/g, "\n")
    .replace(/<(w|a):br\b[^>]*\/?>/g, "\n")
    .replace(/<w:tab\/>/g, "\t")
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/** Checks that a part is well-formed XML by the same rules the template inspector applies. */
export function expectWellFormed(xml: string): void {
  const stack: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([\w:.-]+)(?:\s[^<>]*?)?(\/?)>|<\?[^>]*\?>/g)) {
    if (!m[2]) continue;
    if (m[1]) expect(stack.pop(), `closing </${m[2]}>`).toBe(m[2]);
    else if (!m[3]) stack.push(m[2]);
  }
  expect(stack).toEqual([]);
  expect(xml).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i);
}

// ---------------------------------------------------------------------------------------------
// Templates

const W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

export const para = (text: string, pPr = "", rPr = "") =>
  `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ""}<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ""}<w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

export interface DocxExtras {
  styles?: string;
  numbering?: string;
  header?: string;
  sectPr?: string;
}

/** A DOCX whose body is `body` (WordprocessingML), with optional styles, numbering and a header. */
export function docx(body: string, extras: DocxExtras = {}): Buffer {
  const zip = new PizZip();
  const overrides: [string, string][] = [["/word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"]];
  const rels: [string, string, string][] = [];
  if (extras.styles !== undefined) {
    overrides.push(["/word/styles.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"]);
    rels.push(["rId1", "styles", "styles.xml"]);
    zip.file("word/styles.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W_NS}">${extras.styles}</w:styles>`);
  }
  if (extras.numbering !== undefined) {
    overrides.push(["/word/numbering.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"]);
    rels.push(["rId2", "numbering", "numbering.xml"]);
    zip.file("word/numbering.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering xmlns:w="${W_NS}">${extras.numbering}</w:numbering>`);
  }
  let headerRef = "";
  if (extras.header !== undefined) {
    overrides.push(["/word/header1.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"]);
    rels.push(["rId3", "header", "header1.xml"]);
    headerRef = '<w:headerReference w:type="default" r:id="rId3"/>';
    zip.file("word/header1.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr xmlns:w="${W_NS}" xmlns:r="${R_NS}">${extras.header}</w:hdr>`);
  }
  zip.file(
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join("")}</Types>`,
  );
  zip.file(
    "_rels/.rels",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${R_NS}/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    "word/_rels/document.xml.rels",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${PKG_REL}">${rels.map(([id, type, target]) => `<Relationship Id="${id}" Type="${R_NS}/${type}" Target="${target}"/>`).join("")}</Relationships>`,
  );
  const sectPr =
    extras.sectPr ??
    `<w:sectPr>${headerRef}<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:gutter="0"/></w:sectPr>`;
  zip.file(
    "word/document.xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W_NS}" xmlns:r="${R_NS}"><w:body>${body}${sectPr}</w:body></w:document>`,
  );
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}

export const HEADING_STYLES =
  '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Georgia" w:hAnsi="Georgia"/></w:rPr></w:rPrDefault></w:docDefaults>' +
  '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:rPr><w:rFonts w:ascii="Verdana" w:hAnsi="Verdana"/><w:b/></w:rPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="berschrift2"><w:name w:val="heading 2"/><w:basedOn w:val="Heading1"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/></w:style>' +
  '<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style>';

/** Replaces or adds entries in a package. */
export function withParts(file: Buffer, parts: Record<string, string>): Buffer {
  const zip = new PizZip(file);
  for (const [path, text] of Object.entries(parts)) zip.file(path, text);
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}

const PML_NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

/** A slide whose shape tree holds `shapes`. */
export function pptxSlide(shapes: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld ${PML_NS}><p:cSld><p:spTree>` +
    '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>' +
    `${shapes}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`
  );
}

export const pptxRun = (text: string) => `<a:r><a:rPr lang="en-US" sz="2000" dirty="0"/><a:t>${text}</a:t></a:r>`;

export function textShape(id: number, paragraphs: string[], box = { x: 914400, y: 914400, cx: 4572000, cy: 2286000 }): string {
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Box ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr><a:xfrm><a:off x="${box.x}" y="${box.y}"/><a:ext cx="${box.cx}" cy="${box.cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
    `<p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs.map((p) => `<a:p>${p}</a:p>`).join("")}</p:txBody></p:sp>`
  );
}

export function tableFrame(id: number, rows: string[][]): string {
  const cell = (text: string) => `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p>${pptxRun(text)}</a:p></a:txBody><a:tcPr/></a:tc>`;
  const cols = rows[0].length;
  return (
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="Table ${id}"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>` +
    `<p:xfrm><a:off x="914400" y="914400"/><a:ext cx="6096000" cy="740000"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"/>` +
    `<a:tblGrid>${'<a:gridCol w="2032000"/>'.repeat(cols)}</a:tblGrid>` +
    rows
      .map(
        (row, i) =>
          `<a:tr h="370840">${row.map(cell).join("")}<a:extLst><a:ext uri="{0D108BD9-81ED-4DB2-BD59-A6C34878D82A}"><a16:rowId xmlns:a16="http://schemas.microsoft.com/office/drawing/2014/main" val="${1000 + i}"/></a:ext></a:extLst></a:tr>`,
      )
      .join("") +
    "</a:tbl></a:graphicData></a:graphic></p:graphicFrame>"
  );
}

// ---------------------------------------------------------------------------------------------

export const noFetch = async (url: string): Promise<Buffer> => {
  throw new Error(`unexpected fetch of ${url}`);
};

/** Awaits a rejection and returns the domain error, failing the test on success or a non-domain error. */
export async function rejection<T extends QuireError = QuireError>(promise: Promise<unknown>): Promise<T> {
  const error = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(error, "expected a rejection").toBeInstanceOf(QuireError);
  return error as T;
}

// PDFs with every page geometry the format allows, built here with pdf-lib (no files copied from
// elsewhere): rotations, a MediaBox that does not start at 0,0, a CropBox smaller than the MediaBox,
// /UserUnit 2 and 3, several sizes in one file. Each page carries a text anchor "[[sign:pN]]" placed
// inside its visible box, and poppler (an independent reader) tells where things ended up.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { degrees, PDFDocument, PDFName, PDFNumber, StandardFonts } from "pdf-lib";

export interface OddPage {
  label: string;
  size: [number, number];
  rotate?: 0 | 90 | 180 | 270;
  /** MediaBox origin. */
  origin?: [number, number];
  /** CropBox as x, y, width, height in user space. */
  crop?: [number, number, number, number];
  userUnit?: number;
}

export const ODD_PAGES: OddPage[] = [
  { label: "plain", size: [595, 842] },
  { label: "rotate 90", size: [595, 842], rotate: 90 },
  { label: "rotate 180", size: [595, 842], rotate: 180 },
  { label: "rotate 270", size: [595, 842], rotate: 270 },
  { label: "mediabox offset", size: [612, 792], origin: [200, -300] },
  { label: "cropbox", size: [612, 792], crop: [60, 80, 420, 560] },
  { label: "cropbox offset rotated", size: [612, 792], origin: [-50, 40], crop: [0, 100, 500, 600], rotate: 90 },
  { label: "userunit 2", size: [300, 420], userUnit: 2 },
  { label: "userunit 3 rotated", size: [200, 280], userUnit: 3, rotate: 270 },
  { label: "a5 landscape", size: [595, 420] },
];

/** The displayed size of a page in its own units (docs/contract.md "Signing documents"). */
export function displayedSize(p: OddPage): { width: number; height: number } {
  const [w, h] = p.crop ? [p.crop[2], p.crop[3]] : p.size;
  return p.rotate === 90 || p.rotate === 270 ? { width: h, height: w } : { width: w, height: h };
}

export async function oddPdf(pages: OddPage[] = ODD_PAGES): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [i, spec] of pages.entries()) {
    const [ox, oy] = spec.origin ?? [0, 0];
    const page = doc.addPage(spec.size);
    page.setMediaBox(ox, oy, spec.size[0], spec.size[1]);
    // Inside the visible box, a third of the way in, whatever the box.
    const [vx, vy, vw, vh] = spec.crop ? [ox + spec.crop[0], oy + spec.crop[1], spec.crop[2], spec.crop[3]] : [ox, oy, spec.size[0], spec.size[1]];
    const size = spec.userUnit ? 6 : 10;
    page.drawText(`Page ${i + 1} ${spec.label}`, { x: vx + vw * 0.15, y: vy + vh * 0.8, size, font });
    page.drawText(`Sign: [[sign:p${i + 1}]] here`, { x: vx + vw * 0.2, y: vy + vh * 0.35, size, font });
    if (spec.crop) page.setCropBox(vx, vy, vw, vh);
    if (spec.rotate) page.setRotation(degrees(spec.rotate));
    if (spec.userUnit) page.node.set(PDFName.of("UserUnit"), PDFNumber.of(spec.userUnit));
  }
  return Buffer.from(await doc.save());
}

export interface WordBox {
  page: number;
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every word with its box, from the top-left of each page's displayed (crop) box: pdftotext -bbox. */
export function popplerWords(pdf: Buffer): WordBox[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-bbox-"));
  try {
    const file = path.join(dir, "d.pdf");
    fs.writeFileSync(file, pdf);
    const html = execFileSync("pdftotext", ["-bbox", "-cropbox", file, "-"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const words: WordBox[] = [];
    let page = 0;
    for (const line of html.split("\n")) {
      if (line.includes("<page ")) page++;
      const m = /<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/.exec(line);
      if (m)
        words.push({
          page,
          text: m[5].replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">"),
          x: Number(m[1]),
          y: Number(m[2]),
          width: Number(m[3]) - Number(m[1]),
          height: Number(m[4]) - Number(m[2]),
        });
    }
    return words;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

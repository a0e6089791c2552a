// One page-geometry model for everything that places things on a page (docs/contract.md
// "Signing documents"): coordinates are PDF points from the top-left corner of the page as displayed, after
// /Rotate, within the visible box (CropBox, else MediaBox, whatever its origin), in units of the
// page's /UserUnit. Anchors, page images, the signing page's overlay, field validation and stamping
// all go through this file, so they cannot disagree.
import { type MuDocument, withPdf } from "@/lib/pdf/engine";

/** [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f (PDF's convention). */
export type Matrix = [number, number, number, number, number, number];

export interface PageGeometry {
  /** Displayed size, in the page's units. */
  width: number;
  height: number;
  /** The page's /Rotate, normalised to 0, 90, 180 or 270. */
  rotation: number;
  userUnit: number;
  /** Displayed coordinates (top-left origin, page units) → PDF user space. */
  toUser: Matrix;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function invert([a, b, c, d, e, f]: Matrix): Matrix {
  const det = a * d - b * c;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

export function apply([a, b, c, d, e, f]: Matrix, x: number, y: number): [number, number] {
  return [a * x + c * y + e, b * x + d * y + f];
}

/** Where to draw something that must look upright in the displayed box `rect`. */
export function placement(page: PageGeometry, rect: Rect): { x: number; y: number; angle: number } {
  // The displayed bottom-left corner is the drawing origin; the displayed "right" direction, seen
  // in user space, is the angle to draw at (it undoes /Rotate).
  const [x, y] = apply(page.toUser, rect.x, rect.y + rect.height);
  const [a, b] = page.toUser;
  const angle = (Math.round((Math.atan2(b, a) * 180) / Math.PI / 90) * 90 + 360) % 360;
  return { x, y, angle };
}

/** MuPDF's page transform maps user space to displayed points (already scaled by /UserUnit). */
export function geometryOf(page: import("mupdf").PDFPage): PageGeometry {
  const unit = Number(page.getObject().getInheritable("UserUnit")?.asNumber?.() ?? 1);
  const userUnit = Number.isFinite(unit) && unit > 0 ? unit : 1;
  const [x0, y0, x1, y1] = page.getBounds();
  const ctm = page.getTransform() as Matrix;
  // displayed = user × ctm ÷ userUnit, so user = displayed × userUnit × ctm⁻¹.
  const inv = invert(ctm);
  const toUser: Matrix = [inv[0] * userUnit, inv[1] * userUnit, inv[2] * userUnit, inv[3] * userUnit, inv[4], inv[5]];
  const rotation = (((Math.round(Number(page.getObject().getInheritable("Rotate")?.asNumber?.() ?? 0) / 90) * 90) % 360) + 360) % 360;
  return { width: (x1 - x0) / userUnit, height: (y1 - y0) / userUnit, rotation, userUnit, toUser };
}

export function documentGeometry(doc: MuDocument): PageGeometry[] {
  const pages: PageGeometry[] = [];
  for (let i = 0; i < doc.countPages(); i++) pages.push(geometryOf(doc.loadPage(i) as import("mupdf").PDFPage));
  return pages;
}

export async function pageGeometry(pdf: Uint8Array): Promise<PageGeometry[]> {
  return withPdf(pdf, documentGeometry);
}

/** Slack for rounding in callers' arithmetic (a field exactly at the edge fits). */
const EDGE = 0.5;

export function fitsOn(page: { width: number; height: number }, r: Rect): boolean {
  return r.x >= -EDGE && r.y >= -EDGE && r.width > 0 && r.height > 0 && r.x + r.width <= page.width + EDGE && r.y + r.height <= page.height + EDGE;
}

/** Moves a box that sticks out back onto the page (anchor placements near an edge), if it can fit. */
export function clampOnto(page: { width: number; height: number }, r: Rect): Rect {
  return { ...r, x: Math.min(Math.max(0, r.x), Math.max(0, page.width - r.width)), y: Math.min(Math.max(0, r.y), Math.max(0, page.height - r.height)) };
}

// Finds text anchors (e.g. "[[sign:client]]") in a PDF with pdf.js's text layer and turns each
// occurrence into a field box. Coordinates are PDF points from the page's top-left corner.
import { ValidationError } from "@/lib/errors";

export interface AnchorRequest {
  anchor: string;
  placement?: "replace" | "before" | "after" | "above" | "below";
  size?: { width: number; height: number };
  offset?: { x: number; y: number };
  caseSensitive?: boolean;
  useRegex?: boolean;
}

export interface AnchorHit {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Piece {
  str: string;
  x: number;
  width: number;
  baseline: number;
  height: number;
}

interface Line {
  text: string;
  pieces: { start: number; piece: Piece }[];
}

/** Text items on the same baseline, left to right, joined into one searchable string. */
function linesOf(pieces: Piece[]): Line[] {
  const rows = new Map<number, Piece[]>();
  for (const p of pieces) {
    const key = Math.round(p.baseline);
    rows.set(key, [...(rows.get(key) ?? []), p]);
  }
  return [...rows.values()].map((row) => {
    row.sort((a, b) => a.x - b.x);
    let text = "";
    const out: Line["pieces"] = [];
    for (const piece of row) {
      out.push({ start: text.length, piece });
      text += piece.str;
    }
    return { text, pieces: out };
  });
}

// pdf.js reports a width per text item, not per character. Inside an item, characters are
// weighted by rough glyph-width classes of proportional fonts (Helvetica/Arial-like), which lands
// far closer to the real position than an even split.
function glyphWeight(ch: string): number {
  if (/[il.,:;'!|\[\]()fjtI ]/.test(ch)) return 0.3;
  if (/[mwMW@]/.test(ch)) return 0.85;
  if (/[A-Z#%&]/.test(ch)) return 0.68;
  return 0.55;
}

function weightOf(text: string): number {
  let total = 0;
  for (const ch of text) total += glyphWeight(ch);
  return total;
}

/** x position of a character offset within a line. */
function xAt(line: Line, offset: number, end: boolean): { x: number; piece: Piece } {
  for (const { start, piece } of line.pieces) {
    const stop = start + piece.str.length;
    if (offset < stop || (end && offset === stop)) {
      const whole = weightOf(piece.str);
      const fraction = whole ? weightOf(piece.str.slice(0, offset - start)) / whole : 0;
      return { x: piece.x + piece.width * fraction, piece };
    }
  }
  const last = line.pieces[line.pieces.length - 1].piece;
  return { x: last.x + last.width, piece: last };
}

function matcher(request: AnchorRequest): RegExp {
  const flags = request.caseSensitive ? "g" : "gi";
  if (!request.useRegex) return new RegExp(request.anchor.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), flags);
  try {
    return new RegExp(request.anchor, flags);
  } catch (err) {
    throw new ValidationError(`Anchor ${request.anchor} is not a valid regular expression: ${(err as Error).message}`, [{ field: "fields.template.anchor", message: "invalid regular expression" }], "InvalidAnchorRegex");
  }
}

function place(request: AnchorRequest, page: number, box: { x: number; y: number; width: number; height: number }): AnchorHit {
  const width = request.size?.width ?? box.width;
  const height = request.size?.height ?? box.height;
  const at = {
    replace: { x: box.x, y: box.y + box.height - height },
    before: { x: box.x - width, y: box.y + box.height - height },
    after: { x: box.x + box.width, y: box.y + box.height - height },
    above: { x: box.x, y: box.y - height },
    below: { x: box.x, y: box.y + box.height },
  }[request.placement ?? "replace"];
  return { page, x: Math.max(0, at.x + (request.offset?.x ?? 0)), y: Math.max(0, at.y + (request.offset?.y ?? 0)), width, height };
}

export async function findAnchors(pdf: Buffer, requests: AnchorRequest[]): Promise<AnchorHit[][]> {
  const patterns = requests.map(matcher);
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
  const hits: AnchorHit[][] = requests.map(() => []);
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const height = page.getViewport({ scale: 1 }).height;
      const content = await page.getTextContent();
      const pieces: Piece[] = [];
      for (const item of content.items) {
        if (!("str" in item) || !item.str) continue;
        const [, , , d, e, f] = item.transform as number[];
        pieces.push({ str: item.str, x: e, width: item.width, baseline: f, height: item.height || Math.abs(d) });
      }
      for (const line of linesOf(pieces)) {
        patterns.forEach((pattern, i) => {
          pattern.lastIndex = 0;
          for (let m = pattern.exec(line.text); m; m = pattern.exec(line.text)) {
            if (m[0].length === 0) {
              pattern.lastIndex++;
              continue;
            }
            const from = xAt(line, m.index, false);
            const to = xAt(line, m.index + m[0].length, true);
            const fontHeight = from.piece.height;
            const box = { x: from.x, y: height - from.piece.baseline - fontHeight * 0.8, width: Math.max(1, to.x - from.x), height: fontHeight * 1.05 };
            hits[i].push(place(requests[i], n, box));
          }
        });
      }
      page.cleanup();
    }
  } finally {
    await doc.destroy();
  }
  const missing = requests.filter((_, i) => hits[i].length === 0).map((r) => r.anchor);
  if (missing.length) {
    throw new ValidationError(
      `Anchor${missing.length > 1 ? "s" : ""} not found in the document: ${missing.join(", ")}`,
      missing.map((a) => ({ field: "fields.template.anchor", message: `${a} not found` })),
      "AnchorNotFound",
    );
  }
  return hits;
}

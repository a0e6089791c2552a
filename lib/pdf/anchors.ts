// Finds text anchors (e.g. "[[sign:client]]") in a PDF with MuPDF's structured text, which gives
// every character's quad in the displayed page space, and turns each occurrence into a field box in
// lib/pdf/geometry.ts's coordinates. The matched text's own box is kept so the seal can remove it.
import { ValidationError } from "@/lib/errors";
import { withPdf } from "@/lib/pdf/engine";
import { clampOnto, geometryOf, type PageGeometry, type Rect } from "@/lib/pdf/geometry";

export interface AnchorRequest {
  anchor: string;
  placement?: "replace" | "before" | "after" | "above" | "below";
  size?: { width: number; height: number };
  offset?: { x: number; y: number };
  caseSensitive?: boolean;
  useRegex?: boolean;
  /** No match is fine (tag detection looks for tags that may not be there); else AnchorNotFound. */
  optional?: boolean;
}

export interface AnchorHit extends Rect {
  page: number;
  /** Where the anchor text itself is (displayed coordinates), to hide it in the signed output. */
  match: Rect;
  /** The text matched (a regex anchor matches many). */
  text: string;
}

interface Line {
  text: string;
  /** One box per UTF-16 unit of `text`, in displayed page units. */
  boxes: Rect[];
}

function matcher(request: AnchorRequest): RegExp {
  const flags = request.caseSensitive ? "g" : "gi";
  if (!request.useRegex) return new RegExp(request.anchor.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), flags);
  try {
    return new RegExp(request.anchor, flags);
  } catch (err) {
    throw new ValidationError(
      `Anchor ${request.anchor} is not a valid regular expression: ${(err as Error).message}`,
      [{ field: "fields.template.anchor", message: "invalid regular expression" }],
      "InvalidAnchorRegex",
    );
  }
}

function union(boxes: Rect[]): Rect {
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

function place(request: AnchorRequest, page: number, geometry: PageGeometry, box: Rect, text: string): AnchorHit {
  const width = request.size?.width ?? box.width;
  const height = request.size?.height ?? box.height;
  const at = {
    replace: { x: box.x, y: box.y + box.height - height },
    before: { x: box.x - width, y: box.y + box.height - height },
    after: { x: box.x + box.width, y: box.y + box.height - height },
    above: { x: box.x, y: box.y - height },
    below: { x: box.x, y: box.y + box.height },
  }[request.placement ?? "replace"];
  // An anchor near an edge moves the field onto the page; the sender did not choose the coordinates.
  const field = clampOnto(geometry, { x: at.x + (request.offset?.x ?? 0), y: at.y + (request.offset?.y ?? 0), width, height });
  return { page, ...field, match: box, text };
}

/** Lines of a page as MuPDF laid them out, with a box per character. */
function linesOf(page: import("mupdf").PDFPage, unit: number): Line[] {
  const lines: Line[] = [];
  let current: Line | null = null;
  const stext = page.toStructuredText("preserve-whitespace");
  try {
    stext.walk({
      beginLine() {
        current = { text: "", boxes: [] };
      },
      onChar(c, _origin, _font, _size, quad) {
        if (!current) return;
        const xs = [quad[0], quad[2], quad[4], quad[6]];
        const ys = [quad[1], quad[3], quad[5], quad[7]];
        const box = {
          x: Math.min(...xs) / unit,
          y: Math.min(...ys) / unit,
          width: (Math.max(...xs) - Math.min(...xs)) / unit,
          height: (Math.max(...ys) - Math.min(...ys)) / unit,
        };
        current.text += c;
        for (let k = 0; k < c.length; k++) current.boxes.push(box);
      },
      endLine() {
        if (current?.text) lines.push(current);
        current = null;
      },
    });
  } finally {
    stext.destroy();
  }
  return lines;
}

export async function findAnchors(pdf: Buffer, requests: AnchorRequest[]): Promise<AnchorHit[][]> {
  const patterns = requests.map(matcher);
  const hits: AnchorHit[][] = requests.map(() => []);
  await withPdf(pdf, (doc) => {
    for (let n = 1; n <= doc.countPages(); n++) {
      const page = doc.loadPage(n - 1) as import("mupdf").PDFPage;
      const geometry = geometryOf(page);
      for (const line of linesOf(page, geometry.userUnit)) {
        patterns.forEach((pattern, i) => {
          pattern.lastIndex = 0;
          for (let m = pattern.exec(line.text); m; m = pattern.exec(line.text)) {
            if (m[0].length === 0) {
              pattern.lastIndex++;
              continue;
            }
            hits[i].push(place(requests[i], n, geometry, union(line.boxes.slice(m.index, m.index + m[0].length)), m[0]));
          }
        });
      }
    }
  });
  const missing = requests.filter((r, i) => hits[i].length === 0 && !r.optional).map((r) => r.anchor);
  if (missing.length) {
    throw new ValidationError(
      `Anchor${missing.length > 1 ? "s" : ""} not found in the document: ${missing.join(", ")}`,
      missing.map((a) => ({ field: "fields.template.anchor", message: `${a} not found` })),
      "AnchorNotFound",
    );
  }
  return hits;
}

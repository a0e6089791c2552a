// Helpers over docxtemplater's postparsed token list: XML tags it lexes (w:p, w:r, w:t, w:tc, …;
// a:p, a:r, a:rPr, … in PPTX) are separate parts, other XML is "content" outside text, and text
// inside w:t/a:t is "content" inside a tag. Ranges are found by walking with nesting depth.

export interface Part {
  type: "tag" | "content" | "placeholder" | string;
  value: string;
  tag?: string;
  position?: "start" | "end" | "selfclosing" | "insidetag" | "outsidetag" | string;
  module?: string;
  raw?: string;
  [key: string]: unknown;
}

export interface Range {
  start: number;
  end: number;
}

/** The innermost `tag` element around index i, as the indexes of its start and end parts. */
export function enclosing(parts: Part[], i: number, tag: string, from = 0, to = parts.length): Range | null {
  let depth = 0;
  let start = -1;
  for (let j = i - 1; j >= from; j--) {
    const p = parts[j];
    if (p.type !== "tag" || p.tag !== tag) continue;
    if (p.position === "end") depth++;
    else if (p.position === "start") {
      if (depth === 0) {
        start = j;
        break;
      }
      depth--;
    }
  }
  if (start < 0) return null;
  depth = 0;
  for (let j = i + 1; j < to; j++) {
    const p = parts[j];
    if (p.type !== "tag" || p.tag !== tag) continue;
    if (p.position === "start") depth++;
    else if (p.position === "end") {
      if (depth === 0) return { start, end: j };
      depth--;
    }
  }
  return null;
}

/** The XML of the first `tag` element (start..end or self-closing) between from and to, exclusive. */
export function elementXml(parts: Part[], tag: string, from: number, to: number, stopAt?: string): string {
  for (let j = from + 1; j < to; j++) {
    const p = parts[j];
    if (p.type !== "tag") continue;
    if (stopAt && p.tag === stopAt && p.position === "start") return "";
    if (p.tag !== tag) continue;
    if (p.position === "selfclosing") return p.value;
    if (p.position !== "start") return "";
    const range = enclosing(parts, j + 1, tag, j, to);
    if (!range) return "";
    return parts
      .slice(range.start, range.end + 1)
      .map((part) => part.value)
      .join("");
  }
  return "";
}

const OBJECT_MARKUP = /<(w:pict|w:object|mc:AlternateContent|w:fldSimple|w:sym|a:fld|m:oMath)\b/;

/**
 * Whether the placeholder at i is the only thing its paragraph shows: no other text, tag, picture
 * or field. Only then may the whole paragraph be replaced by generated paragraphs.
 */
export function aloneInParagraph(parts: Part[], paragraph: Range, i: number, paragraphTag: string): boolean {
  for (let j = paragraph.start + 1; j < paragraph.end; j++) {
    if (j === i) continue;
    const p = parts[j];
    if (p.type === "placeholder") return false;
    if (p.type === "content" && p.position === "insidetag" && p.value.trim() !== "") return false;
    if (p.type === "content" && OBJECT_MARKUP.test(p.value)) return false;
    if (p.type === "tag" && (p.tag === "w:drawing" || (p.tag === paragraphTag && p.position === "start"))) return false;
  }
  return true;
}

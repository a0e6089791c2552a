// A paragraph that held a condition or a loop and is left with nothing to show (the condition was
// false, the loop empty) is removed, instead of printing as a blank line. docxtemplater's
// paragraphLoop already drops paragraphs holding only a {#tag} or {/tag}; this covers a section that
// opens and closes within one paragraph ("{#vip}VIP customer{/vip}").
//
// Before rendering, paragraphs holding a section tag get a marker attribute; after it, a marked
// paragraph without text, drawings or fields is dropped where the format allows (a table cell and a
// text body keep at least one paragraph, and a cell ends with one) and every marker is removed.
import type { Part, Range } from "./parts";
import { enclosing } from "./parts";

const MARKER = "data-quire-section";
const MARKER_ATTR = new RegExp(`\\s${MARKER}=""`, "g");

/** Marks the paragraphs that hold section tags (call from a module's postparse on the flat parts). */
export function markSectionParagraphs(parsed: Part[], w: "w" | "a"): void {
  const marked = new Set<Range["start"]>();
  parsed.forEach((part, i) => {
    if (part.type !== "placeholder" || part.module !== "loop") return;
    const paragraph = enclosing(parsed, i, `${w}:p`);
    if (!paragraph || marked.has(paragraph.start)) return;
    const open = parsed[paragraph.start];
    if (typeof open.value !== "string" || open.value.includes(MARKER)) return;
    marked.add(paragraph.start);
    open.value = open.value.replace(new RegExp(`^<${w}:p\\b`), `<${w}:p ${MARKER}=""`);
  });
}

const VISIBLE = {
  w: /<w:t(?:\s[^>]*)?>[^<]|<w:(drawing|pict|object|sym|sectPr|fldSimple|instrText)\b|<m:oMath\b|<w:br\b[^>]*w:type="page"/,
  a: /<a:t>[^<]|<a:fld\b/,
};

/** Removes the emptied marked paragraphs of one rendered part and every marker. */
export function dropEmptiedParagraphs(xml: string, w: "w" | "a"): string {
  if (!xml.includes(MARKER)) return xml;
  const openTag = new RegExp(`<${w}:p\\s${MARKER}=""[^>]*>`, "g");
  let out = "";
  let from = 0;
  for (let m = openTag.exec(xml); m; m = openTag.exec(xml)) {
    const start = m.index;
    if (start < from) continue;
    const end = closingOf(xml, start, w);
    if (end < 0) break;
    const inner = xml.slice(start, end);
    // What precedes the paragraph in the output: what was kept of the part so far, then the source up to it.
    const preceding = out.slice(-64) + xml.slice(Math.max(from, start - 64), start);
    if (!VISIBLE[w].test(inner) && removable(preceding, xml.slice(end, end + 64), w)) {
      out += xml.slice(from, start);
      from = end;
      openTag.lastIndex = end;
    }
  }
  return (out + xml.slice(from)).replace(MARKER_ATTR, "");
}

/** Index just past the </p> matching the paragraph that opens at `start` (paragraphs nest in text boxes). */
function closingOf(xml: string, start: number, w: string): number {
  const tags = new RegExp(`<${w}:p(?=[\\s>/])[^>]*?(/?)>|</${w}:p>`, "g");
  tags.lastIndex = start;
  let depth = 0;
  for (let t = tags.exec(xml); t; t = tags.exec(xml)) {
    if (t[0].startsWith("</")) depth--;
    else if (t[1] !== "/") depth++;
    if (depth === 0) return t.index + t[0].length;
  }
  return -1;
}

/** A paragraph may go when a block sibling stays: before it a paragraph or table ends, or after it one begins. */
function removable(preceding: string, following: string, w: string): boolean {
  const prev = /<\/?[\w:]+[^>]*>\s*$/.exec(preceding)?.[0] ?? "";
  const next = /^\s*<\/?[\w:]+/.exec(following)?.[0].trim() ?? "";
  const blockEnds = new RegExp(`^</${w}:(p|tbl)>`);
  const blockStarts = new RegExp(`^<${w}:(p|tbl)$`);
  // A Word table cell must end with a paragraph: the last one goes only when a paragraph precedes it.
  if (next === `</${w}:tc>`) return /^<\/w:p>/.test(prev.trim());
  return blockEnds.test(prev.trim()) || blockStarts.test(next);
}

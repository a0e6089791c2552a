// variableStack, first pass: repeats the paragraph (or, in a table, the row) around each stacked
// placeholder once per entry, renaming the tag in copy i to that entry's own generated tag
// (`{__stack_<variable>_<i>}`, prefix kept). The second pass then renders each copy like any
// single-valued placeholder, with the entry's own mimeType, so stacks need no special rendering.
//
// Several stacked placeholders in one row (or paragraph) share it: the row is repeated
// max(entries) times, copy i carrying entry i of each; a placeholder whose stack is shorter is
// empty in the extra copies. Unstacked placeholders in a repeated row are copied as they are and
// render the same value in every copy. Zero entries remove the row/paragraph.
//
// This pass uses docxtemplater only as a tokenizer: its module claims every tag and writes it back
// unchanged ("{" + tag + "}"), so tags split across runs come out whole and loops are untouched.
//
// Its output depends only on the template's bytes and the stacks' shape (which variables, how many
// entries), not on the values: the expanded parts are kept by both, so repeated creates from one
// template skip this whole docxtemplater pass (it was a third of a render's CPU).
import Docxtemplater from "docxtemplater";
import PizZip from "pizzip";
import { LruCache } from "@/lib/cache/lru";
import { ValidationError } from "@/lib/errors";
import { DOCXTEMPLATER_OPTIONS } from "@/lib/templates/inspect";
import { templateKey } from "./inspection-cache";
import { enclosing, type Part, type Range } from "./parts";
import type { TemplateKind } from "./types";
import { escapeText } from "./xml";

const MODULE = "quire/stack";
/** Expanded parts are the template's XML text: a few large templates must not pin much memory. */
const MAX_EXPANSIONS = 64;
const MAX_CACHED_CHARS = 4_000_000;

const expansions = new LruCache<string, Map<string, string>>(MAX_EXPANSIONS);

type StackPart = Part & { group?: Part[] };

/**
 * Writes the expanded parts into `zip` (a fresh load of the template). `templateDigest` identifies the
 * template's bytes; without it nothing is cached.
 */
export function expandStacks(zip: PizZip, kind: TemplateKind, stacks: Map<string, string[]>, templateDigest?: string): PizZip {
  const key = templateDigest === undefined ? undefined : `${templateKey(kind, templateDigest)}:${JSON.stringify([...stacks])}`;
  let parts = key === undefined ? undefined : expansions.get(key);
  if (!parts) {
    parts = expandedParts(zip, kind, stacks);
    let chars = 0;
    for (const xml of parts.values()) chars += xml.length;
    if (key !== undefined && chars <= MAX_CACHED_CHARS) expansions.set(key, parts);
  }
  for (const [name, xml] of parts) zip.file(name, xml);
  return zip;
}

/** For tests: forget every expansion. */
export function clearStackCache(): void {
  expansions.clear();
}

/** The parts the stack pass rewrote, by name: run on a copy, so `zip` stays fresh for the render itself. */
function expandedParts(source: PizZip, kind: TemplateKind, stacks: Map<string, string[]>): Map<string, string> {
  // A copy: docxtemplater marks a zip it rendered and warns on reuse.
  const zip = new PizZip(source.generate({ type: "uint8array", compression: "STORE" }));
  const w = kind === "docx" ? "w" : "a";
  let rowIds = 0;
  let conflict: { stacked: string; section: string; row: boolean } | null = null;

  const module = {
    name: "QuireStackModule",
    priority: 100,
    matchers: () => [[() => true, MODULE, (values: string[]) => ({ value: values[0], priority: 1_000_000 })]],

    postparse(parsed: StackPart[]) {
      const ranges: Range[] = [];
      parsed.forEach((part, i) => {
        if (part.type !== "placeholder" || !stacks.has(part.value)) return;
        const range = enclosing(parsed, i, `${w}:tr`) ?? enclosing(parsed, i, `${w}:p`);
        if (range) ranges.push(range);
      });
      if (ranges.length === 0) return parsed;
      // Overlapping ranges (two tags in one row, a nested table's row inside an outer row) merge.
      ranges.sort((a, b) => a.start - b.start || b.end - a.end);
      const merged: Range[] = [];
      for (const range of ranges) {
        const last = merged[merged.length - 1];
        if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
        else merged.push({ ...range });
      }
      // A stack repeats its whole paragraph or row; section tags in it would be repeated too and no
      // longer pair up. Say so instead of letting the sections fail obscurely.
      for (const { start, end } of merged) {
        const group = parsed.slice(start, end + 1);
        const section = group.find((p) => p.type === "placeholder" && /^[#^/]/.test(p.value));
        const stacked = group.find((p) => p.type === "placeholder" && stacks.has(p.value));
        if (section && stacked && !conflict)
          conflict = { stacked: `{${stacked.value}}`, section: `{${section.value}}`, row: group.some((p) => p.tag === `${w}:tr`) };
      }
      const out: StackPart[] = [];
      let next = 0;
      for (const { start, end } of merged) {
        out.push(...parsed.slice(next, start), { type: "placeholder", module: MODULE, value: "", group: parsed.slice(start, end + 1) });
        next = end + 1;
      }
      out.push(...parsed.slice(next));
      return out;
    },

    render(part: StackPart) {
      if (part.module !== MODULE) return null;
      if (!part.group) return { value: `{${escapeText(part.value)}}` };
      const group = part.group;
      const copies = Math.max(0, ...group.map((p) => (p.type === "placeholder" ? (stacks.get(p.value)?.length ?? 0) : 0)));
      let value = "";
      for (let copy = 0; copy < copies; copy++) {
        for (const p of group) {
          if (p.type === "placeholder") {
            const stack = stacks.get(p.value);
            const tag = stack ? stack[copy] : p.value;
            if (tag !== undefined) value += `{${escapeText(tag)}}`;
          } else if (copy > 0 && p.tag === "a16:rowId") {
            // PowerPoint wants table row ids unique.
            value += p.value.replace(/\bval="\d+"/, `val="${2_000_000_000 + ++rowIds}"`);
          } else {
            value += p.value;
          }
        }
      }
      return { value };
    },
  };

  const doc = new Docxtemplater(zip, { ...DOCXTEMPLATER_OPTIONS, errorLogging: false, modules: [module as unknown as Docxtemplater.DXT.Module] });
  const found = conflict as { stacked: string; section: string; row: boolean } | null;
  if (found) {
    const where = found.row ? "table row" : "paragraph";
    const message = `${found.stacked} has a variableStack, which repeats its whole ${where}, and that ${where} also holds ${found.section}: the section's tags would be repeated too. Put ${found.stacked} in a ${where} of its own, or fill the section as a loop with JSON data instead of a variableStack.`;
    throw new ValidationError(message, [{ field: "variables", message }], "StackNotSupported");
  }
  doc.render({});
  // What docxtemplater wrote back: the templated parts, and the XML documents it keeps in sync.
  const internals = doc as unknown as { compiled: Record<string, unknown>; xmlDocuments?: Record<string, unknown> };
  const parts = new Map<string, string>();
  for (const name of [...Object.keys(internals.compiled), ...Object.keys(internals.xmlDocuments ?? {})]) {
    const file = zip.file(name);
    if (file && !parts.has(name)) parts.set(name, file.asText());
  }
  return parts;
}

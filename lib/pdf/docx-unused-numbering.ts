// List numbering a document never uses, left out of the copy LibreOffice converts. Word keeps every list
// definition a document ever had (each list pasted in brings its own), and a house template brings its
// own: 40 unused definitions of 9 levels cost a warm soffice 14 ms of a 31 ms conversion of the sample
// contract (2026-12-03), as LibreOffice makes a list style of each. A numbering instance (`w:num`) goes
// when no part names it (`w:numId`: paragraphs, styles, headers, footers, notes), and a definition
// (`w:abstractNum`) when no instance left uses it; a definition tied to a numbering style
// (`w:styleLink`, `w:numStyleLink`) stays, as the style finds it by name (ADR 0026). The definitions
// are read once per template; the body is searched for the instances it names every time.
import { type DeflatedPart, deflatedPart } from "@/lib/files/zip-patch";
import { endOfTag, foundInParts, readOnce, remember, storedData, withPart } from "@/lib/pdf/docx-parts";
import { readCentralDirectory, type ZipEntry } from "@/lib/templates/zip-reader";

const NUMBERING = "word/numbering.xml";

interface Span {
  start: number;
  end: number;
}

/** The numbering part read once per distinct data: its instances and definitions by id. */
interface Numbering {
  text: string;
  /** numId -> where it is and the definition it uses. */
  instances: Map<string, Span & { definition: string | undefined }>;
  /** abstractNumId -> where it is and whether a numbering style ties it (kept whatever uses it). */
  definitions: Map<string, Span & { styled: boolean }>;
}

/** Instances named in any part (ECMA-376 Part 1, 17.9.18): a paragraph's or a style's `w:numId`. */
const INSTANCE = /<(?:[\w.-]+:)?numId\b[^>]*?\s(?:[\w.-]+:)?val\s*=\s*(["'])(.*?)\1/g;

const numberings = new Map<string, Numbering | null>();
/** By a part's stored data (not the body's): the instances it names, or null when it cannot tell. */
const partInstances = new Map<string, string[] | null>();
const leanerNumberings = new Map<string, DeflatedPart>();

/** The DOCX without the list numbering nothing in it uses; the same buffer when there is none, or it cannot tell. */
export function withoutUnusedNumbering(docx: Buffer): Buffer {
  let entries: ZipEntry[];
  try {
    entries = readCentralDirectory(docx);
  } catch {
    return docx;
  }
  const entry = entries.find((e) => e.name === NUMBERING);
  const data = entry && storedData(docx, entry);
  if (!entry || !data) return docx;
  const { key, value: numbering } = readOnce(numberings, entry, data, readNumbering);
  if (!numbering) return docx;
  const used = foundInParts(docx, entries, (name) => name === NUMBERING || name.startsWith("word/glossary/"), instancesNamed, partInstances);
  if (!used) return docx;
  const unused = unusedSpans(numbering, used);
  if (unused.length === 0) return docx;
  const leanerKey = `${key}\n${unused.map((s) => s.start).join(",")}`;
  return withPart(docx, NUMBERING, leanerNumberings.get(leanerKey) ?? remember(leanerNumberings, leanerKey, deflatedPart(without(numbering.text, unused))));
}

function instancesNamed(xml: string): string[] | null {
  const ids = Array.from(xml.matchAll(INSTANCE), (m) => m[2].trim());
  // An id written with a character reference is not compared as text: it cannot tell.
  return ids.some((id) => id.includes("&")) ? null : ids;
}

/** The instances nothing names and the definitions no instance left uses, in the part's order. */
function unusedSpans(numbering: Numbering, used: Set<string>): Span[] {
  const spans: Span[] = [];
  const usedDefinitions = new Set<string>();
  for (const [id, instance] of numbering.instances) {
    if (used.has(id)) {
      if (instance.definition !== undefined) usedDefinitions.add(instance.definition);
    } else spans.push(instance);
  }
  for (const [id, definition] of numbering.definitions) if (!definition.styled && !usedDefinitions.has(id)) spans.push(definition);
  return spans.sort((a, b) => a.start - b.start);
}

function without(text: string, spans: Span[]): string {
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start);
    at = span.end;
  }
  return out + text.slice(at);
}

const attribute = (tag: string, name: string) => tag.match(new RegExp(`\\s(?:[\\w.-]+:)?${name}\\s*=\\s*(["'])(.*?)\\1`))?.[2];

/**
 * The part's instances and definitions with where each begins and ends, or null to leave it whole:
 * none, or anything this reading could get wrong (a comment, CDATA, markup compatibility, an id given
 * twice or holding a character reference, an element that does not end).
 */
function readNumbering(xml: string): Numbering | null {
  if (/<!--|<!\[CDATA\[|AlternateContent/.test(xml)) return null;
  const instances: Numbering["instances"] = new Map();
  const definitions: Numbering["definitions"] = new Map();
  const start = /<([\w.-]+:)?(num|abstractNum)(?=[\s/>])/g;
  for (let m = start.exec(xml); m; m = start.exec(xml)) {
    const tagEnd = endOfTag(xml, m.index);
    if (tagEnd < 0) return null;
    const tag = xml.slice(m.index, tagEnd + 1);
    const selfClosing = tag.endsWith("/>");
    const close = `</${m[1] ?? ""}${m[2]}>`;
    const closeAt = selfClosing ? tagEnd + 1 : xml.indexOf(close, tagEnd);
    if (closeAt < 0) return null;
    const end = selfClosing ? tagEnd + 1 : closeAt + close.length;
    const body = xml.slice(tagEnd + 1, closeAt);
    const id = attribute(tag, m[2] === "num" ? "numId" : "abstractNumId")?.trim();
    const ids = m[2] === "num" ? instances : definitions;
    if (id === undefined || id.includes("&") || ids.has(id)) return null;
    if (m[2] === "num") {
      const definition = body.match(/<(?:[\w.-]+:)?abstractNumId\b[^>]*?\s(?:[\w.-]+:)?val\s*=\s*(["'])(.*?)\1/)?.[2].trim();
      instances.set(id, { start: m.index, end, definition });
    } else {
      definitions.set(id, { start: m.index, end, styled: /<(?:[\w.-]+:)?(?:styleLink|numStyleLink)\b/.test(body) });
    }
    start.lastIndex = end;
  }
  return instances.size + definitions.size > 0 ? { text: xml, instances, definitions } : null;
}

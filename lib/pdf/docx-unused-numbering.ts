// List numbering a document never uses, left out of the copy LibreOffice converts. Word keeps every list
// definition a document ever had (each list pasted in brings its own), and a house template brings its
// own: 40 unused definitions of 9 levels cost a warm soffice 14 ms of a 31 ms conversion of the sample
// contract (2026-12-03), as LibreOffice makes a list style of each. A numbering instance (`w:num`) goes
// when no part names it (`w:numId`: paragraphs, styles, headers, footers, notes), and a definition
// (`w:abstractNum`) when no instance left uses it; a definition tied to a numbering style
// (`w:styleLink`, `w:numStyleLink`) stays, as the style finds it by name (ADR 0026). The definitions
// are read once per template; the body is searched for the instances it names every time.
import { attribute, elementsOf, leanerByNames, valPattern } from "@/lib/pdf/ooxml-parts";

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
const INSTANCE = valPattern(["numId"]);
/** The definition an instance uses. */
const DEFINITION = valPattern(["abstractNumId"], "");

/** The DOCX without the list numbering nothing in it uses; the same buffer when there is none, or it cannot tell. */
export const withoutUnusedNumbering = leanerByNames({ part: "word/numbering.xml", read: readNumbering, named: instancesNamed, unused: unusedSpans });

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

/**
 * The part's instances and definitions with where each begins and ends, or null to leave it whole:
 * none, or anything its reading could get wrong (elementsOf; an id missing, given twice or holding a
 * character reference).
 */
function readNumbering(xml: string): Numbering | null {
  const elements = elementsOf(xml, ["num", "abstractNum"]);
  if (!elements) return null;
  const instances: Numbering["instances"] = new Map();
  const definitions: Numbering["definitions"] = new Map();
  for (const { localName, tag, content, start, end } of elements) {
    const isInstance = localName === "num";
    const id = attribute(tag, isInstance ? "numId" : "abstractNumId")?.trim();
    if (id === undefined || id.includes("&") || (isInstance ? instances : definitions).has(id)) return null;
    if (isInstance) {
      const definition = content.match(DEFINITION)?.[2].trim();
      instances.set(id, { start, end, definition });
    } else {
      definitions.set(id, { start, end, styled: /<(?:[\w.-]+:)?(?:styleLink|numStyleLink)\b/.test(content) });
    }
  }
  return instances.size + definitions.size > 0 ? { text: xml, instances, definitions } : null;
}

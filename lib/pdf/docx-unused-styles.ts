// Styles a document never uses, left out of the copy LibreOffice converts. A template made from a
// company's house template carries every style of it: 150 unused styles cost a warm soffice 13 ms of a
// 32 ms conversion of the sample contract (2026-12-03), as LibreOffice builds each one, and none is
// drawn. Only a document's own styles go (`w:customStyle`), and only when no part names them (a
// paragraph, run, table or numbering, the settings' default table style) and no used style is based
// on them, links to them or is followed by them (ADR 0026). Word's built-in styles stay, used or not:
// LibreOffice maps them by name onto its own, which it may apply unasked. A document whose fields find
// paragraphs by a style's name (STYLEREF, a table of contents) keeps every style, and so does a style
// sheet this cannot read plainly. The sheet is read once per template; the body, which each document
// has its own of, is searched for the styles it names every time.
import { attribute, elementsOf, leanerByNames, valPattern } from "@/lib/pdf/ooxml-parts";

interface Style {
  start: number;
  end: number;
  /** Kept whatever names it: a built-in style, a default, an id that holds a character reference. */
  always: boolean;
  /** The styles it is based on, links to or is followed by. */
  needs: string[];
}

/** A style sheet read once per distinct data: its text and its styles by id. */
interface StyleSheet {
  text: string;
  styles: Map<string, Style>;
}

/** Style references in any part (ECMA-376 Part 1, 17.7): the elements whose `val` names a style. */
const REFERENCE = valPattern(["pStyle", "rStyle", "tblStyle", "numStyleLink", "styleLink", "defaultTableStyle", "clickAndTypeStyle"]);
const NEEDS = valPattern(["basedOn", "next", "link"]);
/** Field instructions that may find paragraphs by a style's name. */
const BY_NAME = /STYLEREF|\bTOC\b/;

/** The DOCX without the styles nothing in it uses; the same buffer when there are none, or it cannot tell. */
export const withoutUnusedStyles = leanerByNames({
  part: "word/styles.xml",
  read: readStyleSheet,
  named: styleReferences,
  unused: (sheet, used) => unusedStyles(sheet, used).map((id) => sheet.styles.get(id)!),
});

/** The styles a part names, or null when its fields may find paragraphs by a style's name. */
function styleReferences(xml: string): string[] | null {
  if (BY_NAME.test(xml)) return null;
  const references = Array.from(xml.matchAll(REFERENCE), (m) => m[2]);
  // A name written with a character reference (&#72;eading1) is not compared as text: it cannot tell.
  return references.some((r) => r.includes("&")) ? null : references;
}

/** The ids of the styles neither used nor needed by a used one, in the sheet's order. */
function unusedStyles(sheet: StyleSheet, used: Set<string>): string[] {
  const kept = new Set<string>();
  const keep = (id: string) => {
    const style = sheet.styles.get(id);
    if (!style || kept.has(id)) return;
    kept.add(id);
    for (const need of style.needs) keep(need);
  };
  for (const [id, style] of sheet.styles) if (style.always || used.has(id)) keep(id);
  return [...sheet.styles.keys()].filter((id) => !kept.has(id));
}

/**
 * The sheet's styles with where each begins and ends, or null to leave it whole: no style of its own to
 * take out, or anything its reading could get wrong (elementsOf; an id missing or given twice).
 */
function readStyleSheet(xml: string): StyleSheet | null {
  const elements = elementsOf(xml, ["style"]);
  if (!elements) return null;
  const styles = new Map<string, Style>();
  for (const { tag, content, start, end } of elements) {
    const id = attribute(tag, "styleId");
    if (id === undefined || styles.has(id)) return null;
    // A style named in the parts with a character reference would not be found by its id as written.
    const always = !on(attribute(tag, "customStyle")) || on(attribute(tag, "default")) || id.includes("&");
    styles.set(id, { start, end, always, needs: Array.from(content.matchAll(NEEDS), (n) => n[2]) });
  }
  return [...styles.values()].some((s) => !s.always) ? { text: xml, styles } : null;
}

/** An on/off attribute (ST_OnOff): absent is off. */
const on = (value: string | undefined) => value !== undefined && !/^(0|false|off)$/.test(value);

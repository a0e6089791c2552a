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
import { type DeflatedPart, deflatedPart } from "@/lib/files/zip-patch";
import { endOfTag, foundInParts, readOnce, remember, storedData, withPart } from "@/lib/pdf/docx-parts";
import { readCentralDirectory, type ZipEntry } from "@/lib/templates/zip-reader";

const STYLES = "word/styles.xml";
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
const REFERENCE =
  /<(?:[\w.-]+:)?(?:pStyle|rStyle|tblStyle|numStyleLink|styleLink|defaultTableStyle|clickAndTypeStyle)\b[^>]*?\s(?:[\w.-]+:)?val\s*=\s*(["'])(.*?)\1/g;
const NEEDS = /<(?:[\w.-]+:)?(?:basedOn|next|link)\b[^>]*?\s(?:[\w.-]+:)?val\s*=\s*(["'])(.*?)\1/g;
/** Field instructions that may find paragraphs by a style's name. */
const BY_NAME = /STYLEREF|\bTOC\b/;

/** By the sheet's stored data: its styles, or null when it is not to be touched. */
const sheets = new Map<string, StyleSheet | null>();
/** By a part's stored data (not the body's): the styles it names, or null when its fields may name them. */
const partReferences = new Map<string, string[] | null>();
/** By the sheet's data and the styles taken out: the leaner sheet. */
const leanerSheets = new Map<string, DeflatedPart>();

/** The DOCX without the styles nothing in it uses; the same buffer when there are none, or it cannot tell. */
export function withoutUnusedStyles(docx: Buffer): Buffer {
  let entries: ZipEntry[];
  try {
    entries = readCentralDirectory(docx);
  } catch {
    return docx;
  }
  const stylesEntry = entries.find((e) => e.name === STYLES);
  const stylesData = stylesEntry && storedData(docx, stylesEntry);
  if (!stylesEntry || !stylesData) return docx;
  const { key: sheetKey, value: sheet } = readOnce(sheets, stylesEntry, stylesData, readStyleSheet);
  if (!sheet) return docx;

  const used = foundInParts(docx, entries, (name) => name === STYLES || name.startsWith("word/glossary/"), styleReferences, partReferences);
  if (!used) return docx;
  const unused = unusedStyles(sheet, used);
  if (unused.length === 0) return docx;
  const leanerKey = `${sheetKey}\n${unused.join("\n")}`;
  return withPart(docx, STYLES, leanerSheets.get(leanerKey) ?? remember(leanerSheets, leanerKey, deflatedPart(withoutStyles(sheet, unused))));
}

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

function withoutStyles(sheet: StyleSheet, ids: string[]): string {
  const spans = ids.map((id) => sheet.styles.get(id)!).sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += sheet.text.slice(at, span.start);
    at = span.end;
  }
  return out + sheet.text.slice(at);
}

const attribute = (tag: string, name: string) => tag.match(new RegExp(`\\s(?:[\\w.-]+:)?${name}\\s*=\\s*(["'])(.*?)\\1`))?.[2];

/**
 * The sheet's styles with where each begins and ends, or null to leave it whole: no style of its own to
 * take out, or anything this reading could get wrong (a comment, CDATA, markup compatibility, an id
 * given twice, a style that does not end).
 */
function readStyleSheet(xml: string): StyleSheet | null {
  if (/<!--|<!\[CDATA\[|AlternateContent/.test(xml)) return null;
  const styles = new Map<string, Style>();
  let removable = 0;
  const start = /<([\w.-]+:)?style(?=[\s/>])/g;
  for (let m = start.exec(xml); m; m = start.exec(xml)) {
    const tagEnd = endOfTag(xml, m.index);
    if (tagEnd < 0) return null;
    const tag = xml.slice(m.index, tagEnd + 1);
    const selfClosing = tag.endsWith("/>");
    const close = `</${m[1] ?? ""}style>`;
    const closeAt = selfClosing ? tagEnd + 1 : xml.indexOf(close, tagEnd);
    if (closeAt < 0) return null;
    const id = attribute(tag, "styleId");
    if (id === undefined || styles.has(id)) return null;
    const end = selfClosing ? tagEnd + 1 : closeAt + close.length;
    // A style named in the parts with a character reference would not be found by its id as written.
    const always = !on(attribute(tag, "customStyle")) || on(attribute(tag, "default")) || id.includes("&");
    if (!always) removable++;
    styles.set(id, { start: m.index, end, always, needs: Array.from(xml.slice(tagEnd + 1, closeAt).matchAll(NEEDS), (n) => n[2]) });
    start.lastIndex = end;
  }
  return removable > 0 ? { text: xml, styles } : null;
}

/** An on/off attribute (ST_OnOff): absent is off. */
const on = (value: string | undefined) => value !== undefined && !/^(0|false|off)$/.test(value);

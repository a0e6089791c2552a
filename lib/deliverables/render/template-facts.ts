// What a render needs to know of its template's package, read once per template: the fonts and
// styles generated content is written in, the text width pictures are fitted to, and the highest
// numbering and drawing ids new ones are numbered above. The stack pre-pass only repeats paragraphs
// and rows, which changes none of these, so they are kept by the template's bytes' digest.
import type PizZip from "pizzip";
import { LruCache } from "@/lib/cache/lru";
import { type DocxStyles, readDocxStyles, readThemeFonts, type ThemeFonts } from "./docx-styles";
import { templateKey } from "./inspection-cache";
import { CONTENT_PARTS, maxNumber } from "./package";
import type { TemplateKind } from "./types";
import { attrValue } from "./xml";

/** 6.5 inches, Word's text width on Letter paper with 1-inch margins. */
const DEFAULT_CONTENT_WIDTH = 9360;

export interface TemplateFacts {
  theme: ThemeFonts;
  styles: DocxStyles;
  /** DOCX: the narrowest text width of the document's sections, in twips. */
  contentWidth: number;
  maxNumId: number;
  maxDrawingId: number;
}

/** Facts are small (a map of the template's styles): as many as the inspections kept. */
const templateFacts = new LruCache<string, TemplateFacts>(256);

/** The facts of the template loaded in `zip`, read once per `digest`. */
export function readTemplateFacts(zip: PizZip, kind: TemplateKind, digest: string): TemplateFacts {
  const key = templateKey(kind, digest);
  let facts = templateFacts.get(key);
  if (facts) return facts;
  const text = (path: string) => zip.file(path)?.asText();
  const theme = kind === "docx" ? readThemeFonts(text("word/theme/theme1.xml")) : {};
  // Drawing ids must be unique in the whole document (DOCX) or slide (PPTX): new ones start above every existing one.
  const idPattern = kind === "docx" ? /<wp:docPr\b[^>]*\bid="(\d+)"/g : /<p:cNvPr\b[^>]*\bid="(\d+)"/g;
  const parts = Object.keys(zip.files).filter((name) => CONTENT_PARTS[kind].test(name));
  facts = {
    theme,
    styles: kind === "docx" ? readDocxStyles(text("word/styles.xml"), theme) : readDocxStyles(undefined, {}),
    contentWidth: kind === "docx" ? sectionContentWidth(text("word/document.xml") ?? "") : DEFAULT_CONTENT_WIDTH,
    maxNumId: maxNumber(text("word/numbering.xml") ?? "", /<w:num\b[^>]*\bw:numId="(\d+)"/g),
    maxDrawingId: Math.max(0, ...parts.map((name) => maxNumber(text(name) ?? "", idPattern))),
  };
  templateFacts.set(key, facts);
  return facts;
}

/** For tests: forget every template's facts. */
export function clearTemplateFacts(): void {
  templateFacts.clear();
}

function sectionContentWidth(documentXml: string): number {
  const widths: number[] = [];
  for (const [sectPr] of documentXml.matchAll(/<w:sectPr\b[\s\S]*?<\/w:sectPr>/g)) {
    const pgSz = /<w:pgSz\b[^>]*>/.exec(sectPr)?.[0];
    const pgMar = /<w:pgMar\b[^>]*>/.exec(sectPr)?.[0] ?? "";
    const page = Number(pgSz && attrValue(pgSz, "w:w"));
    if (!page) continue;
    const margin = (side: string) => Math.abs(Number(attrValue(pgMar, side) ?? 0)) || 0;
    const width = page - margin("w:left") - margin("w:right") - margin("w:gutter");
    if (width > 0) widths.push(width);
  }
  return widths.length > 0 ? Math.min(...widths) : DEFAULT_CONTENT_WIDTH;
}

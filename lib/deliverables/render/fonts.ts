// Fonts the generated file uses, counted in text runs (runs that show at least one character).
// DOCX: a run's font is its own w:rFonts, else its character style's, else its paragraph style's,
// else the default paragraph style's, else docDefaults (else the theme's minor font).
// PPTX: a run's a:latin typeface, else the theme's major font in title placeholders, else its minor font.
import type PizZip from "pizzip";
import { type DocxStyles, readDocxStyles, readThemeFonts, rFontsName, styleFont, type ThemeFonts } from "./docx-styles";
import type { TemplateKind } from "./types";
import { attrValue } from "./xml";

export interface FontUsage {
  fonts: { name: string; usage: number }[];
  defaultFont: string;
}

const PPTX_DEFAULT_FONT = "Calibri";

/** `docxStyles`: the styles and theme as already read from this zip (by the render's PackageContext), when nothing has changed them since. */
export function readFonts(zip: PizZip, kind: TemplateKind, docxStyles?: { styles: DocxStyles; theme: ThemeFonts }): FontUsage {
  const text = (path: string) => zip.file(path)?.asText();
  const partNames = (pattern: RegExp) =>
    Object.keys(zip.files)
      .filter((name) => pattern.test(name))
      .sort();
  const counts = new Map<string, number>();
  const count = (font: string) => counts.set(font, (counts.get(font) ?? 0) + 1);

  let defaultFont: string;
  if (kind === "docx") {
    const theme = docxStyles?.theme ?? readThemeFonts(text("word/theme/theme1.xml"));
    const styles = docxStyles?.styles ?? readDocxStyles(text("word/styles.xml"), theme);
    defaultFont = styles.defaultFont;
    for (const name of partNames(/^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/)) {
      countDocxRuns(text(name) ?? "", styles, theme, count);
    }
  } else {
    const theme = readThemeFonts(text(partNames(/^ppt\/theme\/theme\d+\.xml$/)[0] ?? ""));
    defaultFont = theme.minor ?? PPTX_DEFAULT_FONT;
    for (const name of partNames(/^ppt\/slides\/slide\d+\.xml$/)) countPptxRuns(text(name) ?? "", theme, defaultFont, count);
  }
  const fonts = [...counts].map(([name, usage]) => ({ name, usage })).sort((a, b) => b.usage - a.usage || a.name.localeCompare(b.name));
  return { fonts, defaultFont };
}

function countDocxRuns(xml: string, styles: DocxStyles, theme: ThemeFonts, count: (font: string) => void): void {
  // Paragraphs and runs can nest (text boxes live inside runs), so both are tracked on stacks.
  const paragraphs: { style?: string }[] = [];
  const runs: { rStyle?: string; rFonts?: string; hasText: boolean }[] = [];
  const token = /<w:p[\s>]|<\/w:p>|<w:r[\s>]|<\/w:r>|<w:pStyle\b[^>]*>|<w:rStyle\b[^>]*>|<w:rFonts\b[^>]*>|<w:t(?:\s[^>]*)?>(?!<\/w:t>)|<w:r\/>/g;
  let inParagraphProps = false;
  for (const match of xml.matchAll(token)) {
    const t = match[0];
    if (t.startsWith("<w:p") && !t.startsWith("<w:pStyle")) {
      paragraphs.push({});
      inParagraphProps = true;
    } else if (t === "</w:p>") {
      paragraphs.pop();
    } else if (t.startsWith("<w:pStyle")) {
      const p = paragraphs[paragraphs.length - 1];
      if (p && inParagraphProps) p.style = attrValue(t, "w:val");
    } else if (t.startsWith("<w:rStyle")) {
      const r = runs[runs.length - 1];
      if (r) r.rStyle = attrValue(t, "w:val");
    } else if (t.startsWith("<w:rFonts")) {
      // rFonts inside w:pPr/w:rPr format the paragraph mark, not a run: only a run's own counts.
      const r = runs[runs.length - 1];
      if (r && !inParagraphProps) r.rFonts = t;
    } else if (t.startsWith("<w:t")) {
      const r = runs[runs.length - 1];
      if (r) r.hasText = true;
    } else if (t === "</w:r>") {
      const r = runs.pop();
      if (!r?.hasText) continue;
      const paragraphStyle = paragraphs[paragraphs.length - 1]?.style ?? styles.defaultParagraphStyle;
      const font = (r.rFonts && rFontsName(r.rFonts, theme)) || styleFont(styles, r.rStyle) || styleFont(styles, paragraphStyle) || styles.defaultFont;
      count(font);
    } else if (t.startsWith("<w:r")) {
      if (t !== "<w:r/>") runs.push({ hasText: false });
      inParagraphProps = false;
    }
  }
}

function countPptxRuns(xml: string, theme: ThemeFonts, defaultFont: string, count: (font: string) => void): void {
  // Shapes and table frames set the context (a title placeholder uses the major font); runs are counted in it.
  let isTitle = false;
  for (const [t] of xml.matchAll(/<p:(?:sp|graphicFrame|pic|cxnSp)[\s>]|<p:ph\b[^>]*>|<a:r>[\s\S]*?<\/a:r>/g)) {
    if (t.startsWith("<p:ph")) {
      isTitle = /\btype="(title|ctrTitle)"/.test(t);
    } else if (t.startsWith("<p:")) {
      isTitle = false;
    } else if (/<a:t>[^<]*\S[^<]*<\/a:t>/.test(t)) {
      const typeface = /<a:latin\b[^>]*>/.exec(t)?.[0];
      let font = typeface ? attrValue(typeface, "typeface") : undefined;
      if (font === "+mj-lt") font = theme.major;
      else if (font === "+mn-lt") font = theme.minor;
      count(font || (isTitle ? theme.major : theme.minor) || defaultFont);
    }
  }
}

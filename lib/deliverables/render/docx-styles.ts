// Reads what we need from a DOCX's word/styles.xml and theme: style ids by role, each style's font,
// and the document's default font. Regex-level reading is enough: these parts are machine-written
// and were checked to be well-formed when the template was inspected.
import { attrValue } from "./xml";

export interface DocxStyle {
  type: string;
  name: string;
  basedOn?: string;
  /** The style's own run font, theme references resolved. */
  font?: string;
  isDefault: boolean;
}

export interface DocxStyles {
  byId: Map<string, DocxStyle>;
  /** docDefaults font, else the theme's minor font, else Word's built-in default. */
  defaultFont: string;
  headingStyles: Partial<Record<number, string>>;
  listParagraphStyle?: string;
  hyperlinkStyle?: string;
  defaultParagraphStyle?: string;
}

export interface ThemeFonts {
  major?: string;
  minor?: string;
}

/** Word's fallback when neither styles nor theme name a font. */
const WORD_DEFAULT_FONT = "Times New Roman";

export function readThemeFonts(themeXml: string | undefined): ThemeFonts {
  if (!themeXml) return {};
  const latin = (scheme: string) => new RegExp(`<a:${scheme}>\\s*<a:latin\\b([^>]*)>`).exec(themeXml)?.[1];
  const face = (attrs: string | undefined) => (attrs ? attrValue(attrs, "typeface") || undefined : undefined);
  return { major: face(latin("majorFont")), minor: face(latin("minorFont")) };
}

/** The font an `<w:rFonts …/>` element names for Latin text, theme references resolved. */
export function rFontsName(rFonts: string, theme: ThemeFonts): string | undefined {
  const themed = attrValue(rFonts, "w:asciiTheme") ?? attrValue(rFonts, "w:hAnsiTheme");
  if (themed) {
    const font = themed.startsWith("major") ? theme.major : theme.minor;
    if (font) return font;
  }
  return attrValue(rFonts, "w:ascii") ?? attrValue(rFonts, "w:hAnsi") ?? undefined;
}

export function readDocxStyles(stylesXml: string | undefined, theme: ThemeFonts): DocxStyles {
  const byId = new Map<string, DocxStyle>();
  const result: DocxStyles = { byId, defaultFont: theme.minor ?? WORD_DEFAULT_FONT, headingStyles: {} };
  if (!stylesXml) return result;

  const defaults = /<w:rPrDefault\b[\s\S]*?<\/w:rPrDefault>/.exec(stylesXml)?.[0];
  const defaultRFonts = defaults && /<w:rFonts\b[^>]*>/.exec(defaults)?.[0];
  const defaultFont = defaultRFonts && rFontsName(defaultRFonts, theme);
  if (defaultFont) result.defaultFont = defaultFont;

  for (const match of stylesXml.matchAll(/<w:style\b([^>]*?)(?:\/>|>([\s\S]*?)<\/w:style>)/g)) {
    const [, attrs, body = ""] = match;
    const id = attrValue(attrs, "w:styleId");
    if (!id) continue;
    const rFonts = /<w:rPr\b[\s\S]*?(<w:rFonts\b[^>]*>)/.exec(body)?.[1];
    const style: DocxStyle = {
      type: attrValue(attrs, "w:type") ?? "paragraph",
      name: attrValue(/<w:name\b[^>]*>/.exec(body)?.[0] ?? "", "w:val") ?? id,
      basedOn: attrValue(/<w:basedOn\b[^>]*>/.exec(body)?.[0] ?? "", "w:val"),
      font: rFonts ? rFontsName(rFonts, theme) : undefined,
      isDefault: /^(1|true|on)$/.test(attrValue(attrs, "w:default") ?? ""),
    };
    byId.set(id, style);
    const name = style.name.toLowerCase();
    const heading = /^heading ([1-6])$/.exec(name);
    if (style.type === "paragraph" && heading) result.headingStyles[Number(heading[1])] ??= id;
    if (style.type === "paragraph" && name === "list paragraph") result.listParagraphStyle ??= id;
    if (style.type === "character" && name === "hyperlink") result.hyperlinkStyle ??= id;
    if (style.type === "paragraph" && style.isDefault) result.defaultParagraphStyle ??= id;
  }
  return result;
}

/** A style's font, following basedOn (with a guard against cycles). */
export function styleFont(styles: DocxStyles, id: string | undefined): string | undefined {
  const seen = new Set<string>();
  for (let current = id; current && !seen.has(current); current = styles.byId.get(current)?.basedOn) {
    seen.add(current);
    const font = styles.byId.get(current)?.font;
    if (font) return font;
  }
  return undefined;
}

// The template doctor: what will go wrong with a template before anything is generated from it.
// Each finding names where it is (part, paragraph or slide) and what to do about it:
//   TagNotFilled        a {tag} in a part Quire does not fill (comments, charts, SmartArt, notes):
//                       it prints as written
//   BlankLineLeft       a section tag alone on its line whose partner shares a line with text:
//                       an empty line stays behind when the section shows (or hides)
//   FontMissing         a font the document asks for that the converter does not have (and what it
//                       substitutes); FontSubstituted when a metric-compatible twin stands in
//   ImageTooLarge       a picture so large it makes every document and PDF heavy
//   RendersDifferently  SmartArt, ActiveX controls, embedded objects, 3-D effects, a table of contents
//                       field: things LibreOffice draws unlike Word or PowerPoint
import { imageSize } from "image-size";
import PizZip from "pizzip";
import { readFonts } from "@/lib/deliverables/render/fonts";
import { CONTENT_PARTS } from "@/lib/deliverables/render/package";
import type { TemplateKind } from "@/lib/templates/inspect";

export type FindingCode = "TagNotFilled" | "BlankLineLeft" | "FontMissing" | "FontSubstituted" | "ImageTooLarge" | "RendersDifferently";

export interface TemplateFinding {
  code: FindingCode;
  severity: "warning" | "info";
  message: string;
  /** Where, for people: "word/document.xml, paragraph 12", "slide 3". */
  location: string;
}

export interface DoctorOptions {
  /** Font families the converter has; null when it cannot tell (then fonts are not checked). */
  fonts: string[] | null;
}

/** A picture over either limit makes every generated file heavy for no visible gain. */
export const IMAGE_LIMITS = { bytes: 2 * 1024 * 1024, pixels: 4000 } as const;

/** LibreOffice's metric-compatible replacements (same widths, so line breaks and pages match). */
const METRIC_TWINS: Record<string, string> = {
  arial: "Liberation Sans",
  helvetica: "Liberation Sans",
  "times new roman": "Liberation Serif",
  times: "Liberation Serif",
  "courier new": "Liberation Mono",
  calibri: "Carlito",
  cambria: "Caladea",
};

const FILLED_ELSEWHERE = /^docProps\//;

function where(part: string, paragraph?: number): string {
  const slide = /^ppt\/slides\/slide(\d+)\.xml$/.exec(part);
  if (slide) return `slide ${slide[1]}${paragraph ? `, paragraph ${paragraph}` : ""}`;
  return paragraph ? `${part}, paragraph ${paragraph}` : part;
}

/** The text a paragraph shows: its text runs joined (a tag split across runs reads whole). */
function paragraphTexts(xml: string, w: "w" | "a"): string[] {
  const paragraphs = xml.match(new RegExp(`<${w}:p\\b[^>]*>[\\s\\S]*?</${w}:p>`, "g")) ?? [];
  const t = new RegExp(`<${w}:t(?:\\s[^>]*)?>([^<]*)</${w}:t>`, "g");
  return paragraphs.map((p) => [...p.matchAll(t)].map((m) => m[1]).join(""));
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

export function checkTemplate(file: Buffer, kind: TemplateKind, options: DoctorOptions): TemplateFinding[] {
  const zip = new PizZip(file);
  const names = Object.keys(zip.files)
    .filter((n) => !zip.files[n].dir)
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const text = (name: string) => zip.file(name)?.asText() ?? "";
  const w = kind === "docx" ? "w" : "a";
  const findings: TemplateFinding[] = [];

  for (const name of names.filter((n) => n.endsWith(".xml"))) {
    const xml = text(name);
    if (CONTENT_PARTS[kind].test(name)) {
      findings.push(...blankLines(name, paragraphTexts(xml, w).map(unescape)));
      findings.push(...rendersDifferently(name, xml));
    } else if (
      !FILLED_ELSEWHERE.test(name) &&
      !/\.rels$|\[Content_Types\]|styles|theme|settings|fontTable|numbering|webSettings|presProps|viewProps|tableStyles/.test(name)
    ) {
      const shown = unescapeXml(xml.replace(/<[^>]+>/g, " "));
      for (const tag of new Set(shown.match(/\{[^{}\s][^{}]{0,98}\}/g) ?? [])) {
        findings.push({
          code: "TagNotFilled",
          severity: "warning",
          message: `${tag} is in ${describePart(name)}, which Quire does not fill: it will print as written. Move it into the document's text.`,
          location: where(name),
        });
      }
    }
  }
  if (names.some((n) => /\/diagrams\/data\d*\.xml$/.test(n))) {
    const part = names.find((n) => /\/diagrams\/data\d*\.xml$/.test(n))!;
    findings.push({
      code: "RendersDifferently",
      severity: "warning",
      message:
        "The document holds SmartArt: LibreOffice draws it from the fallback picture Word saved with it (or not at all), so it may look different and its text cannot be filled. Convert the SmartArt to shapes or a picture.",
      location: part,
    });
  }
  findings.push(...largeImages(zip, names));
  if (options.fonts) findings.push(...missingFonts(zip, kind, options.fonts));
  return findings;
}

function describePart(name: string): string {
  if (/comments/.test(name)) return "a comment";
  if (/\/charts\//.test(name)) return "a chart";
  if (/\/diagrams\//.test(name)) return "SmartArt";
  if (/notesSlide/.test(name)) return "the speaker notes";
  if (/\/embeddings\//.test(name)) return "an embedded object";
  return name;
}

/** Section tags alone on their line whose partner shares a line with text leave an empty paragraph. */
function blankLines(part: string, paragraphs: string[]): TemplateFinding[] {
  const findings: TemplateFinding[] = [];
  const open: { name: string; tag: string; paragraph: number; alone: boolean }[] = [];
  paragraphs.forEach((textOf, i) => {
    const trimmed = textOf.trim();
    for (const m of textOf.matchAll(/\{([#^/])([^{}]*)\}/g)) {
      const tag = m[0];
      const alone = trimmed === tag;
      if (m[1] !== "/") {
        open.push({ name: m[2].trim(), tag, paragraph: i + 1, alone });
        continue;
      }
      const at = open.map((o) => o.name).lastIndexOf(m[2].trim());
      if (at < 0) continue;
      const [start] = open.splice(at, 1);
      if (start.paragraph === i + 1 || start.alone === alone) continue;
      const [lonely, other] = start.alone ? [start.tag, tag] : [tag, start.tag];
      const line = start.alone ? start.paragraph : i + 1;
      findings.push({
        code: "BlankLineLeft",
        severity: "warning",
        message: `${lonely} is alone on its line but ${other} shares a line with text, so an empty line stays where ${lonely} is. Put ${other} on a line of its own too, or ${lonely} beside the text.`,
        location: where(part, line),
      });
    }
  });
  return findings;
}

function rendersDifferently(part: string, xml: string): TemplateFinding[] {
  const checks: [RegExp, string][] = [
    [/<w:control\b|<w:ocx\b|activeX/, "An ActiveX form control: LibreOffice shows a picture of it or nothing. Use a plain text field or a {tag}."],
    [/<w:object\b|<p:oleObj\b/, "An embedded object (e.g. a spreadsheet): LibreOffice prints the preview picture saved with it, which may be out of date."],
    [/<a:sp3d\b|<a:scene3d\b/, "3-D effects on a shape or WordArt: LibreOffice draws them flat."],
    [
      /<w:instrText[^>]*>\s*TOC\b|<w:fldSimple[^>]*w:instr="\s*TOC\b/,
      "A table of contents: it prints as last saved in Word, not updated for generated content. Update it in Word before uploading, or avoid page numbers in it.",
    ],
  ];
  return checks
    .filter(([pattern]) => pattern.test(xml))
    .map(([, message]) => ({ code: "RendersDifferently" as const, severity: "warning" as const, message, location: where(part) }));
}

function largeImages(zip: PizZip, names: string[]): TemplateFinding[] {
  const findings: TemplateFinding[] = [];
  for (const name of names.filter((n) => /\/media\/[^/]+\.(png|jpe?g|gif|bmp|tiff?|webp)$/i.test(n))) {
    const data = zip.file(name)!.asNodeBuffer();
    let size: { width?: number; height?: number } = {};
    try {
      size = imageSize(data);
    } catch {
      // Unreadable dimensions: the byte size still tells.
    }
    const pixels = Math.max(size.width ?? 0, size.height ?? 0);
    if (data.length <= IMAGE_LIMITS.bytes && pixels <= IMAGE_LIMITS.pixels) continue;
    const mb = (data.length / 1024 / 1024).toFixed(1);
    const dims = size.width && size.height ? `, ${size.width}×${size.height} px` : "";
    findings.push({
      code: "ImageTooLarge",
      severity: "warning",
      message: `${name.split("/").pop()} is ${mb} MB${dims}: every document and PDF made from this template carries it. Resize it to at most ${IMAGE_LIMITS.pixels / 2} px on its longest side before uploading.`,
      location: where(name),
    });
  }
  return findings;
}

function missingFonts(zip: PizZip, kind: TemplateKind, installed: string[]): TemplateFinding[] {
  const have = new Set(installed.map((f) => f.toLowerCase()));
  const { fonts } = readFonts(zip, kind);
  const findings: TemplateFinding[] = [];
  for (const { name } of fonts) {
    if (have.has(name.toLowerCase())) continue;
    const twin = METRIC_TWINS[name.toLowerCase()];
    if (twin && have.has(twin.toLowerCase())) {
      findings.push({
        code: "FontSubstituted",
        severity: "info",
        message: `${name} is not installed on the converter; LibreOffice uses ${twin}, which has the same character widths, so lines and pages break the same way.`,
        location: "fonts",
      });
    } else {
      findings.push({
        code: "FontMissing",
        severity: "warning",
        message: `${name} is not installed on the converter: LibreOffice substitutes another font, so lines and pages may break differently. Install ${name} on the server (or in the Gotenberg image), or use another font.`,
        location: "fonts",
      });
    }
  }
  return findings;
}

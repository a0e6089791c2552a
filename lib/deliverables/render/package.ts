// Package-level bookkeeping around one render: what generated content needs outside its own part
// (hyperlink relationships, Word numbering definitions, unique drawing ids, namespace declarations,
// the default font). Content registers needs while rendering; finish() writes them once afterwards,
// when docxtemplater and the image module have written their own changes to the zip.
import type PizZip from "pizzip";
import type { DocxStyles, ThemeFonts } from "./docx-styles";
import type { TemplateFacts } from "./template-facts";
import type { TemplateKind } from "./types";
import { buildElement, ensureRootNamespaces, escapeAttr, parseElement, setChild } from "./xml";

const NS = {
  w: "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
  r: "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
  wp: "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
  a: "http://schemas.openxmlformats.org/drawingml/2006/main",
  p: "http://schemas.openxmlformats.org/presentationml/2006/main",
  rels: "http://schemas.openxmlformats.org/package/2006/relationships",
};
const REL_TYPE = {
  hyperlink: `${NS.r}/hyperlink`,
  numbering: `${NS.r}/numbering`,
  styles: `${NS.r}/styles`,
};
const CONTENT_TYPE = {
  numbering: "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml",
  styles: "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
  rels: "application/vnd.openxmlformats-package.relationships+xml",
};
export const TWIPS_TO_EMU = 635;

export const CONTENT_PARTS = {
  docx: /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/,
  pptx: /^ppt\/(slides|slideLayouts|slideMasters)\/[^/]+\.xml$/,
};

interface ListDefinition {
  numId: number;
  ordered: boolean;
  start: number;
}

export class PackageContext {
  readonly styles: DocxStyles;
  readonly theme: ThemeFonts;
  /** DOCX: the narrowest text width of the document's sections, in twips. */
  readonly contentWidth: number;
  private readonly links = new Map<string, { id: string; url: string }[]>();
  private readonly lists: ListDefinition[] = [];
  private nextNumId: number;
  private nextDrawingId: number;
  private linkCount = 0;

  constructor(
    private readonly zip: PizZip,
    readonly kind: TemplateKind,
    facts: TemplateFacts,
  ) {
    this.theme = facts.theme;
    this.styles = facts.styles;
    this.contentWidth = facts.contentWidth;
    this.nextNumId = facts.maxNumId + 1;
    this.nextDrawingId = facts.maxDrawingId + 1;
  }

  /**
   * Gives every content part a relationships part. The image module adds image relationships to a
   * part's existing .rels and otherwise copies the main part's, which a minimal package may lack.
   */
  ensureRelationshipParts(): void {
    for (const name of Object.keys(this.zip.files)) {
      if (CONTENT_PARTS[this.kind].test(name) && !this.zip.file(relsPathOf(name))) addRelationships(this.zip, relsPathOf(name), []);
    }
  }

  /** Registers an external hyperlink from `partPath`; returns the relationship id to reference. */
  addLink(partPath: string, url: string): string {
    const list = this.links.get(partPath) ?? [];
    this.links.set(partPath, list);
    const existing = list.find((link) => link.url === url);
    if (existing) return existing.id;
    // Not of the form rId<n>: the image module numbers its relationships by the highest rId<n>.
    const id = `quireLink${++this.linkCount}`;
    list.push({ id, url });
    return id;
  }

  newList(ordered: boolean, start: number): number {
    const numId = this.nextNumId++;
    this.lists.push({ numId, ordered, start });
    return numId;
  }

  drawingId(): number {
    return this.nextDrawingId++;
  }

  /** Writes everything registered during rendering into the zip. */
  finish(defaultFont: string | undefined): void {
    for (const [partPath, links] of this.links) {
      addRelationships(
        this.zip,
        relsPathOf(partPath),
        links.map(({ id, url }) => `<Relationship Id="${id}" Type="${REL_TYPE.hyperlink}" Target="${escapeAttr(url)}" TargetMode="External"/>`),
      );
    }
    if (this.lists.length > 0) this.writeNumbering();
    for (const name of Object.keys(this.zip.files)) {
      if (!CONTENT_PARTS[this.kind].test(name)) continue;
      const xml = this.zip.file(name)!.asText();
      const fixed = ensureRootNamespaces(xml, this.kind === "docx" ? { r: NS.r, wp: NS.wp } : { r: NS.r, a: NS.a });
      if (fixed !== xml) this.zip.file(name, fixed);
    }
    if (defaultFont) {
      if (this.kind === "docx") this.setDocxDefaultFont(defaultFont);
      else this.setThemeMinorFont(defaultFont);
    }
  }

  // -------------------------------------------------------------------------------------------

  private writeNumbering(): void {
    const path = "word/numbering.xml";
    const existing = this.zip.file(path)?.asText();
    const bulletId = maxNumber(existing ?? "", /<w:abstractNum\b[^>]*\bw:abstractNumId="(\d+)"/g) + 1;
    const decimalId = bulletId + 1;
    const abstracts = abstractNum(bulletId, false) + abstractNum(decimalId, true);
    const nums = this.lists
      .map(({ numId, ordered, start }) => {
        // A fresh instance with a start override restarts numbering for each ordered list.
        const overrides = ordered
          ? Array.from({ length: 9 }, (_, lvl) => `<w:lvlOverride w:ilvl="${lvl}"><w:startOverride w:val="${lvl === 0 ? start : 1}"/></w:lvlOverride>`).join("")
          : "";
        return `<w:num w:numId="${numId}"><w:abstractNumId w:val="${ordered ? decimalId : bulletId}"/>${overrides}</w:num>`;
      })
      .join("");

    if (existing) {
      // Schema order: every abstractNum before the first num; nums before numIdMacAtCleanup.
      const firstNum = /<w:num[\s>]/.exec(existing)?.index;
      const tail = /<w:numIdMacAtCleanup\b|<\/w:numbering>/.exec(existing)?.index ?? existing.length;
      const at = firstNum ?? tail;
      const withAbstracts = existing.slice(0, at) + abstracts + existing.slice(at);
      const tailAfter = tail + abstracts.length;
      this.zip.file(path, withAbstracts.slice(0, tailAfter) + nums + withAbstracts.slice(tailAfter));
      return;
    }
    this.zip.file(path, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:numbering xmlns:w="${NS.w}">${abstracts}${nums}</w:numbering>`);
    addRelationships(this.zip, "word/_rels/document.xml.rels", [`<Relationship Id="quireNumbering" Type="${REL_TYPE.numbering}" Target="numbering.xml"/>`]);
    addOverride(this.zip, "/word/numbering.xml", CONTENT_TYPE.numbering);
  }

  /** Sets the font in docDefaults, so every run without a font of its own (or from its style) uses it. */
  private setDocxDefaultFont(font: string): void {
    const path = "word/styles.xml";
    let xml = this.zip.file(path)?.asText();
    if (!xml) {
      xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles xmlns:w="${NS.w}"></w:styles>`;
      addRelationships(this.zip, "word/_rels/document.xml.rels", [`<Relationship Id="quireStyles" Type="${REL_TYPE.styles}" Target="styles.xml"/>`]);
      addOverride(this.zip, "/word/styles.xml", CONTENT_TYPE.styles);
    }
    const rFonts = (current?: string) => {
      // Theme attributes win over explicit names in Word, so they go.
      const keep = (current ? (parseElement(current)?.attrs ?? []) : []).filter(([key]) => !/^w:(ascii|hAnsi)(Theme)?$/.test(key));
      return buildElement({ name: "w:rFonts", attrs: [["w:ascii", font], ["w:hAnsi", font], ...keep], children: [] });
    };
    const rPrDefault = /<w:rPrDefault\b[^>]*(?:\/>|>[\s\S]*?<\/w:rPrDefault>)/.exec(xml);
    if (rPrDefault) {
      const rPrMatch = /<w:rPr\b[^>]*(?:\/>|>[\s\S]*?<\/w:rPr>)/.exec(rPrDefault[0]);
      const rPr = (rPrMatch && parseElement(rPrMatch[0])) || { name: "w:rPr", attrs: [], children: [] };
      setChild(rPr, "w:rFonts", rFonts(rPr.children.find((child) => child.name === "w:rFonts")?.xml));
      const replacement = `<w:rPrDefault>${buildElement(rPr, ["w:rStyle", "w:rFonts"])}</w:rPrDefault>`;
      xml = xml.slice(0, rPrDefault.index) + replacement + xml.slice(rPrDefault.index + rPrDefault[0].length);
    } else {
      const replacement = `<w:rPrDefault><w:rPr>${rFonts()}</w:rPr></w:rPrDefault>`;
      const docDefaults = /<w:docDefaults\b[^>]*>/.exec(xml);
      if (docDefaults && !docDefaults[0].endsWith("/>")) {
        const at = docDefaults.index + docDefaults[0].length;
        xml = xml.slice(0, at) + replacement + xml.slice(at);
      } else {
        const block = `<w:docDefaults>${replacement}</w:docDefaults>`;
        xml = docDefaults ? xml.replace(docDefaults[0], block) : xml.replace(/<w:styles\b[^>]*>/, (start) => start + block);
      }
    }
    this.zip.file(path, xml);
  }

  /** PPTX: text without a typeface of its own uses the theme's minor (body) font. */
  private setThemeMinorFont(font: string): void {
    for (const name of Object.keys(this.zip.files).filter((n) => /^ppt\/theme\/theme\d+\.xml$/.test(n))) {
      const xml = this.zip.file(name)!.asText();
      const updated = xml.replace(/(<a:minorFont>\s*<a:latin\b[^>]*?\btypeface=")[^"]*"/, (_, head: string) => `${head}${escapeAttr(font)}"`);
      if (updated !== xml) this.zip.file(name, updated);
    }
  }
}

function abstractNum(id: number, ordered: boolean): string {
  const bullets = ["•", "◦", "▪"];
  const formats = ["decimal", "lowerLetter", "lowerRoman"];
  const levels = Array.from({ length: 9 }, (_, lvl) => {
    const format = ordered ? formats[lvl % 3] : "bullet";
    const text = ordered ? `%${lvl + 1}.` : bullets[lvl % 3];
    return (
      `<w:lvl w:ilvl="${lvl}"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${text}"/><w:lvlJc w:val="left"/>` +
      `<w:pPr><w:ind w:left="${720 * (lvl + 1)}" w:hanging="360"/></w:pPr></w:lvl>`
    );
  }).join("");
  return `<w:abstractNum w:abstractNumId="${id}"><w:multiLevelType w:val="hybridMultilevel"/>${levels}</w:abstractNum>`;
}

export function maxNumber(xml: string, pattern: RegExp): number {
  let max = 0;
  for (const match of xml.matchAll(pattern)) max = Math.max(max, Number(match[1]) || 0);
  return max;
}

export function relsPathOf(partPath: string): string {
  const slash = partPath.lastIndexOf("/");
  return `${partPath.slice(0, slash + 1)}_rels/${partPath.slice(slash + 1)}.rels`;
}

function addRelationships(zip: PizZip, relsPath: string, relationships: string[]): void {
  const existing = zip.file(relsPath)?.asText();
  if (!existing) {
    zip.file(relsPath, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${NS.rels}">${relationships.join("")}</Relationships>`);
    addDefault(zip, "rels", CONTENT_TYPE.rels);
    return;
  }
  if (relationships.length === 0) return;
  const fresh = relationships.filter((rel) => !existing.includes(`Id="${/Id="([^"]*)"/.exec(rel)?.[1]}"`));
  if (fresh.length === 0) return;
  // Function replacements: URLs may contain "$" sequences that string replacements would expand.
  const updated = /<\/Relationships>\s*$/.test(existing)
    ? existing.replace(/<\/Relationships>\s*$/, () => `${fresh.join("")}</Relationships>`)
    : existing.replace(/<Relationships\b([^>]*)\/>/, (_, attrs: string) => `<Relationships${attrs}>${fresh.join("")}</Relationships>`);
  zip.file(relsPath, updated);
}

function addOverride(zip: PizZip, partName: string, contentType: string): void {
  const xml = zip.file("[Content_Types].xml")?.asText();
  if (!xml || xml.includes(`PartName="${partName}"`)) return;
  zip.file("[Content_Types].xml", xml.replace(/<\/Types>\s*$/, `<Override PartName="${partName}" ContentType="${contentType}"/></Types>`));
}

function addDefault(zip: PizZip, extension: string, contentType: string): void {
  const xml = zip.file("[Content_Types].xml")?.asText();
  if (!xml || new RegExp(`Extension="${extension}"`, "i").test(xml)) return;
  zip.file(
    "[Content_Types].xml",
    xml.replace(/<Types\b[^>]*>/, (start) => `${start}<Default Extension="${extension}" ContentType="${contentType}"/>`),
  );
}

// Writes the HTML model as WordprocessingML. Generated paragraphs reuse the placeholder paragraph's
// properties and generated runs its run properties, so content inherits the template's look (font,
// size, alignment) and only adds what the HTML says. Child elements are written in schema order:
// Word rejects properties out of order.
import type { Block, Inline, Paragraph, RunStyle, Table } from "./html-model";
import type { WriterContext } from "./html-to-ooxml";
import { buildElement, escapeAttr, escapeText, parseElement, setChild, type XmlElement } from "./xml";

const RPR_ORDER = [
  "w:rStyle",
  "w:rFonts",
  "w:b",
  "w:bCs",
  "w:i",
  "w:iCs",
  "w:caps",
  "w:smallCaps",
  "w:strike",
  "w:dstrike",
  "w:outline",
  "w:shadow",
  "w:emboss",
  "w:imprint",
  "w:noProof",
  "w:snapToGrid",
  "w:vanish",
  "w:webHidden",
  "w:color",
  "w:spacing",
  "w:w",
  "w:kern",
  "w:position",
  "w:sz",
  "w:szCs",
  "w:highlight",
  "w:u",
  "w:effect",
  "w:bdr",
  "w:shd",
  "w:fitText",
  "w:vertAlign",
  "w:rtl",
  "w:cs",
  "w:em",
  "w:lang",
  "w:eastAsianLayout",
  "w:specVanish",
  "w:oMath",
] as const;

const PPR_ORDER = [
  "w:pStyle",
  "w:keepNext",
  "w:keepLines",
  "w:pageBreakBefore",
  "w:framePr",
  "w:widowControl",
  "w:numPr",
  "w:suppressLineNumbers",
  "w:pBdr",
  "w:shd",
  "w:tabs",
  "w:suppressAutoHyphens",
  "w:kinsoku",
  "w:wordWrap",
  "w:overflowPunct",
  "w:topLinePunct",
  "w:autoSpaceDE",
  "w:autoSpaceDN",
  "w:bidi",
  "w:adjustRightInd",
  "w:snapToGrid",
  "w:spacing",
  "w:ind",
  "w:contextualSpacing",
  "w:mirrorIndents",
  "w:suppressOverlap",
  "w:jc",
  "w:textDirection",
  "w:textAlignment",
  "w:textboxTightWrap",
  "w:outlineLvl",
  "w:divId",
  "w:cnfStyle",
  "w:rPr",
  "w:sectPr",
  "w:pPrChange",
] as const;

/** Heading sizes in half-points, used when the template has no Heading styles. */
const HEADING_SIZES = [0, 32, 28, 26, 24, 22, 22];
const JC = { left: "left", center: "center", right: "right", justify: "both" } as const;
const INDENT_STEP = 720;
const LINK_COLOR = "0563C1";
const BORDER = (side: string) => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="auto"/>`;

function element(xml: string, name: string): XmlElement {
  return parseElement(xml) ?? { name, attrs: [], children: [] };
}

export function docxBlocks(blocks: Block[], ctx: WriterContext): string {
  const basePPr = element(ctx.paragraphProps, "w:pPr");
  // A section break stored in the placeholder paragraph must stay single: it goes on the last paragraph.
  const sectPr = basePPr.children.find((child) => child.name === "w:sectPr")?.xml ?? null;
  setChild(basePPr, "w:sectPr", null);
  const out = blocks.map((block, i) => {
    const last = i === blocks.length - 1;
    if (block.type === "table") return table(block, ctx);
    return paragraph(block, ctx, basePPr, last ? sectPr : null);
  });
  // Word ends every table with a paragraph after it; a table cell must end with one.
  if (blocks.length === 0 || blocks[blocks.length - 1].type === "table") {
    out.push(paragraph({ type: "p", runs: [] }, ctx, basePPr, sectPr));
  }
  return out.join("");
}

function paragraph(p: Paragraph, ctx: WriterContext, base: XmlElement, sectPr: string | null): string {
  const pPr: XmlElement = { ...base, children: [...base.children] };
  const headingStyle = p.heading ? ctx.headingStyles[p.heading] : undefined;
  if (headingStyle) {
    setChild(pPr, "w:pStyle", `<w:pStyle w:val="${escapeAttr(headingStyle)}"/>`);
    setChild(pPr, "w:numPr", null);
  }
  if (p.list) {
    if (ctx.listParagraphStyle) setChild(pPr, "w:pStyle", `<w:pStyle w:val="${escapeAttr(ctx.listParagraphStyle)}"/>`);
    const numId = listNumId(p.list, ctx);
    setChild(pPr, "w:numPr", `<w:numPr><w:ilvl w:val="${p.list.level}"/><w:numId w:val="${numId}"/></w:numPr>`);
    setChild(pPr, "w:ind", null);
  } else if (p.indent) {
    setChild(pPr, "w:ind", `<w:ind w:left="${p.indent * INDENT_STEP}"/>`);
  }
  if (p.align) setChild(pPr, "w:jc", `<w:jc w:val="${JC[p.align]}"/>`);
  if (p.rule) setChild(pPr, "w:pBdr", '<w:pBdr><w:bottom w:val="single" w:sz="6" w:space="1" w:color="auto"/></w:pBdr>');
  if (sectPr) setChild(pPr, "w:sectPr", sectPr);

  // With a heading style, the template run's direct formatting (size, colour) would override the style.
  const runBase = headingStyle ? "" : ctx.runProps;
  const headingFallback: RunStyle & { size?: number } = p.heading && !headingStyle ? { bold: true, size: HEADING_SIZES[p.heading] } : {};
  const runs = p.runs.map((run) => ({ ...run, style: { ...headingFallback, ...run.style } }));
  return `<w:p>${pPr.children.length > 0 || pPr.attrs.length > 0 ? buildElement(pPr, PPR_ORDER) : ""}${writeRuns(runs, ctx, runBase)}</w:p>`;
}

// Lists are numbered per list: each HTML list gets its own numbering instance so numbering restarts.
const listNums = new WeakMap<WriterContext, Map<number, number>>();
function listNumId(list: NonNullable<Paragraph["list"]>, ctx: WriterContext): number {
  let nums = listNums.get(ctx);
  if (!nums) listNums.set(ctx, (nums = new Map()));
  let numId = nums.get(list.listId);
  if (numId === undefined) {
    numId = ctx.newList(list.ordered, list.start);
    nums.set(list.listId, numId);
  }
  return numId;
}

function table(t: Table, ctx: WriterContext): string {
  const columns = Math.max(...t.rows.map((row) => row.reduce((sum, cell) => sum + cell.colspan, 0)));
  const colWidth = Math.max(Math.floor(ctx.contentWidth / columns), 200);
  const tblPr =
    '<w:tblPr><w:tblW w:w="5000" w:type="pct"/>' +
    `<w:tblBorders>${["top", "left", "bottom", "right", "insideH", "insideV"].map(BORDER).join("")}</w:tblBorders>` +
    '<w:tblCellMar><w:left w:w="108" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr>';
  const grid = `<w:tblGrid>${`<w:gridCol w:w="${colWidth}"/>`.repeat(columns)}</w:tblGrid>`;
  const rows = t.rows.map((row) => {
    const header = row.every((cell) => cell.header);
    const used = row.reduce((sum, cell) => sum + cell.colspan, 0);
    const cells = [...row, ...Array.from({ length: columns - used }, () => ({ header: false, colspan: 1, blocks: [] as Block[] }))];
    const body = cells
      .map((cell) => {
        const width = colWidth * cell.colspan;
        const tcPr =
          `<w:tcPr><w:tcW w:w="${width}" w:type="dxa"/>${cell.colspan > 1 ? `<w:gridSpan w:val="${cell.colspan}"/>` : ""}` +
          `${cell.header ? '<w:shd w:val="clear" w:color="auto" w:fill="F2F2F2"/>' : ""}</w:tcPr>`;
        // Cell paragraphs take the template run's font but not its paragraph's indentation or breaks.
        return `<w:tc>${tcPr}${docxBlocks(cell.blocks, { ...ctx, paragraphProps: "", contentWidth: width })}</w:tc>`;
      })
      .join("");
    return `<w:tr>${header ? "<w:trPr><w:tblHeader/></w:trPr>" : ""}${body}</w:tr>`;
  });
  return `<w:tbl>${tblPr}${grid}${rows.join("")}</w:tbl>`;
}

/** Runs for splicing into an existing paragraph (inline mode). */
export function docxRuns(runs: Inline[], ctx: WriterContext): string {
  return writeRuns(runs, ctx, ctx.runProps);
}

function writeRuns(runs: (Inline & { style: RunStyle & { size?: number } })[], ctx: WriterContext, baseRPr: string): string {
  let out = "";
  let i = 0;
  while (i < runs.length) {
    const link = runs[i].style.link;
    if (!link) {
      out += run(runs[i++], ctx, baseRPr);
      continue;
    }
    // Consecutive runs of one link share one hyperlink element.
    let group = "";
    while (i < runs.length && runs[i].style.link === link) group += run(runs[i++], ctx, baseRPr);
    out += `<w:hyperlink r:id="${escapeAttr(ctx.link(link))}" w:history="1">${group}</w:hyperlink>`;
  }
  return out;
}

function run(inline: Inline & { style: RunStyle & { size?: number } }, ctx: WriterContext, baseRPr: string): string {
  const rPr = runProps(inline.style, ctx, baseRPr);
  if ("br" in inline) return `<w:r>${rPr}<w:br/></w:r>`;
  if ("tab" in inline) return `<w:r>${rPr}<w:tab/></w:r>`;
  return `<w:r>${rPr}<w:t xml:space="preserve">${escapeText(inline.text)}</w:t></w:r>`;
}

function runProps(style: RunStyle & { size?: number }, ctx: WriterContext, baseRPr: string): string {
  const rPr = element(baseRPr, "w:rPr");
  const toggle = (name: string, on: boolean | undefined) => {
    if (on === undefined) return;
    setChild(rPr, name, on ? `<${name}/>` : `<${name} w:val="0"/>`);
  };
  toggle("w:b", style.bold);
  toggle("w:bCs", style.bold);
  toggle("w:i", style.italic);
  toggle("w:iCs", style.italic);
  toggle("w:strike", style.strike);
  if (style.underline) setChild(rPr, "w:u", '<w:u w:val="single"/>');
  if (style.code) setChild(rPr, "w:rFonts", '<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New" w:cs="Courier New"/>');
  if (style.color) setChild(rPr, "w:color", `<w:color w:val="${style.color}"/>`);
  if (style.sup || style.sub) setChild(rPr, "w:vertAlign", `<w:vertAlign w:val="${style.sup ? "superscript" : "subscript"}"/>`);
  if (style.size) {
    setChild(rPr, "w:sz", `<w:sz w:val="${style.size}"/>`);
    setChild(rPr, "w:szCs", `<w:szCs w:val="${style.size}"/>`);
  }
  if (style.link) {
    if (ctx.hyperlinkStyle) {
      setChild(rPr, "w:rStyle", `<w:rStyle w:val="${escapeAttr(ctx.hyperlinkStyle)}"/>`);
    } else {
      if (!style.color) setChild(rPr, "w:color", `<w:color w:val="${LINK_COLOR}"/>`);
      setChild(rPr, "w:u", '<w:u w:val="single"/>');
    }
  }
  return rPr.children.length > 0 ? buildElement(rPr, RPR_ORDER) : "";
}

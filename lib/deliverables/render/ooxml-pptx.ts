// Writes the HTML model as DrawingML text (`<a:p>` paragraphs inside a shape's text body).
// Generated runs start from the placeholder run's `<a:rPr>`, so they keep the template's size,
// colour and typeface. Lists use PowerPoint's own bullets and auto-numbering. DrawingML text has no
// tables, so an HTML table becomes one paragraph per row with tab-separated cells.
import { flattenBlocks, type WriterContext } from "./html-to-ooxml";
import type { Block, Inline, Paragraph, RunStyle } from "./html-model";
import { buildElement, escapeAttr, escapeText, parseElement, setAttr, setChild, type XmlElement } from "./xml";

const RPR_ORDER = [
  "a:ln",
  "a:noFill",
  "a:solidFill",
  "a:gradFill",
  "a:blipFill",
  "a:pattFill",
  "a:grpFill",
  "a:effectLst",
  "a:effectDag",
  "a:highlight",
  "a:uLnTx",
  "a:uLn",
  "a:uFillTx",
  "a:uFill",
  "a:latin",
  "a:ea",
  "a:cs",
  "a:sym",
  "a:hlinkClick",
  "a:hlinkMouseOver",
  "a:rtl",
  "a:extLst",
] as const;
const FILLS = ["a:noFill", "a:solidFill", "a:gradFill", "a:blipFill", "a:pattFill", "a:grpFill"];

const PPR_ORDER = [
  "a:lnSpc",
  "a:spcBef",
  "a:spcAft",
  "a:buClrTx",
  "a:buClr",
  "a:buSzTx",
  "a:buSzPct",
  "a:buSzPts",
  "a:buFontTx",
  "a:buFont",
  "a:buNone",
  "a:buAutoNum",
  "a:buChar",
  "a:buBlip",
  "a:tabLst",
  "a:defRPr",
  "a:extLst",
] as const;
const BULLET_CHILDREN = ["a:buFontTx", "a:buFont", "a:buNone", "a:buAutoNum", "a:buChar", "a:buBlip"];

const HEADING_SCALE = [1, 1.6, 1.4, 1.25, 1.1, 1, 1];
const DEFAULT_SIZE = 1800;
const INDENT_STEP = 342900; // 0.375in in EMU
const BULLETS = ["•", "◦", "▪"];
const ALGN = { left: "l", center: "ctr", right: "r", justify: "just" } as const;

function element(xml: string, name: string): XmlElement {
  const el = parseElement(xml) ?? { name, attrs: [], children: [] };
  return { ...el, name };
}

export function pptxBlocks(blocks: Block[], ctx: WriterContext): string {
  const out: string[] = [];
  for (const block of blocks) {
    if (block.type === "table") {
      // One paragraph per row: the flattening gives "cell<tab>cell<br>cell<tab>cell".
      const lines = splitLines(flattenBlocks([block]));
      for (const line of lines) out.push(paragraph({ type: "p", runs: line }, ctx));
      continue;
    }
    out.push(paragraph(block, ctx));
  }
  // A text body needs at least one paragraph.
  if (out.length === 0) out.push(paragraph({ type: "p", runs: [] }, ctx));
  return out.join("");
}

function splitLines(runs: Inline[]): Inline[][] {
  const lines: Inline[][] = [[]];
  for (const run of runs) {
    if ("br" in run) lines.push([]);
    else lines[lines.length - 1].push(run);
  }
  return lines;
}

function paragraph(p: Paragraph, ctx: WriterContext): string {
  const pPr = element(ctx.paragraphProps, "a:pPr");
  if (p.list || p.indent) {
    for (const name of BULLET_CHILDREN) setChild(pPr, name, null);
    const level = p.list ? p.list.level + 1 : (p.indent ?? 0);
    setAttr(pPr, "marL", String(level * INDENT_STEP));
    setAttr(pPr, "indent", p.list ? String(-INDENT_STEP) : "0");
    if (!p.list) setChild(pPr, "a:buNone", "<a:buNone/>");
    else if (p.list.ordered) {
      setChild(pPr, "a:buFont", '<a:buFont typeface="+mj-lt"/>');
      setChild(pPr, "a:buAutoNum", `<a:buAutoNum type="arabicPeriod"${p.list.start > 1 ? ` startAt="${p.list.start}"` : ""}/>`);
    } else {
      setChild(pPr, "a:buFont", '<a:buFont typeface="Arial"/>');
      setChild(pPr, "a:buChar", `<a:buChar char="${BULLETS[p.list.level % BULLETS.length]}"/>`);
    }
  }
  if (p.align) setAttr(pPr, "algn", ALGN[p.align]);

  const heading: RunStyle & { scale?: number } = p.heading ? { bold: true, scale: HEADING_SCALE[p.heading] } : {};
  const runs = p.runs.map((run) => ({ ...run, style: { ...heading, ...run.style } }));
  const props = pPr.attrs.length > 0 || pPr.children.length > 0 ? buildElement(pPr, PPR_ORDER) : "";
  // An empty paragraph takes its height from endParaRPr: give it the template run's size.
  const end = runs.length === 0 ? endParaProps(ctx, heading) : "";
  return `<a:p>${props}${writeRuns(runs, ctx)}${end}</a:p>`;
}

function endParaProps(ctx: WriterContext, style: RunStyle & { scale?: number }): string {
  const rPr = runProps(style, ctx);
  return rPr
    .replace(/^<a:rPr\b/, "<a:endParaRPr")
    .replace(/<\/a:rPr>$/, "</a:endParaRPr>")
    .replace(/<a:hlinkClick[^>]*\/>/, "");
}

export function pptxRuns(runs: Inline[], ctx: WriterContext): string {
  return writeRuns(runs, ctx);
}

function writeRuns(runs: (Inline & { style: RunStyle & { scale?: number } })[], ctx: WriterContext): string {
  return runs
    .map((inline) => {
      const rPr = runProps(inline.style, ctx);
      if ("br" in inline) return rPr ? `<a:br>${rPr}</a:br>` : "<a:br/>";
      const text = "tab" in inline ? "\t" : escapeText(inline.text);
      return `<a:r>${rPr}<a:t>${text}</a:t></a:r>`;
    })
    .join("");
}

function runProps(style: RunStyle & { scale?: number }, ctx: WriterContext): string {
  const rPr = element(ctx.runProps, "a:rPr");
  const flag = (name: string, on: boolean | undefined, value = "1") => {
    if (on !== undefined) setAttr(rPr, name, on ? value : "0");
  };
  flag("b", style.bold);
  flag("i", style.italic);
  if (style.underline) setAttr(rPr, "u", "sng");
  if (style.strike) setAttr(rPr, "strike", "sngStrike");
  if (style.sup || style.sub) setAttr(rPr, "baseline", style.sup ? "30000" : "-25000");
  if (style.scale && style.scale !== 1) {
    const base = Number(rPr.attrs.find(([key]) => key === "sz")?.[1]) || DEFAULT_SIZE;
    setAttr(rPr, "sz", String(Math.round(base * style.scale)));
  }
  if (style.color) {
    for (const fill of FILLS) setChild(rPr, fill, null);
    setChild(rPr, "a:solidFill", `<a:solidFill><a:srgbClr val="${style.color}"/></a:solidFill>`);
  }
  if (style.code) setChild(rPr, "a:latin", '<a:latin typeface="Courier New"/>');
  if (style.link) setChild(rPr, "a:hlinkClick", `<a:hlinkClick r:id="${escapeAttr(ctx.link(style.link))}"/>`);
  return rPr.attrs.length > 0 || rPr.children.length > 0 ? buildElement(rPr, RPR_ORDER) : "";
}

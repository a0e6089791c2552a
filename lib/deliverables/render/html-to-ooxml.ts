// HTML -> Office Open XML. The HTML is first read into a small model (html-model.ts), then written
// either as whole paragraphs (the placeholder stood alone in its paragraph, which is replaced) or as
// runs spliced into the placeholder's paragraph (it shared the paragraph with other text).
//
// What is native and what falls back:
//   paragraphs, h1-h6, bold/italic/underline/strike, sup/sub, colour, links, <br>  native in both
//   lists          DOCX: Word numbering (a numbering part is added when the template has none)
//                  PPTX: bullet/auto-number paragraph properties
//   tables         DOCX: w:tbl with single borders; PPTX: one paragraph per row, cells separated by tabs
//   inline mode    paragraphs become line breaks, list items get "•"/"1." prefixes, table rows become
//                  tab-separated lines: a run cannot hold a paragraph or a table
import { type Block, htmlToBlocks, type Inline, textToBlocks } from "./html-model";
import { docxBlocks, docxRuns } from "./ooxml-docx";
import { pptxBlocks, pptxRuns } from "./ooxml-pptx";
import type { TemplateKind } from "./types";

export { htmlToBlocks, textToBlocks };

/** Where generated content lands and how it reaches package-level parts (relationships, numbering). */
export interface WriterContext {
  kind: TemplateKind;
  /** The placeholder paragraph's properties element (`<w:pPr>…</w:pPr>` / `<a:pPr …/>`), or "". */
  paragraphProps: string;
  /** The placeholder run's properties element (`<w:rPr>…` / `<a:rPr …>`), the base of every run, or "". */
  runProps: string;
  /** Registers an external hyperlink from the part being rendered; returns its relationship id. */
  link(url: string): string;
  /** DOCX: paragraph style ids by heading level, when the template defines them. */
  headingStyles: Partial<Record<number, string>>;
  listParagraphStyle?: string;
  hyperlinkStyle?: string;
  /** DOCX: a new numbering instance for one list (restarts at `start`); returns its numId. */
  newList(ordered: boolean, start: number): number;
  /** DOCX: text width available, in twentieths of a point, for sizing tables. */
  contentWidth: number;
}

export type RenderMode = "block" | "inline";

/** Renders blocks as paragraph-level XML (mode "block") or as runs to splice into a paragraph. */
export function writeBlocks(blocks: Block[], mode: RenderMode, ctx: WriterContext): string {
  if (mode === "inline") {
    const runs = flattenBlocks(blocks);
    return ctx.kind === "docx" ? docxRuns(runs, ctx) : pptxRuns(runs, ctx);
  }
  return ctx.kind === "docx" ? docxBlocks(blocks, ctx) : pptxBlocks(blocks, ctx);
}

export function htmlToOoxml(html: string, mode: RenderMode, ctx: WriterContext): string {
  return writeBlocks(htmlToBlocks(html), mode, ctx);
}

/**
 * Blocks as one line of runs: paragraphs separated by line breaks, list items prefixed, table
 * rows as tab-separated lines. Used where only runs may go.
 */
export function flattenBlocks(blocks: Block[]): Inline[] {
  const out: Inline[] = [];
  const counters = new Map<number, number>();
  const lineBreak = () => {
    if (out.length > 0) out.push({ br: true, style: {} });
  };
  for (const block of blocks) {
    if (block.type === "table") {
      for (const row of block.rows) {
        lineBreak();
        row.forEach((cell, i) => {
          if (i > 0) out.push({ tab: true, style: {} });
          out.push(...cellRuns(cell.blocks));
        });
      }
      continue;
    }
    lineBreak();
    if (block.list) {
      const n = (counters.get(block.list.listId) ?? block.list.start - 1) + 1;
      counters.set(block.list.listId, n);
      const prefix = block.list.ordered ? `${n}. ` : "• ";
      out.push({ text: "    ".repeat(block.list.level) + prefix, style: {} });
    }
    const headingStyle = block.heading ? { bold: true } : {};
    out.push(...block.runs.map((run) => ({ ...run, style: { ...headingStyle, ...run.style } })));
  }
  return out;
}

/** Blocks as unformatted text on one line, for places that take only text. */
export function plainText(blocks: Block[]): string {
  return flattenBlocks(blocks)
    .map((run) => ("text" in run ? run.text : " "))
    .join("");
}

/** A table cell's content on one line: its paragraphs joined by spaces. */
function cellRuns(blocks: Block[]): Inline[] {
  const runs = flattenBlocks(blocks);
  return runs.map((run) => ("br" in run || "tab" in run ? { text: " ", style: run.style } : run));
}

// HTML -> a small document model (paragraphs with styled runs, lists, tables) that the DOCX and
// PPTX writers turn into native formatting. htmlparser2 is lenient: unclosed or misnested tags are
// closed for us, so any input yields a model. Unknown tags are dropped but their text is kept;
// scripts, styles and embedded objects are dropped with their content; images are dropped.
import { Parser } from "htmlparser2";
import { alignOf, sameStyle, styled } from "./html-styles";

export interface RunStyle {
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  code?: boolean;
  sup?: boolean;
  sub?: boolean;
  /** RRGGBB */
  color?: string;
  /** An http(s), mailto or tel URL; anything else is dropped. */
  link?: string;
}

export type Inline = { text: string; style: RunStyle } | { br: true; style: RunStyle } | { tab: true; style: RunStyle };

export type Align = "left" | "center" | "right" | "justify";

export interface Paragraph {
  type: "p";
  runs: Inline[];
  heading?: 1 | 2 | 3 | 4 | 5 | 6;
  /** A list item's first paragraph. `listId` tells separate lists apart (numbering restarts). */
  list?: { ordered: boolean; level: number; listId: number; start: number };
  /** Indentation steps without a bullet: blockquotes, text after a nested list inside an item. */
  indent?: number;
  align?: Align;
  rule?: boolean;
}

export interface TableCell {
  header: boolean;
  colspan: number;
  blocks: Block[];
}

export interface Table {
  type: "table";
  rows: TableCell[][];
}

export type Block = Paragraph | Table;

// ---------------------------------------------------------------------------------------------
// A minimal tree built from htmlparser2's events, so nesting is capped and parsing stays iterative.

interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
}
type HtmlNode = HtmlElement | string;

/** Elements dropped with everything inside them. */
const DROPPED = new Set([
  "script",
  "style",
  "template",
  "noscript",
  "iframe",
  "object",
  "embed",
  "head",
  "title",
  "svg",
  "math",
  "canvas",
  "audio",
  "video",
  "map",
  "select",
  "textarea",
  "button",
  "img",
  "picture",
  "input",
]);
const MAX_DEPTH = 100;

function parseTree(html: string): HtmlElement {
  const root: HtmlElement = { tag: "#root", attrs: {}, children: [] };
  const stack: HtmlElement[] = [root];
  let dropped = 0;
  // Elements opened beyond MAX_DEPTH are flattened into their ancestor; count them to skip their closes.
  let flattened = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (dropped > 0 || DROPPED.has(name)) {
          dropped++;
          return;
        }
        if (stack.length > MAX_DEPTH) {
          flattened++;
          return;
        }
        const el: HtmlElement = { tag: name, attrs, children: [] };
        stack[stack.length - 1].children.push(el);
        stack.push(el);
      },
      ontext(text) {
        if (dropped === 0) stack[stack.length - 1].children.push(text);
      },
      onclosetag() {
        if (dropped > 0) dropped--;
        else if (flattened > 0) flattened--;
        else if (stack.length > 1) stack.pop();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return root;
}

// ---------------------------------------------------------------------------------------------
// Tree -> blocks

const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "header",
  "footer",
  "main",
  "nav",
  "aside",
  "figure",
  "figcaption",
  "address",
  "center",
  "form",
  "fieldset",
  "details",
  "summary",
  "dl",
  "dt",
  "dd",
  "blockquote",
  "pre",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "body",
  "html",
  "caption",
  "legend",
]);
const MAX_LIST_LEVEL = 8;
const MAX_COLSPAN = 50;

interface BlockContext {
  style: RunStyle;
  align?: Align;
  indent: number;
  heading?: Paragraph["heading"];
  pre: boolean;
  /** Current list nesting, innermost last. */
  lists: { ordered: boolean; listId: number; start: number }[];
}

class Converter {
  readonly blocks: Block[] = [];
  private current: Paragraph | null = null;
  /** Set by <li>: the next paragraph opened carries the bullet. */
  private pendingItem: Paragraph["list"] | null = null;

  constructor(private readonly ids: { next: number }) {}

  run(nodes: HtmlNode[], ctx: BlockContext): Block[] {
    this.walk(nodes, ctx);
    this.flush();
    return this.blocks;
  }

  private walk(nodes: HtmlNode[], ctx: BlockContext): void {
    for (const node of nodes) {
      if (typeof node === "string") this.text(node, ctx);
      else this.element(node, ctx);
    }
  }

  private element(el: HtmlElement, ctx: BlockContext): void {
    const tag = el.tag;
    if (tag === "br") {
      this.paragraph(ctx).runs.push({ br: true, style: ctx.style });
      return;
    }
    if (tag === "hr") {
      this.flush();
      this.blocks.push({ type: "p", runs: [], rule: true, indent: ctx.indent || undefined });
      return;
    }
    if (tag === "table") {
      this.flush();
      const table = this.table(el);
      if (table) this.blocks.push(table);
      return;
    }
    if (tag === "ul" || tag === "ol") {
      this.flush();
      if (ctx.lists.length > MAX_LIST_LEVEL) {
        this.walk(el.children, ctx);
      } else {
        const start = Math.max(1, Math.min(Number.parseInt(el.attrs.start ?? "1", 10) || 1, 32767));
        const list = { ordered: tag === "ol", listId: this.ids.next++, start };
        this.walk(el.children, { ...ctx, lists: [...ctx.lists, list] });
      }
      this.flush();
      return;
    }
    if (tag === "li") {
      this.flush();
      const list = ctx.lists[ctx.lists.length - 1];
      if (list) this.pendingItem = { ...list, level: ctx.lists.length - 1 };
      this.walk(el.children, { ...ctx, indent: list ? ctx.lists.length : ctx.indent, style: styled(el.tag, el.attrs, ctx.style) });
      this.flush();
      this.pendingItem = null;
      return;
    }
    if (tag === "tr" || tag === "td" || tag === "th" || tag === "tbody" || tag === "thead" || tag === "tfoot") {
      // Table parts outside a table: keep their text as paragraphs.
      this.flush();
      this.walk(el.children, ctx);
      this.flush();
      return;
    }
    if (BLOCKS.has(tag)) {
      this.flush();
      const heading = /^h([1-6])$/.exec(tag);
      this.walk(el.children, {
        ...ctx,
        style: styled(el.tag, el.attrs, ctx.style),
        align: alignOf(el.attrs) ?? ctx.align,
        indent: tag === "blockquote" ? ctx.indent + 1 : ctx.indent,
        heading: heading ? (Number(heading[1]) as Paragraph["heading"]) : ctx.heading,
        pre: ctx.pre || tag === "pre",
      });
      this.flush();
      return;
    }
    // Inline (or unknown) element: its text keeps the accumulated style.
    this.walk(el.children, { ...ctx, style: styled(el.tag, el.attrs, ctx.style) });
  }

  private text(raw: string, ctx: BlockContext): void {
    if (ctx.pre) {
      const lines = raw.replace(/\r\n?/g, "\n").split("\n");
      const p = this.paragraph(ctx);
      lines.forEach((line, i) => {
        if (i > 0) p.runs.push({ br: true, style: ctx.style });
        if (line) p.runs.push({ text: line.replace(/\t/g, "    "), style: { ...ctx.style, code: true } });
      });
      return;
    }
    const text = raw.replace(/[ \t\n\r\f]+/g, " ");
    if (text === " " && !this.current) return;
    if (text) this.paragraph(ctx).runs.push({ text, style: ctx.style });
  }

  private paragraph(ctx: BlockContext): Paragraph {
    if (this.current) return this.current;
    const p: Paragraph = { type: "p", runs: [] };
    if (this.pendingItem) {
      p.list = this.pendingItem;
      this.pendingItem = null;
    } else if (ctx.indent) {
      p.indent = ctx.indent;
    }
    if (ctx.heading) p.heading = ctx.heading;
    if (ctx.align) p.align = ctx.align;
    this.current = p;
    return p;
  }

  private flush(): void {
    const p = this.current;
    this.current = null;
    if (!p) return;
    p.runs = trimRuns(p.runs);
    if (p.runs.length > 0) this.blocks.push(p);
  }

  private table(el: HtmlElement): Table | null {
    const rows: TableCell[][] = [];
    const collect = (nodes: HtmlNode[], inHead: boolean) => {
      for (const node of nodes) {
        if (typeof node === "string") continue;
        if (node.tag === "thead" || node.tag === "tbody" || node.tag === "tfoot") collect(node.children, node.tag === "thead");
        else if (node.tag === "tr") rows.push(this.row(node, inHead));
      }
    };
    collect(el.children, false);
    const nonEmpty = rows.filter((row) => row.length > 0);
    return nonEmpty.length > 0 ? { type: "table", rows: nonEmpty } : null;
  }

  private row(tr: HtmlElement, inHead: boolean): TableCell[] {
    const cells: TableCell[] = [];
    for (const node of tr.children) {
      if (typeof node === "string" || (node.tag !== "td" && node.tag !== "th")) continue;
      const header = inHead || node.tag === "th";
      const colspan = Math.max(1, Math.min(Number.parseInt(node.attrs.colspan ?? "1", 10) || 1, MAX_COLSPAN));
      const cellCtx: BlockContext = {
        style: styled(node.tag, node.attrs, header ? { bold: true } : {}),
        align: alignOf(node.attrs),
        indent: 0,
        pre: false,
        lists: [],
      };
      cells.push({ header, colspan, blocks: new Converter(this.ids).run(node.children, cellCtx) });
    }
    return cells;
  }
}

/** Collapses whitespace across run boundaries and trims paragraph and line edges, as browsers do. */
function trimRuns(runs: Inline[]): Inline[] {
  const out: Inline[] = [];
  let atLineStart = true;
  for (const run of runs) {
    if (!("text" in run)) {
      // Drop the space before a line break.
      const prev = out[out.length - 1];
      if (prev && "text" in prev) prev.text = prev.text.replace(/ $/, "");
      out.push(run);
      atLineStart = true;
      continue;
    }
    let text = run.text;
    if (!run.style.code) {
      const prev = out[out.length - 1];
      if (atLineStart || (prev && "text" in prev && !prev.style.code && prev.text.endsWith(" "))) text = text.replace(/^ /, "");
    }
    if (text) {
      // The parser delivers text in pieces (around entities): join pieces that look the same.
      const prev = out[out.length - 1];
      if (prev && "text" in prev && sameStyle(prev.style, run.style)) prev.text += text;
      else out.push({ text, style: run.style });
      atLineStart = false;
    }
  }
  const last = out[out.length - 1];
  if (last && "text" in last && !last.style.code) last.text = last.text.replace(/ $/, "");
  // A trailing <br> does not add a line in HTML unless it is all the block has (a blank line).
  if (out.length > 1 && "br" in out[out.length - 1]) out.pop();
  return out.filter((run) => !("text" in run) || run.text !== "");
}

export function htmlToBlocks(html: string): Block[] {
  const root = parseTree(html);
  return new Converter({ next: 1 }).run(root.children, { style: {}, indent: 0, pre: false, lists: [] });
}

/** Literal text as blocks: one paragraph, newlines as line breaks. */
export function textToBlocks(text: string): Block[] {
  const runs: Inline[] = [];
  text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .forEach((line, i) => {
      if (i > 0) runs.push({ br: true, style: {} });
      if (line) runs.push({ text: line, style: {} });
    });
  return [{ type: "p", runs }];
}

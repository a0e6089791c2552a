// The docxtemplater module that renders our variables. It claims every non-section tag (plain,
// {@raw}, {%image}) and decides, per occurrence, how the variable's value is written:
//
//   text   -> docxtemplater's own text rendering (escaped; newlines become line breaks). On a {@tag}
//             it is written as a paragraph instead, since a raw tag owns its paragraph.
//   image  -> handed to the image module, whatever the tag's prefix; each occurrence learns the
//             width available where it stands (page text width, or its table cell's).
//   html   -> when the tag is alone in its paragraph: the paragraph is replaced by generated
//             paragraphs/tables/lists ("block"), keeping the paragraph's and run's formatting as a
//             base. Otherwise the generated runs are spliced into the paragraph ("inline"): bold,
//             italic, links… stay native, block structure degrades to line breaks (html-to-ooxml.ts).
//   empty  -> nothing; a {@tag}'s paragraph is removed, as docxtemplater does for raw tags.
//
// So a plain {Name} takes any mimeType, and {@Name}/{%Name} need no special casing by callers.
// Tags no variable was given for are left to docxtemplater and the template parser: paths,
// expressions and loop items' fields read the JSON data, and a name nothing gives renders empty.
import { markSectionParagraphs } from "./emptied-paragraphs";
import type { Block } from "./html-model";
import { htmlToBlocks, plainText, textToBlocks, type WriterContext, writeBlocks } from "./html-to-ooxml";
import { IMAGE_MODULE_NAME, type ImageOccurrence } from "./image-module";
import { TWIPS_TO_EMU, type PackageContext } from "./package";
import { aloneInParagraph, elementXml, enclosing, type Part, type Range } from "./parts";
import type { RenderPlan } from "./plan";
import type { ResolvedValue, TemplateKind } from "./types";
import { attrValue, escapeText } from "./xml";

export const RENDER_MODULE_NAME = "quire/render";
const CLAIM_PRIORITY = 1_000_000;
/** Cell margins Word applies by default (0.075in each side), in twips. */
const CELL_MARGINS = 216;

interface QuireTag {
  value: ResolvedValue;
  /** Written {@…}: owns its paragraph. */
  raw: boolean;
  mode?: "block" | "inline" | "plain";
  paragraphProps?: string;
  runProps?: string;
}

type QuirePart = Part & { quire?: QuireTag; quireImage?: string; quireOccurrence?: boolean };

export interface RenderModuleState {
  /** The render data: text values and image occurrences by generated key, section flags by name. */
  data: Record<string, unknown>;
  occurrences: Map<string, ImageOccurrence>;
}

export function createRenderModule(kind: TemplateKind, plan: RenderPlan, pkg: PackageContext, state: RenderModuleState) {
  const w = kind === "docx" ? "w" : "a";
  const textKeys = new Map<string, string>();
  const parsedBlocks = new WeakMap<ResolvedValue, Block[]>();

  const partFor = (content: string): Record<string, unknown> => {
    const value: ResolvedValue = plan.values.get(content) ?? { kind: "empty" };
    const raw = content.startsWith("@");
    if (value.kind === "image") {
      return { module: IMAGE_MODULE_NAME, value: content, centered: false, quireImage: value.imageKey, priority: CLAIM_PRIORITY };
    }
    if (value.kind === "text" && !raw) {
      let key = textKeys.get(content);
      if (!key) {
        key = `__quire_text_${textKeys.size}`;
        textKeys.set(content, key);
        state.data[key] = value.text;
      }
      // No module: docxtemplater's text rendering handles escaping and line breaks in both formats.
      return { module: undefined, value: key, priority: CLAIM_PRIORITY };
    }
    return { module: RENDER_MODULE_NAME, value: content, quire: { value, raw } satisfies QuireTag, priority: CLAIM_PRIORITY };
  };

  return {
    name: "QuireRenderModule",
    // Runs before docxtemplater's modules and the image module, so it sees the flat token list.
    priority: 100,
    matchers: () => [
      [
        (content: string) => !/^[#/^-]/.test(content) && (plan.values.has(content) || /^[@%]/.test(content)),
        RENDER_MODULE_NAME,
        (values: string[]) => partFor(values[0]),
      ],
    ],

    postparse(parsed: QuirePart[]) {
      markSectionParagraphs(parsed, w);
      const patches: { range: Range; parts: Part[] }[] = [];
      for (let i = 0; i < parsed.length; i++) {
        const part = parsed[i];
        if (part.type !== "placeholder") continue;
        if (part.module === IMAGE_MODULE_NAME && part.quireImage && !part.quireOccurrence) {
          const patch = prepareImage(parsed, i, part);
          if (patch) patches.push(patch);
          continue;
        }
        const tag = part.quire;
        if (part.module !== RENDER_MODULE_NAME || !tag || tag.mode) continue;
        if (!enclosing(parsed, i, `${w}:r`)) {
          // Outside body text (e.g. the document title in docProps): only escaped text is valid there.
          tag.mode = "plain";
          continue;
        }
        const paragraph = tag.value.kind === "html" || tag.raw ? enclosing(parsed, i, `${w}:p`) : null;
        tag.runProps = runProps(parsed, i);
        if (paragraph && aloneInParagraph(parsed, paragraph, i, `${w}:p`)) {
          tag.mode = "block";
          tag.paragraphProps = paragraphProps(parsed, paragraph);
          patches.push({ range: paragraph, parts: [part] });
        } else {
          tag.mode = "inline";
        }
      }
      return applyPatches(parsed, patches);
    },

    render(part: QuirePart, options: { filePath: string }) {
      if (part.module !== RENDER_MODULE_NAME || !part.quire) return null;
      const tag = part.quire;
      const blocks = blocksOf(tag.value);
      if (tag.mode === "plain") return { value: escapeText(plainText(blocks)) };
      const ctx = writerContext(tag, options.filePath);
      if (tag.mode === "block") {
        // An empty raw tag takes its paragraph with it; an empty plain tag leaves an empty paragraph.
        if (blocks.length === 0 && tag.raw) return { value: "" };
        return { value: writeBlocks(blocks, "block", ctx) };
      }
      const runs = blocks.length > 0 ? writeBlocks(blocks, "inline", ctx) : "";
      if (!runs) return { value: "" };
      // Close the placeholder's run, add ours, and reopen a run like it for the text that follows.
      const reopen = kind === "docx" ? `<w:r>${tag.runProps ?? ""}<w:t xml:space="preserve">` : `<a:r>${tag.runProps ?? ""}<a:t>`;
      return { value: `</${w}:t></${w}:r>${runs}${reopen}` };
    },
  };

  /** A value's document model, parsed once however many places (or loop iterations) show it. */
  function blocksOf(value: ResolvedValue): Block[] {
    let blocks = parsedBlocks.get(value);
    if (!blocks) {
      blocks = value.kind === "html" ? htmlToBlocks(value.html) : value.kind === "text" ? textToBlocks(value.text) : [];
      parsedBlocks.set(value, blocks);
    }
    return blocks;
  }

  function writerContext(tag: QuireTag, filePath: string): WriterContext {
    return {
      kind,
      paragraphProps: tag.paragraphProps ?? "",
      runProps: tag.runProps ?? "",
      link: (url) => pkg.addLink(filePath, url),
      headingStyles: pkg.styles.headingStyles,
      listParagraphStyle: pkg.styles.listParagraphStyle,
      hyperlinkStyle: pkg.styles.hyperlinkStyle,
      newList: (ordered, start) => pkg.newList(ordered, start),
      contentWidth: pkg.contentWidth,
    };
  }

  /** The properties element of the run holding the placeholder ("" when it has none). */
  function runProps(parsed: Part[], i: number): string {
    const run = enclosing(parsed, i, `${w}:r`);
    return run ? elementXml(parsed, `${w}:rPr`, run.start, i) : "";
  }

  function paragraphProps(parsed: Part[], paragraph: Range): string {
    if (kind === "docx") return elementXml(parsed, "w:pPr", paragraph.start, paragraph.end, "w:r");
    // a:pPr is not lexed in PPTX: it sits in the content right after <a:p>.
    const next = parsed[paragraph.start + 1];
    const xml = next?.type === "content" ? next.value : "";
    return /^\s*(<a:pPr\b(?:[^>]*\/>|[^>]*>[\s\S]*?<\/a:pPr>))/.exec(xml)?.[1] ?? "";
  }

  /**
   * Gives the image occurrence its own data key and width limit. In DOCX the tag's text element is
   * split around it, because the image module replaces the whole <w:t> and would drop the text
   * beside the tag.
   */
  function prepareImage(parsed: QuirePart[], i: number, part: QuirePart): { range: Range; parts: Part[] } | null {
    const key = `__quire_image_${state.occurrences.size}`;
    state.occurrences.set(key, { imageKey: part.quireImage!, maxWidth: maxImageWidth(parsed, i) });
    state.data[key] = key;
    part.value = key;
    part.quireOccurrence = true;
    if (kind !== "docx") return null;
    const text = enclosing(parsed, i, "w:t");
    if (!text) return null;
    const open = { ...parsed[text.start], value: '<w:t xml:space="preserve">' };
    const close = { ...parsed[text.end] };
    return {
      range: text,
      parts: [...parsed.slice(text.start, i), close, open, part, { ...close }, { ...open }, ...parsed.slice(i + 1, text.end + 1)],
    };
  }

  function maxImageWidth(parsed: Part[], i: number): number {
    if (kind !== "docx") return Number.POSITIVE_INFINITY;
    let width = pkg.contentWidth;
    const cell = enclosing(parsed, i, "w:tc");
    const tcPr = cell ? parsed[cell.start + 1] : undefined;
    const tcW = tcPr?.type === "content" ? /<w:tcW\b[^>]*>/.exec(tcPr.value)?.[0] : undefined;
    if (tcW && (attrValue(tcW, "w:type") ?? "dxa") === "dxa") {
      const cellWidth = Number(attrValue(tcW, "w:w")) - CELL_MARGINS;
      if (cellWidth > 0) width = Math.min(width, cellWidth);
    }
    return width * TWIPS_TO_EMU;
  }
}

/** Replaces each range with its parts; ranges never overlap (a block owns its whole paragraph). */
function applyPatches(parsed: Part[], patches: { range: Range; parts: Part[] }[]): Part[] {
  if (patches.length === 0) return parsed;
  patches.sort((a, b) => a.range.start - b.range.start);
  const out: Part[] = [];
  let next = 0;
  for (const { range, parts } of patches) {
    if (range.start < next) continue;
    out.push(...parsed.slice(next, range.start), ...parts);
    next = range.end + 1;
  }
  out.push(...parsed.slice(next));
  return out;
}

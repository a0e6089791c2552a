// Turns a validated variable value into what the renderer needs: markdown becomes HTML, and
// subvariable tokens are replaced inside the parent's HTML before it is converted.
import { Marked } from "marked";
import { htmlToBlocks, plainText, textToBlocks } from "./html-to-ooxml";
import type { MimeType } from "./types";

// A private instance: global marked options are shared with any other user of the package.
const markdown = new Marked({ gfm: true, breaks: false, async: false });

export function markdownToHtml(text: string): string {
  return markdown.parse(text, { async: false });
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/**
 * How deeply a value nests (blockquotes, lists, elements): the parsers and the converter recurse per
 * level, so a value thousands of levels deep would exhaust the stack. Counted without recursion.
 */
export function nestingDepth(mimeType: "html" | "markdown", text: string): number {
  let max = 0;
  if (mimeType === "markdown") {
    for (const line of text.split("\n")) {
      const quotes = /^[\s>]*/.exec(line)![0].replace(/\s/g, "").length;
      // Indentation nests only list items (an indented code line is just text).
      const indent = /^\s*([-*+]|\d+[.)])\s/.test(line) ? Math.floor(/^\s*/.exec(line)![0].replace(/\t/g, "    ").length / 2) : 0;
      max = Math.max(max, quotes, indent);
    }
    return max;
  }
  let depth = 0;
  for (const m of text.matchAll(/<(\/?)([a-zA-Z][\w:-]*)\b[^>]*?(\/?)>/g)) {
    if (VOID_ELEMENTS.has(m[2].toLowerCase()) || m[3]) continue;
    depth = m[1] ? Math.max(0, depth - 1) : depth + 1;
    max = Math.max(max, depth);
  }
  return max;
}

/** A subvariable's value as an HTML fragment, by its own mimeType ("" when disabled). */
export interface Substitution {
  token: string;
  mimeType: Exclude<MimeType, "image">;
  text: string;
}

function fragment(sub: Substitution): string {
  if (sub.mimeType === "text") return escapeHtml(sub.text).replace(/\r\n?|\n/g, "<br>");
  if (sub.mimeType === "markdown") return markdown.parseInline(sub.text, { async: false });
  return sub.text;
}

/**
 * The HTML of an html or markdown value with its subvariable tokens replaced. For markdown, tokens
 * are swapped for inert markers before parsing (so markdown syntax cannot reach into a token or
 * into a text subvariable's value) and the rendered fragments are put back afterwards.
 */
export function valueToHtml(mimeType: "html" | "markdown", text: string, subs: Substitution[]): string {
  if (mimeType === "html")
    return replaceAll(
      text,
      subs.map((sub) => [sub.token, fragment(sub)]),
    );
  let salt = 0;
  while (text.includes(`QUIRESUB${salt}N`)) salt++;
  const markers = subs.map((sub, i): [string, string, string] => [sub.token, `QUIRESUB${salt}N${i}E`, fragment(sub)]);
  const html = markdownToHtml(
    replaceAll(
      text,
      markers.map(([token, marker]) => [token, marker]),
    ),
  );
  return replaceAll(
    html,
    markers.map(([, marker, value]) => [marker, value]),
  );
}

/** Replaces every occurrence of each key in one pass, so replacement values are never rescanned. */
function replaceAll(text: string, pairs: [string, string][]): string {
  const keys = pairs.filter(([key]) => key !== "");
  if (keys.length === 0) return text;
  const values = new Map(keys);
  const pattern = new RegExp(
    [...values.keys()]
      .sort((a, b) => b.length - a.length)
      .map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("|"),
    "g",
  );
  return text.replace(pattern, (match) => values.get(match) ?? match);
}

/**
 * A value as the words a reader sees, on one line: HTML and markdown through the same converter as the
 * document (entities decoded, tags gone), plain text as it is. For summaries such as "Variables used".
 */
export function valueAsPlainText(mimeType: string, text: string): string {
  const blocks = mimeType === "html" ? htmlToBlocks(text) : mimeType === "markdown" ? htmlToBlocks(markdownToHtml(text)) : textToBlocks(text);
  return plainText(blocks).replace(/\s+/g, " ").trim();
}

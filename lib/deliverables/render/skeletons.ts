// Documents made from one template mostly differ only in their plain text: the same template, the same
// html, the same stacks and sections, other names and dates. Everything a fill does but writing that
// text (docxtemplater's compile and render, Quire's modules, the package's additions, the font count,
// and compressing every part it rewrote: about 3 ms of CPU for the sample contract, the largest part of a
// create's own work beside LibreOffice, issue 17) depends only on the template and that shape. So once a
// shape comes back, the template is filled once more with a marker in place of each line of plain text:
// the skeleton. Each later document of the shape is the skeleton with its own text written where the
// markers are, escaped as docxtemplater escapes it; only the parts holding markers are compressed again
// (lib/files/zip-patch.ts).
//
// The same document either way, not a near one (tests/unit/render-skeletons.test.ts compares both on
// random text). What a plain text value changes in a fill, besides the text itself:
//   - its line breaks (docxtemplater splits it into runs): the number of lines is part of the shape;
//   - whether a line is empty: a run without text is not a font use, an emptied paragraph goes, and
//     docxtemplater shortens an empty <w:t>; a value with an empty line (in a PPTX, a line of spaces)
//     is part of the shape as it is, like html;
//   - whatever reads it as data: expressions, paths, loops and conditions. A template with any of those
//     (but for a section given as a variable, a flag) has no skeleton, nor has a fill with images or
//     JSON data.
import crypto from "node:crypto";
import { createRequire } from "node:module";
import type PizZip from "pizzip";
import { LruCache } from "@/lib/cache/lru";
import type { TemplatePlaceholder } from "@/lib/templates/inspect";
import type { RenderPlan } from "./plan";
import type { ResolvedValue, TemplateKind } from "./types";
import { deflated } from "./zip-codec";
import { type SplitPackage, splitPackage, writePackage } from "@/lib/files/zip-patch";

const require = createRequire(import.meta.url);
/** docxtemplater's own text escaping, so a line is written as its render writes it (3.x). */
const DocUtils = require("docxtemplater/js/doc-utils.js") as {
  utf8ToWord(text: string): string;
  removeCorruptCharacters(text: string): string;
};

/** Placeholders that read data: a marker would be read instead of the text, but for a section given as a variable (a flag). */
const READS_DATA = new Set<TemplatePlaceholder["kind"]>(["path", "expression"]);
const SECTIONS = new Set<TemplatePlaceholder["kind"]>(["loop", "condition"]);
/** A line that shows: a font use and a kept paragraph (fonts.ts, emptied-paragraphs.ts). */
const SHOWS: Record<TemplateKind, RegExp> = { docx: /^[\s\S]/, pptx: /\S/ };

/** This process's markers: private-use characters around a random tag no template holds, and a number. */
const NONCE = crypto.randomBytes(9).toString("base64url");
const marker = (n: number) => `\uE000${NONCE}.${n}\uE001`;
const MARKER = new RegExp(`\uE000${NONCE}\\.(\\d+)\uE001`, "g");

/** A package part holding markers: its text cut at each, `slots[i]` the line written between pieces i and i + 1. */
interface MarkedPart {
  name: string;
  pieces: string[];
  slots: number[];
}

export interface FilledPackage {
  zip: PizZip;
  fonts: { name: string; usage: number }[];
  defaultFont: string;
}

/** A fill written out: the package as a file, and what was counted while filling it. */
export interface PackagedFill {
  file: Buffer;
  fonts: FilledPackage["fonts"];
  defaultFont: string;
}

/** The package filled with markers, split to be written again with other text, and its parts that hold them. */
interface Skeleton {
  pkg: SplitPackage;
  parts: MarkedPart[];
  fonts: PackagedFill["fonts"];
  defaultFont: string;
}

/** A fill's shape: what identifies its skeleton, and the lines of text it writes into it. */
export interface Shape {
  key: string;
  /** Each marked line's text, escaped, by marker number. */
  lines: string[];
  /** The plan with markers in place of the plain text. */
  markedPlan: RenderPlan;
}

const MAX_SKELETONS = 256;
const MAX_BYTES = 64 * 1024 * 1024;
const skeletons = new LruCache<string, Skeleton>(MAX_SKELETONS, {
  max: MAX_BYTES,
  of: (s) => s.pkg.size + s.parts.reduce((sum, p) => sum + p.pieces.reduce((n, piece) => n + piece.length * 2 + 64, 0), 0),
});
/** Fills served from a skeleton since the process started (tests read it). */
let served = 0;
/**
 * Shapes seen once: a skeleton is made the second time, so html that differs on every document costs no
 * more than before; and shapes whose skeleton could not be made, so it is not tried again.
 */
const seen = new LruCache<string, "once" | "no skeleton">(4 * MAX_SKELETONS);

/** The fill's shape, or null when it has none that a skeleton could serve. */
export function shapeOf(
  kind: TemplateKind,
  templateKey: string,
  placeholders: readonly TemplatePlaceholder[],
  plan: RenderPlan,
  defaultFont: string | undefined,
): Shape | null {
  if (plan.images.size > 0 || Object.keys(plan.data).length > 0) return null;
  if (placeholders.some((p) => READS_DATA.has(p.kind) || (SECTIONS.has(p.kind) && !(p.name in plan.sections)))) return null;
  const lines: string[] = [];
  const values = new Map<string, ResolvedValue>();
  const described: unknown[] = [];
  for (const [content, value] of plan.values) {
    // A {@tag}'s text is written by Quire's module as paragraphs: part of the shape, like html.
    const escaped = value.kind === "text" && !content.startsWith("@") ? escapedLines(value.text) : null;
    if (escaped?.every((line) => SHOWS[kind].test(line))) {
      values.set(content, { kind: "text", text: escaped.map((_, i) => marker(lines.length + i)).join("\n") });
      described.push([content, escaped.length]);
      lines.push(...escaped);
    } else {
      values.set(content, value);
      described.push([content, value]);
    }
  }
  const description = JSON.stringify([kind, templateKey, defaultFont ?? null, described, [...plan.stacks], Object.entries(plan.sections)]);
  const key = crypto.createHash("sha256").update(description).digest("base64");
  return { key, lines, markedPlan: { ...plan, values } };
}

/**
 * The package for a fill of this shape from its skeleton, made with `fill` (the whole render, given a
 * plan) the second time the shape is seen; null while it has none (`fill` with the real values then).
 */
export function fromSkeleton(shape: Shape, fill: (plan: RenderPlan) => FilledPackage): PackagedFill | null {
  let skeleton = skeletons.get(shape.key);
  if (!skeleton) {
    const before = seen.get(shape.key);
    if (before !== "once") {
      if (before === undefined) seen.set(shape.key, "once");
      return null;
    }
    try {
      skeleton = skeletonOf(fill(shape.markedPlan));
    } catch {
      seen.set(shape.key, "no skeleton");
      return null; // the fill with the real values reports it in their words
    }
    skeletons.set(shape.key, skeleton);
  }
  served++;
  const texts = new Map(skeleton.parts.map((part) => [part.name, written(part, shape.lines)]));
  return { file: writePackage(skeleton.pkg, texts), fonts: skeleton.fonts, defaultFont: skeleton.defaultFont };
}

/** A fill written out as it is (the whole render's). */
export function packaged(filled: FilledPackage): PackagedFill {
  return { file: deflated(filled.zip), fonts: filled.fonts, defaultFont: filled.defaultFont };
}

/** For tests: how many fills a skeleton has served. */
export function skeletonsServed(): number {
  return served;
}

/** For tests: forget every skeleton and every shape seen. */
export function clearSkeletons(): void {
  skeletons.clear();
  seen.clear();
}

/** A value's lines as docxtemplater writes them (invalid XML characters dropped, then escaped). */
function escapedLines(text: string): string[] {
  return DocUtils.removeCorruptCharacters(text).split("\n").map(DocUtils.utf8ToWord);
}

function skeletonOf(filled: FilledPackage): Skeleton {
  const parts: MarkedPart[] = [];
  // Every entry: docxtemplater templates a part by its content type, whatever its name. Once per shape.
  for (const [name, entry] of Object.entries(filled.zip.files)) {
    if (entry.dir) continue;
    const text = entry.asText();
    if (!text.includes("\uE000")) continue;
    const pieces = text.split(MARKER);
    if (pieces.length === 1) continue;
    // split() puts each marker's number between the pieces around it.
    parts.push({ name, pieces: pieces.filter((_, i) => i % 2 === 0), slots: pieces.filter((_, i) => i % 2 === 1).map(Number) });
  }
  const { file, fonts, defaultFont } = packaged(filled);
  return { pkg: splitPackage(file, new Set(parts.map((p) => p.name))), parts, fonts, defaultFont };
}

function written(part: MarkedPart, lines: readonly string[]): string {
  let text = part.pieces[0];
  for (let i = 0; i < part.slots.length; i++) text += lines[part.slots[i]] + part.pieces[i + 1];
  return text;
}

// Reading and rewriting an Office package's parts on the converter's way (docx-editing-data.ts,
// docx-unused-styles.ts, docx-unused-numbering.ts, pptx-notes-comments.ts): each part's data as stored,
// its text when it inflates within its declared size, where a tag ends, what a DOCX's parts name, parts
// replaced, and the small caches that keep what was made of a template's parts for its next documents.
import crypto from "node:crypto";
import zlib from "node:zlib";
import { type DeflatedPart, deflatedPart, splitPackage, writePackage } from "@/lib/files/zip-patch";
import { readCentralDirectory, SIG_LOCAL, type ZipEntry } from "@/lib/templates/zip-reader";

/** Larger parts are left as they are rather than inflated on the converter's way. */
const MAX_PART_BYTES = 16 * 1024 * 1024;
/** Entries a cache keeps (each a few kilobytes at most), the oldest forgotten first. */
const KEPT = 256;

/** An entry's bytes as stored, or null when its local header is not where the directory says. */
function storedData(file: Buffer, entry: ZipEntry): Buffer | null {
  const at = entry.localHeaderOffset;
  if (at + 30 > file.length || file.readUInt32LE(at) !== SIG_LOCAL) return null;
  const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
  return start + entry.compressedSize <= file.length ? file.subarray(start, start + entry.compressedSize) : null;
}

/** An entry's text, or null when it is too large, stored some other way or does not inflate. */
function partText(data: Buffer, entry: ZipEntry): string | null {
  if ((entry.method !== 0 && entry.method !== 8) || entry.uncompressedSize > MAX_PART_BYTES) return null;
  try {
    return (entry.method === 8 ? zlib.inflateRawSync(data, { maxOutputLength: Math.max(entry.uncompressedSize, 1) }) : data).toString("utf8");
  } catch {
    return null;
  }
}

/** A cache key for a part's stored data: its name, how it is stored and a SHA-256 of the data (so no two tenants' parts meet). */
function partKey(entry: ZipEntry, data: Buffer): string {
  return `${entry.name}\n${entry.method}\n${crypto.hash("sha256", data, "base64")}`;
}

/** Keeps `value` under `key`, forgetting the oldest entry when the cache is full. */
function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= KEPT) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

/** The index of the `>` that ends the tag starting at `start`: a `>` inside a quoted attribute value does not. */
export function endOfTag(xml: string, start: number): number {
  let quote = "";
  for (let i = start + 1; i < xml.length; i++) {
    const c = xml[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ">") return i;
  }
  return -1;
}

const BODY = "word/document.xml";

/**
 * The values `read` finds in every XML part of the package that `skip` does not name, or null when a
 * part cannot be read or `read` cannot tell (it answers null). The body, which each document has its
 * own of, is read every time; any other part once per distinct data (`seen`).
 */
function foundInParts(
  docx: Buffer,
  entries: ZipEntry[],
  skip: (name: string) => boolean,
  read: (xml: string) => string[] | null,
  seen: Map<string, string[] | null>,
): Set<string> | null {
  const found = new Set<string>();
  for (const entry of entries) {
    if (!entry.name.endsWith(".xml") || skip(entry.name)) continue;
    const data = storedData(docx, entry);
    if (!data) return null;
    const isBody = entry.name === BODY;
    const key = partKey(entry, data);
    const cached = isBody ? undefined : seen.get(key);
    let values: string[] | null;
    if (cached !== undefined) values = cached;
    else {
      const xml = isBody ? bodyText(key, entry, data) : partText(data, entry);
      values = xml === null ? null : read(xml);
      if (!isBody) remember(seen, key, values);
    }
    if (values === null) return null;
    for (const value of values) found.add(value);
  }
  return found;
}

/** The last body inflated: each step of one conversion that searches the body (styles, numbering) reads the same text. */
let lastBody: { key: string; text: string | null } | null = null;

function bodyText(key: string, entry: ZipEntry, data: Buffer): string | null {
  if (lastBody?.key !== key) lastBody = { key, text: partText(data, entry) };
  return lastBody.text;
}

/** The package with these parts' data replaced; the same buffer when it cannot be rewritten entry by entry. */
function withParts(docx: Buffer, parts: ReadonlyMap<string, DeflatedPart>): Buffer {
  try {
    return writePackage(splitPackage(docx, new Set(parts.keys())), parts);
  } catch {
    return docx; // data descriptors, an archive comment
  }
}

/** What `read` makes of a part's text (null: nothing, or it does not inflate), once per distinct data, with the key it is kept under. */
function readOnce<T>(cache: Map<string, T | null>, entry: ZipEntry, data: Buffer, read: (xml: string) => T | null): { key: string; value: T | null } {
  const key = partKey(entry, data);
  const cached = cache.get(key);
  if (cached !== undefined) return { key, value: cached };
  const xml = partText(data, entry);
  return { key, value: remember(cache, key, xml === null ? null : read(xml)) };
}

/**
 * The package with each part that `leaner` has a reader for replaced by what the reader makes of its
 * text (null: the part stays), made once per distinct data and kept in `cache`; the same buffer when
 * no part changes or the package cannot be read or rewritten entry by entry.
 */
export function withLeanerParts(
  file: Buffer,
  cache: Map<string, DeflatedPart | null>,
  leaner: (name: string) => ((xml: string) => string | null) | undefined,
): Buffer {
  const entries = directoryOf(file);
  if (!entries) return file;
  const parts = new Map<string, DeflatedPart>();
  for (const entry of entries) {
    const read = leaner(entry.name);
    const data = read && storedData(file, entry);
    if (!read || !data) continue;
    const part = readOnce(cache, entry, data, (xml) => {
      const text = read(xml);
      return text === null ? null : deflatedPart(text);
    }).value;
    if (part) parts.set(entry.name, part);
  }
  return parts.size === 0 ? file : withParts(file, parts);
}

/** The package's entries, or null when it is not a ZIP this can read (the converter reports what is wrong with it). */
function directoryOf(file: Buffer): ZipEntry[] | null {
  try {
    return readCentralDirectory(file);
  } catch {
    return null;
  }
}

/** The package's directory and one of its parts as stored, or null when it has no such part or cannot be read. */
function partOf(docx: Buffer, name: string): { entries: ZipEntry[]; entry: ZipEntry; data: Buffer } | null {
  const entries = directoryOf(docx);
  if (!entries) return null;
  const entry = entries.find((e) => e.name === name);
  const data = entry && storedData(docx, entry);
  return entry && data ? { entries, entry, data } : null;
}

/** Matches each element of these local names, whatever its prefix, with the value of its `val` attribute (group 2). */
export function valPattern(localNames: readonly string[], flags = "g"): RegExp {
  return new RegExp(`<(?:[\\w.-]+:)?(?:${localNames.join("|")})\\b[^>]*?\\s(?:[\\w.-]+:)?val\\s*=\\s*(["'])(.*?)\\1`, flags);
}

/** An attribute's value in a start tag, whatever its prefix, or undefined. */
export function attribute(tag: string, name: string): string | undefined {
  return tag.match(new RegExp(`\\s(?:[\\w.-]+:)?${name}\\s*=\\s*(["'])(.*?)\\1`))?.[2];
}

/** An element found in a part: its start tag, what is between its tags, and where it begins and ends. */
export interface Element {
  localName: string;
  tag: string;
  content: string;
  start: number;
  end: number;
}

/**
 * Every element with one of these local names, whatever its prefix, outermost first and none inside
 * another; null when one does not end or the part has a comment, CDATA or markup compatibility, where
 * reading tags as text could go wrong.
 */
export function elementsOf(xml: string, localNames: readonly string[]): Element[] | null {
  if (/<!--|<!\[CDATA\[|AlternateContent/.test(xml)) return null;
  const found: Element[] = [];
  const start = new RegExp(`<([\\w.-]+:)?(${localNames.join("|")})(?=[\\s/>])`, "g");
  for (let m = start.exec(xml); m; m = start.exec(xml)) {
    const tagEnd = endOfTag(xml, m.index);
    if (tagEnd < 0) return null;
    const tag = xml.slice(m.index, tagEnd + 1);
    const selfClosing = tag.endsWith("/>");
    const close = `</${m[1] ?? ""}${m[2]}>`;
    const closeAt = selfClosing ? tagEnd + 1 : xml.indexOf(close, tagEnd);
    if (closeAt < 0) return null;
    const end = selfClosing ? tagEnd + 1 : closeAt + close.length;
    found.push({ localName: m[2], tag, content: xml.slice(tagEnd + 1, closeAt), start: m.index, end });
    start.lastIndex = end;
  }
  return found;
}

/** The text without the given spans (in any order, none overlapping). */
export function withoutSpans(text: string, spans: readonly { start: number; end: number }[]): string {
  let out = "";
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, span.start);
    at = span.end;
  }
  return out + text.slice(at);
}

/** A part made leaner by what the other parts name (the styles, the list numbering). */
export interface LeanerByNames<T extends { text: string }> {
  part: string;
  /** The part read once per distinct data, or null to leave it whole. */
  read: (xml: string) => T | null;
  /** What another part names, or null when it cannot tell. */
  named: (xml: string) => string[] | null;
  /** The spans of the part that go, given everything named. */
  unused: (read: T, named: Set<string>) => { start: number; end: number }[];
}

/**
 * A step of the conversion's copy: the package with `part` without what nothing names; the same buffer
 * when nothing goes or it cannot tell. Every part but it and the glossary's is searched (glossary parts
 * name the glossary's own styles and lists). Each step keeps its own caches.
 */
export function leanerByNames<T extends { text: string }>(step: LeanerByNames<T>): (docx: Buffer) => Buffer {
  const reads = new Map<string, T | null>();
  const names = new Map<string, string[] | null>();
  const leaner = new Map<string, DeflatedPart>();
  return (docx) => {
    const found = partOf(docx, step.part);
    if (!found) return docx;
    const { key, value } = readOnce(reads, found.entry, found.data, step.read);
    if (!value) return docx;
    const named = foundInParts(docx, found.entries, (name) => name === step.part || name.startsWith("word/glossary/"), step.named, names);
    if (!named) return docx;
    const spans = step.unused(value, named);
    if (spans.length === 0) return docx;
    const leanerKey = `${key}\n${spans.map((s) => s.start).join(",")}`;
    const part = leaner.get(leanerKey) ?? remember(leaner, leanerKey, deflatedPart(withoutSpans(value.text, spans)));
    return withParts(docx, new Map([[step.part, part]]));
  };
}

// Template inspection: decides whether an uploaded file is a usable DOCX/PPTX template and lists its
// placeholders. Uploads are untrusted, so the ZIP container is read by hand: declared sizes are
// checked before anything is inflated, only the XML parts are inflated (each capped at its declared
// size), and docxtemplater only ever sees that vetted XML.
import { promisify } from "node:util";
import { inflateRaw } from "node:zlib";
import Docxtemplater from "docxtemplater";
// The inspect module requires lodash at runtime without declaring it; lodash is a direct dependency for that reason.
import InspectModule from "docxtemplater/js/inspect-module.js";
import PizZip from "pizzip";
import { ValidationError, type ValidationIssue } from "@/lib/errors";
import { classifyTag, ExpressionSyntaxError, type TagKind, templateParser } from "@/lib/templates/tags";

export const DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
export const PPTX_MIME = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

export type TemplateKind = "docx" | "pptx";

export interface TemplatePlaceholder {
  /** The tag as written in the document, braces and prefix included: "{ClientName}", "{@Body}", "{#items}". */
  placeholder: string;
  /** The data key: the tag without braces, prefix or surrounding spaces. */
  name: string;
  /** text, html, image, loop, condition, path or expression (lib/templates/tags.ts). */
  kind: TagKind;
  /**
   * The top-level data a path, expression, loop or condition outside any loop reads: each is given as
   * one variable "{name}" whose value is JSON (docs/contract.md "Advanced templating").
   */
  data?: string[];
  /** A loop's fields: the names its own tags read from each item. */
  fields?: string[];
  /** Set on tags inside a loop: the loop's name. */
  loop?: string;
}

export interface TemplateInspection {
  fileType: typeof DOCX_MIME | typeof PPTX_MIME;
  kind: TemplateKind;
  fileSize: number;
  /** Unique by `placeholder`, in reading order. */
  placeholders: TemplatePlaceholder[];
}

export type TemplateFileErrorCode =
  | "TemplateEmpty"
  | "TemplateTooLarge"
  | "TemplateUnsupportedType"
  | "TemplateCorrupt"
  | "TemplateZipBomb"
  | "TemplateTagError";

export class TemplateFileError extends ValidationError {
  declare readonly code: TemplateFileErrorCode;
  constructor(message: string, code: TemplateFileErrorCode, issues: ValidationIssue[] = [{ field: "file", message }]) {
    super(message, issues, code);
  }
}

/** Refused while the upload is still streaming in, before any inspection. */
export function templateTooLarge(maxBytes: number): TemplateFileError {
  return new TemplateFileError(`The file is larger than the ${formatBytes(maxBytes)} limit`, "TemplateTooLarge");
}

/**
 * Options every docxtemplater instance over a template must share: whether a template compiles
 * (e.g. loops spanning paragraphs) depends on them, so rendering must use the same ones.
 */
export const DOCXTEMPLATER_OPTIONS = { paragraphLoop: true, linebreaks: true, parser: templateParser } as const;

/** Parts docxtemplater would template but that hold no template content (decisions: issue 16). */
export const NOT_TEMPLATED = /^docProps\//;

// Zip-bomb limits, applied to the sizes the central directory declares.
const MAX_ENTRIES = 2_000;
const MAX_TOTAL_UNCOMPRESSED = 200 * 1024 * 1024;
const RATIO_CHECK_MIN_SIZE = 1024 * 1024;
const MAX_RATIO = 200;

const KINDS: Record<TemplateKind, { mime: TemplateInspection["fileType"]; mainContentType: string; label: string }> = {
  docx: {
    mime: DOCX_MIME,
    mainContentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    label: "Word document (DOCX)",
  },
  pptx: {
    mime: PPTX_MIME,
    mainContentType: "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
    label: "PowerPoint presentation (PPTX)",
  },
};

export async function inspectTemplate(file: Buffer, fileName: string, opts: { maxBytes: number }): Promise<TemplateInspection> {
  if (file.length === 0) throw new TemplateFileError("The file is empty", "TemplateEmpty");
  if (file.length > opts.maxBytes) {
    throw new TemplateFileError(`The file is ${formatBytes(file.length)}, over the ${formatBytes(opts.maxBytes)} limit`, "TemplateTooLarge");
  }

  const sniffed = sniff(file);
  const extension = /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (extension !== "docx" && extension !== "pptx") {
    if (sniffed === "pdf") throw unsupported("The file is a PDF, not a DOCX or PPTX");
    throw unsupported(
      extension
        ? `".${extension}" files are not supported: upload a Word (.docx) or PowerPoint (.pptx) file`
        : "The file name has no extension: upload a Word (.docx) or PowerPoint (.pptx) file",
    );
  }
  if (sniffed === "pdf") throw unsupported("The file is a PDF, not a DOCX or PPTX");
  if (sniffed === "ole") {
    throw unsupported(
      "The file is a legacy Office file (.doc/.ppt) or is password-protected, not a DOCX or PPTX: re-save it as .docx/.pptx without a password",
    );
  }
  if (sniffed !== "zip") throw unsupported("The file is not a valid DOCX/PPTX (Office Open XML) file");

  const entries = readCentralDirectory(file);
  checkDeclaredSizes(entries);
  const contentTypesEntry = entries.find((entry) => entry.name === "[Content_Types].xml");
  if (!contentTypesEntry) throw unsupported("The file is a ZIP archive, not a DOCX or PPTX");
  const contentTypesXml = await inflateEntry(file, contentTypesEntry);
  assertWellFormed(contentTypesEntry.name, contentTypesXml);
  const kind = identifyKind(
    contentTypesXml,
    extension,
    entries.map((entry) => entry.name),
  );

  // Only XML parts matter for placeholders; media, fonts and embedded objects are never inflated.
  const zip = new PizZip();
  for (const entry of entries) {
    if (!/\.(xml|rels)$/i.test(entry.name)) continue;
    // Document properties (title, author, company…) are Word's, not template content: a "{" there is just text.
    if (NOT_TEMPLATED.test(entry.name)) continue;
    const xml = entry === contentTypesEntry ? contentTypesXml : await inflateEntry(file, entry);
    assertWellFormed(entry.name, xml);
    zip.file(entry.name, xml);
  }

  return { fileType: KINDS[kind].mime, kind, fileSize: file.length, placeholders: extractPlaceholders(zip, kind) };
}

// ---------------------------------------------------------------------------------------------
// Content sniffing and OOXML kind

function sniff(file: Buffer): "pdf" | "ole" | "zip" | "other" {
  if (file.length >= 4 && file[0] === 0x50 && file[1] === 0x4b && (file[2] === 3 || file[2] === 5)) return "zip";
  if (file.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return "ole";
  // PDF readers accept the header anywhere in the first 1 KB.
  if (file.subarray(0, 1024).includes("%PDF-")) return "pdf";
  return "other";
}

function identifyKind(contentTypesXml: string, extension: TemplateKind, names: string[]): TemplateKind {
  // Resolve each part's type the way docxtemplater and Office do: an Override wins, else the Default for its extension.
  const pairs = (tag: string, key: string) =>
    [...contentTypesXml.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, "g"))].map((m): [string, string] => [
      attribute(m[1], key) ?? "",
      attribute(m[1], "ContentType") ?? "",
    ]);
  const overrides = new Map(pairs("Override", "PartName").map(([part, type]) => [part.replace(/^\//, ""), type]));
  const defaults = new Map(pairs("Default", "Extension").map(([ext, type]) => [ext.toLowerCase(), type]));
  const typeOf = (name: string) => overrides.get(name) ?? defaults.get(name.slice(name.lastIndexOf(".") + 1).toLowerCase());

  for (const kind of ["docx", "pptx"] as const) {
    const mainType = KINDS[kind].mainContentType;
    if (!names.some((name) => typeOf(name) === mainType)) {
      const missing = [...overrides].find(([, type]) => type === mainType)?.[0];
      if (missing) throw corrupt(`The file is damaged: its main part ${missing} is missing`);
      continue;
    }
    if (kind !== extension) {
      throw unsupported(`The file is a ${KINDS[kind].label}, not a ${KINDS[extension].label}: its extension says .${extension}; rename it to .${kind}`);
    }
    return kind;
  }
  // Same family but a variant we deliberately don't accept (macros, templates, shows), or another format.
  const types = [...overrides.values(), ...defaults.values()].join(" ");
  if (/wordprocessingml|ms-word/.test(types)) {
    throw unsupported("The file is a Word template or macro-enabled document, not a DOCX: save it as a .docx document");
  }
  if (/presentationml|ms-powerpoint/.test(types)) {
    throw unsupported("The file is a PowerPoint template, slide show or macro-enabled presentation, not a PPTX: save it as a .pptx presentation");
  }
  if (/spreadsheetml|ms-excel/.test(types)) throw unsupported("The file is an Excel spreadsheet, not a DOCX or PPTX");
  throw unsupported("The file is a ZIP archive, not a DOCX or PPTX");
}

function attribute(attrs: string, name: string): string | undefined {
  return new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)
    .exec(attrs)
    ?.slice(1)
    .find((v) => v !== undefined);
}

// ---------------------------------------------------------------------------------------------
// ZIP container (APPNOTE.TXT sections 4.3.12 to 4.3.16, plus ZIP64 for tools that always emit it)

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;

function readCentralDirectory(file: Buffer): ZipEntry[] {
  const incomplete = () => corrupt("The file is damaged or incomplete: its ZIP directory is missing or cut short");

  // The EOCD record is 22 bytes plus a comment of up to 64 KB, so scan backwards from the end.
  let eocd = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 0xffff); i--) {
    if (file.readUInt32LE(i) === SIG_EOCD && i + 22 + file.readUInt16LE(i + 20) <= file.length) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw incomplete();

  let count = file.readUInt16LE(eocd + 10);
  let cdSize = file.readUInt32LE(eocd + 12);
  let cdOffset = file.readUInt32LE(eocd + 16);
  const disk = file.readUInt16LE(eocd + 4);
  if ((disk !== 0 && disk !== 0xffff) || file.readUInt16LE(eocd + 6) !== disk) {
    throw corrupt("The file is damaged: it is a multi-part (spanned) ZIP archive");
  }
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || file.readUInt32LE(locator) !== SIG_ZIP64_LOCATOR) throw incomplete();
    const zip64 = readUInt64(file, locator + 8);
    if (zip64 + 56 > file.length || file.readUInt32LE(zip64) !== SIG_ZIP64_EOCD) throw incomplete();
    count = readUInt64(file, zip64 + 32);
    cdSize = readUInt64(file, zip64 + 40);
    cdOffset = readUInt64(file, zip64 + 48);
  }
  // Checked on the declared count so a forged directory can't make us loop over millions of records.
  if (count > MAX_ENTRIES) throw zipBomb(`The file contains ${count} entries (the limit is ${MAX_ENTRIES})`);
  if (cdOffset + cdSize > file.length) throw incomplete();

  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  let pos = cdOffset;
  for (let n = 0; n < count; n++) {
    if (pos + 46 > cdOffset + cdSize || file.readUInt32LE(pos) !== SIG_CENTRAL) throw incomplete();
    const flags = file.readUInt16LE(pos + 8);
    const method = file.readUInt16LE(pos + 10);
    let compressedSize = file.readUInt32LE(pos + 20);
    let uncompressedSize = file.readUInt32LE(pos + 24);
    const nameLength = file.readUInt16LE(pos + 28);
    const extraLength = file.readUInt16LE(pos + 30);
    const commentLength = file.readUInt16LE(pos + 32);
    let localHeaderOffset = file.readUInt32LE(pos + 42);
    const end = pos + 46 + nameLength + extraLength + commentLength;
    if (end > cdOffset + cdSize) throw incomplete();
    const name = file.toString(flags & 0x800 ? "utf8" : "latin1", pos + 46, pos + 46 + nameLength);

    // ZIP64 extended information: present only for the fields saturated at 0xFFFFFFFF, in this order.
    let extra = pos + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = file.readUInt16LE(extra);
      const size = file.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        let field = extra + 4;
        const next = () => {
          if (field + 8 > extra + 4 + size) throw incomplete();
          const value = readUInt64(file, field);
          field += 8;
          return value;
        };
        if (uncompressedSize === 0xffffffff) uncompressedSize = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = next();
      }
      extra += 4 + size;
    }
    pos = end;

    if (name.endsWith("/")) continue;
    if (flags & 0x1) throw corrupt("The file is encrypted: remove the password and upload it again");
    if (seen.has(name)) throw corrupt(`The file is damaged: it contains "${name}" twice`);
    seen.add(name);
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
  }
  return entries;
}

function checkDeclaredSizes(entries: ZipEntry[]): void {
  let total = 0;
  for (const entry of entries) {
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
    if (entry.uncompressedSize > RATIO_CHECK_MIN_SIZE && ratio > MAX_RATIO) {
      throw zipBomb(`The file looks like a zip bomb: "${entry.name}" expands ${Math.round(ratio)} times, to ${formatBytes(entry.uncompressedSize)}`);
    }
  }
  if (total > MAX_TOTAL_UNCOMPRESSED) {
    throw zipBomb(`The file looks like a zip bomb: it expands to ${formatBytes(total)} (the limit is ${formatBytes(MAX_TOTAL_UNCOMPRESSED)})`);
  }
}

const inflateRawAsync = promisify(inflateRaw);

/** Inflates one entry, never producing more than its declared size, and decodes it as text. */
async function inflateEntry(file: Buffer, entry: ZipEntry): Promise<string> {
  const damaged = (why: string) => corrupt(`The file is damaged: "${entry.name}" ${why}`);
  const local = entry.localHeaderOffset;
  if (local + 30 > file.length || file.readUInt32LE(local) !== SIG_LOCAL) throw damaged("cannot be found");
  const start = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
  if (start + entry.compressedSize > file.length) throw damaged("is cut short");
  const data = file.subarray(start, start + entry.compressedSize);

  let content: Buffer;
  if (entry.method === 0) {
    content = data;
  } else if (entry.method === 8) {
    try {
      content = await inflateRawAsync(data, { maxOutputLength: Math.max(entry.uncompressedSize, 1) });
    } catch (err) {
      // A directory that under-declares sizes is a bomb trying to slip past checkDeclaredSizes.
      if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
        throw zipBomb(`The file looks like a zip bomb: "${entry.name}" expands beyond its declared size`);
      }
      throw damaged("cannot be decompressed");
    }
  } else {
    throw damaged(`uses an unsupported compression method (${entry.method})`);
  }
  if (content.length !== entry.uncompressedSize) throw damaged("does not have its declared size");
  // OPC allows UTF-16 parts; Office itself writes UTF-8.
  if (content[0] === 0xff && content[1] === 0xfe) return content.toString("utf16le");
  if (content[0] === 0xfe && content[1] === 0xff) return Buffer.from(content).swap16().toString("utf16le");
  return content.toString("utf8");
}

function readUInt64(file: Buffer, offset: number): number {
  if (offset < 0 || offset + 8 > file.length) return Number.MAX_SAFE_INTEGER;
  return Number(file.readBigUInt64LE(offset));
}

// ---------------------------------------------------------------------------------------------
// XML well-formedness. docxtemplater's lexer tolerates mismatched tags that Word and PowerPoint
// refuse to open, so each part gets a strict structural check first. OOXML forbids DTDs (ECMA-376
// Part 2, 8.1.4), which also rules out entity-expansion tricks.

const XML_MARKUP =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<\/([^\s<>/]+)\s*>|<([^\s<>/!?]+)(?:\s+[^\s=<>/]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*(\/?)>/y;

function assertWellFormed(partName: string, xml: string): void {
  const problem = wellFormednessProblem(xml);
  if (problem) throw corrupt(`The file is damaged: ${partName} is not well-formed XML (${problem})`);
}

function wellFormednessProblem(xml: string): string | null {
  const stack: string[] = [];
  let rootClosed = false;
  let pos = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos < xml.length) {
    const lt = xml.indexOf("<", pos);
    const text = xml.slice(pos, lt < 0 ? xml.length : lt);
    if (stack.length === 0 && text.trim() !== "") return "text outside the root element";
    if (lt < 0) break;
    if (xml.startsWith("<!DOCTYPE", lt)) return "it declares a DOCTYPE";
    XML_MARKUP.lastIndex = lt;
    const match = XML_MARKUP.exec(xml);
    if (!match) return `unreadable markup at offset ${lt}`;
    const [, closing, opening, selfClosing] = match;
    if (closing !== undefined) {
      const open = stack.pop();
      if (open !== closing) return open ? `</${closing}> closes <${open}>` : `unexpected </${closing}>`;
      if (stack.length === 0) rootClosed = true;
    } else if (opening !== undefined) {
      if (stack.length === 0 && rootClosed) return "more than one root element";
      if (selfClosing) {
        if (stack.length === 0) rootClosed = true;
      } else {
        stack.push(opening);
      }
    }
    pos = XML_MARKUP.lastIndex;
  }
  if (stack.length > 0) return `<${stack[stack.length - 1]}> is never closed`;
  if (!rootClosed) return "no root element";
  return null;
}

// ---------------------------------------------------------------------------------------------
// Placeholders

interface TemplateErrorLike {
  message?: string;
  properties?: {
    id?: string;
    explanation?: string;
    xtag?: string;
    context?: string;
    file?: string;
    openingtag?: string;
    closingtag?: string;
    rootError?: { message?: string };
    errors?: TemplateErrorLike[];
  };
}

/**
 * Lists the tags docxtemplater compiles, in reading order, unique by the tag as written.
 *
 * Prefixed tags keep their prefix in `placeholder` and lose it in `name`, since the name is the data key:
 *   {@Body}   raw XML / HTML (core rawxml module)     -> name "Body"
 *   {%Logo}   image (image module, not loaded here, so docxtemplater sees "%Logo" and we strip the "%")
 *   {#items}  loop or condition, reported once by its opening tag; {/items} is not listed
 *   {^items}  inverted condition
 * Tags inside a loop are listed after it. Names are trimmed: "{ Name }" is reported as "Name".
 */
function extractPlaceholders(zip: PizZip, kind: TemplateKind): TemplatePlaceholder[] {
  const inspect = new InspectModule();
  try {
    new Docxtemplater(zip, { ...DOCXTEMPLATER_OPTIONS, errorLogging: false, modules: [inspect] });
  } catch (err) {
    throw toTagOrCorruptError(err as TemplateErrorLike, zip);
  }

  const placeholders = new Map<string, TemplatePlaceholder>();
  const problems: string[] = [];
  // Parts are listed in whatever order [Content_Types].xml has them; sort them into reading order.
  const parts = Object.keys(inspect.fullInspected)
    .filter((part) => (inspect.fullInspected[part] as { postparsed?: unknown }).postparsed)
    .sort((a, b) => partRank(a, kind) - partRank(b, kind) || naturalCompare(a, b));
  for (const part of parts) {
    const visit = (tags: Docxtemplater.DXT.Part[], loop: string | undefined): string[] => {
      const names: string[] = [];
      for (const tag of tags) {
        // Loop parts carry their inner tags in `subparsed`; their closing tag never shows up here.
        const raw = tag.raw ?? tag.value;
        const placeholder = `{${raw}}`;
        const name = (tag.module ? tag.value : tag.value.replace(/^%+/, "")).trim();
        if (name === "") {
          problems.push(`Empty placeholder: "${placeholder}" has no name (${part})`);
          continue;
        }
        names.push(name);
        let entry = placeholders.get(placeholder);
        if (!entry) {
          try {
            const { kind: tagKind, identifiers } = classifyTag(
              tag.module === "loop" ? `${tag.inverted ? "^" : "#"}${tag.value}` : raw,
              (tag.subparsed?.length ?? 0) > 0,
            );
            entry = { placeholder, name, kind: tagKind };
            if (loop) entry.loop = loop;
            else if (tagKind !== "text" && identifiers.length) entry.data = identifiers;
            placeholders.set(placeholder, entry);
          } catch (err) {
            if (!(err instanceof ExpressionSyntaxError)) throw err;
            problems.push(`${err.message} (${part})`);
          }
        }
        if (tag.subparsed) {
          const inner = visit(tag.subparsed, name);
          if (entry?.kind === "loop") entry.fields = [...new Set([...(entry.fields ?? []), ...inner])];
        }
      }
      return names;
    };
    visit(inspect.getStructuredTags(part), undefined);
  }
  if (problems.length > 0) throw tagError(problems);
  return [...placeholders.values()];
}

function toTagOrCorruptError(err: TemplateErrorLike, zip: PizZip): TemplateFileError {
  const errors = err.properties?.id === "multi_error" ? (err.properties.errors ?? []) : [err];
  if (errors.some((e) => e.properties?.id === "change_delimiters_invalid")) return tagError([delimiterChangeProblem(zip)]);
  const tagErrors = errors.filter((e) => e.properties?.id && !INTERNAL_ERROR_IDS.has(e.properties.id));
  if (errors.length > 0 && tagErrors.length === errors.length) return tagError(tagErrors.map(describeTagError));
  const detail = errors[0]?.properties?.explanation ?? errors[0]?.message ?? err.message ?? "unknown error";
  return corrupt(`The file is damaged and cannot be read as a template (${detail})`);
}

/**
 * A tag that starts with "=" is docxtemplater's syntax for changing the delimiters ("{=[[ ]]=}"); any
 * other "{=…}" (a spreadsheet-style formula, "{= total }") cannot be read. The error carries no place,
 * so the text is searched for it.
 */
function delimiterChangeProblem(zip: PizZip): string {
  for (const name of Object.keys(zip.files).sort()) {
    if (!/\.xml$/.test(name) || name.startsWith("docProps/")) continue;
    const text = zip
      .file(name)!
      .asText()
      .replace(/<[^>]+>/g, "");
    const found = /\{=[^{}]{0,40}\}?/.exec(text);
    if (found)
      return `"${clip(found[0])}" (${name}) starts with "=", which placeholders use only to change their delimiters (like {=[[ ]]=}); remove the "=" or the braces`;
  }
  return 'A placeholder starts with "=", which placeholders use only to change their delimiters (like {=[[ ]]=}); remove the "=" or the braces';
}

/** docxtemplater errors that mean the package itself is broken, not that a tag is badly written. */
const INTERNAL_ERROR_IDS = new Set(["file_has_invalid_xml", "malformed_xml", "invalid_xml_characters", "filetype_not_identified", "filetype_not_handled"]);

function describeTagError(err: TemplateErrorLike): string {
  const p = err.properties ?? {};
  const where = p.file ? ` (${p.file})` : "";
  switch (p.id) {
    case "unclosed_tag":
      return `Unbalanced braces: "${clip(p.context ?? `{${p.xtag}`)}" is never closed${where}`;
    case "unopened_tag":
      return `Unbalanced braces: "${p.xtag}}" has no opening brace${where}`;
    case "duplicate_open_tag":
      return `Doubled braces: "${p.xtag}" opens twice; placeholders use single braces like {Name}${where}`;
    case "duplicate_close_tag":
      return `Doubled braces: "${clip(p.context ?? p.xtag ?? "")}" closes twice; placeholders use single braces like {Name}${where}`;
    case "unclosed_loop":
      return `Unclosed section: "{#${p.xtag}}" has no matching "{/${p.xtag}}"${where}`;
    case "unopened_loop":
      return `Unopened section: "{/${p.xtag}}" has no matching "{#${p.xtag}}"${where}`;
    case "closing_tag_does_not_match_opening_tag":
      return `Mismatched section: "{#${p.openingtag}}" is closed by "{/${p.closingtag}}"${where}`;
    case "scopeparser_compilation_failed":
      // Our template parser's own words (lib/templates/tags.ts): what is wrong with the expression.
      return `${p.rootError?.message ?? `{${p.xtag}} is not a valid expression`}${where}`;
    case "raw_xml_tag_should_be_only_text_in_paragraph":
      return `"{@${p.xtag}}" must be alone in its own paragraph, with no other text or spaces${where}`;
    default:
      return `${p.explanation ?? err.message ?? "Invalid placeholder"}${where}`;
  }
}

/** docxtemplater's context can run to the end of the paragraph; keep messages readable. */
function clip(text: string, max = 40): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function tagError(problems: string[]): TemplateFileError {
  const message =
    problems.length === 1
      ? problems[0]
      : `The template has ${problems.length} placeholder errors: ${problems.slice(0, 3).join("; ")}${problems.length > 3 ? "; ..." : ""}`;
  return new TemplateFileError(
    message,
    "TemplateTagError",
    problems.map((problem) => ({ field: "file", message: problem })),
  );
}

function partRank(part: string, kind: TemplateKind): number {
  const order =
    kind === "docx"
      ? [/^word\/header\d*\.xml$/, /^word\/document\d*\.xml$/, /^word\/(footnotes|endnotes)\.xml$/, /^word\/footer\d*\.xml$/]
      : [/^ppt\/slides\/slide\d+\.xml$/, /^ppt\/slideLayouts\//, /^ppt\/slideMasters\//];
  const rank = order.findIndex((pattern) => pattern.test(part));
  return rank < 0 ? order.length : rank;
}

function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

// ---------------------------------------------------------------------------------------------

function unsupported(message: string) {
  return new TemplateFileError(message, "TemplateUnsupportedType");
}

function corrupt(message: string) {
  return new TemplateFileError(message, "TemplateCorrupt");
}

function zipBomb(message: string) {
  return new TemplateFileError(message, "TemplateZipBomb");
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${+(bytes / 1024 / 1024).toFixed(1)} MB`;
}

// Template inspection: decides whether an uploaded file is a usable DOCX/PPTX template and lists its
// placeholders. Uploads are untrusted, so the ZIP container is read by hand (zip-reader.ts): declared sizes are
// checked before anything is inflated, only the XML parts are inflated (each capped at its declared
// size), and docxtemplater only ever sees that vetted XML.
import Docxtemplater from "docxtemplater";
// The inspect module requires lodash at runtime without declaring it; lodash is a direct dependency for that reason.
import InspectModule from "docxtemplater/js/inspect-module.js";
import PizZip from "pizzip";
import { checkDeclaredSizes, inflateEntry, readCentralDirectory } from "@/lib/templates/zip-reader";
import { corrupt, formatBytes, TemplateFileError, unsupported } from "@/lib/templates/template-file-errors";
import { classifyTag, ExpressionSyntaxError, type TagKind, templateParser } from "@/lib/templates/tags";
import { CONTENT_TYPES } from "@/lib/files/content-types";

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
  fileType: (typeof CONTENT_TYPES)["docx" | "pptx"];
  kind: TemplateKind;
  fileSize: number;
  /** Unique by `placeholder`, in reading order. */
  placeholders: TemplatePlaceholder[];
}

/**
 * Options every docxtemplater instance over a template must share: whether a template compiles
 * (e.g. loops spanning paragraphs) depends on them, so rendering must use the same ones.
 */
export const DOCXTEMPLATER_OPTIONS = { paragraphLoop: true, linebreaks: true, parser: templateParser } as const;

/** Parts docxtemplater would template but that hold no template content (decisions: issue 16). */
export const NOT_TEMPLATED = /^docProps\//;

const KINDS: Record<TemplateKind, { mime: TemplateInspection["fileType"]; mainContentType: string; label: string }> = {
  docx: {
    mime: CONTENT_TYPES.docx,
    mainContentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    label: "Word document (DOCX)",
  },
  pptx: {
    mime: CONTENT_TYPES.pptx,
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

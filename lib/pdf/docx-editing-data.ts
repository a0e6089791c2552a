// Word saves data for its own editing in a DOCX that never reaches a page: its latent styles (how its
// UI offers the 376 built-in styles a document does not use, in styles.xml), the revision save ids of
// every editing session (settings.xml) and the glossary (building blocks, content controls' placeholder
// texts: a document of its own beside the body). LibreOffice reads all of it into the document, to save
// it again, and a PDF export never uses it. For a warm soffice converting the sample contract (about
// 25 ms of CPU), 376 latent styles cost 3 ms, 900 revision ids 1.5 ms, a glossary of 12 parts 1.2 ms
// (docs/performance.md, 2026-12-03). So the copy LibreOffice converts goes without them; the DOCX
// Quire stores keeps them (ADR 0026). Documents made from one template carry these parts byte for
// byte, so each part's leaner data is made once and kept by a digest of the data it replaces.
import type { DeflatedPart } from "@/lib/files/zip-patch";
import { endOfTag, withLeanerParts } from "@/lib/pdf/ooxml-parts";

/** WordprocessingML's namespace, transitional and strict. */
const WORD_NAMESPACES = ["http://schemas.openxmlformats.org/wordprocessingml/2006/main", "http://purl.oclc.org/ooxml/wordprocessingml/main"];

/** Each part that holds editing data, with the WordprocessingML elements in it that hold only that. */
const EDITING_DATA: ReadonlyMap<string, readonly string[]> = new Map([
  ["word/styles.xml", ["latentStyles"]],
  ["word/settings.xml", ["rsids"]],
  // docParts is optional in a glossary document (ECMA-376 Part 1, 17.2.2): without it the part stays valid.
  ["word/glossary/document.xml", ["docParts"]],
  ["word/glossary/styles.xml", ["latentStyles"]],
  ["word/glossary/settings.xml", ["rsids"]],
]);

/** A digest of a part's data -> its leaner data, or null when it has no editing data to take out. */
const leanerParts = new Map<string, DeflatedPart | null>();

/** The DOCX without Word's editing data; the same buffer when it has none, or is not a package this can rewrite. */
export function withoutEditingData(docx: Buffer): Buffer {
  return withLeanerParts(docx, leanerParts, (name) => {
    const elements = EDITING_DATA.get(name);
    return elements && ((xml) => withoutElements(xml, elements));
  });
}

/** The part's XML without the named WordprocessingML elements, or null when it has none of them. */
export function withoutElements(xml: string, elements: readonly string[]): string | null {
  // A start tag inside a comment or a CDATA section is not an element: such rare parts are left alone.
  if (xml.includes("<!--") || xml.includes("<![CDATA[")) return null;
  let out = xml;
  for (const prefix of wordPrefixes(xml)) {
    for (const element of elements) out = withoutElement(out, prefix ? `${prefix}:${element}` : element);
  }
  return out === xml ? null : out;
}

/** The prefixes bound to WordprocessingML's namespace in the part ("" when it is the default namespace). */
function wordPrefixes(xml: string): Set<string> {
  const prefixes = new Set<string>();
  for (const match of xml.matchAll(/\bxmlns(?::([A-Za-z_][\w.-]*))?\s*=\s*(["'])([^"']*)\2/g)) {
    if (WORD_NAMESPACES.includes(match[3])) prefixes.add(match[1] ?? "");
  }
  return prefixes;
}

/** Every `qname` element taken out, from its start tag to its end tag (these elements never nest). */
function withoutElement(xml: string, qname: string): string {
  let out = xml;
  let from = 0;
  for (;;) {
    const start = out.indexOf(`<${qname}`, from);
    if (start < 0) return out;
    const after = out.charAt(start + qname.length + 1);
    if (after !== ">" && after !== "/" && !/\s/.test(after)) {
      from = start + 1; // another element whose name begins the same
      continue;
    }
    const tagEnd = endOfTag(out, start);
    if (tagEnd < 0) return xml;
    let end = tagEnd + 1;
    if (out.charAt(tagEnd - 1) !== "/") {
      const close = out.indexOf(`</${qname}`, end);
      const closeEnd = close < 0 ? -1 : out.indexOf(">", close);
      if (closeEnd < 0) return xml; // not well formed: left for LibreOffice to judge
      end = closeEnd + 1;
    }
    out = out.slice(0, start) + out.slice(end);
    from = start;
  }
}

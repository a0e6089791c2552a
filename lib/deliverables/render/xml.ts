// Small string-level XML helpers for the OOXML we generate and for the bits of template XML we
// reuse (a run's or paragraph's properties). Everything we write goes through escapeText/escapeAttr,
// so user text can never produce markup.

// Characters XML 1.0 forbids even when escaped (control characters, lone surrogates, U+FFFE/FFFF).
const INVALID_XML_CHARS = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function stripInvalidXmlChars(text: string): string {
  return text.replace(INVALID_XML_CHARS, "");
}

export function escapeText(text: string): string {
  return stripInvalidXmlChars(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function escapeAttr(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

/** A parsed element: its name, attributes in document order, and its top-level child elements as XML. */
export interface XmlElement {
  name: string;
  attrs: [string, string][];
  children: { name: string; xml: string }[];
}

const ATTR = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Attributes of a start tag, entity references decoded (buildElement escapes them again). */
export function parseAttrs(startTag: string): [string, string][] {
  return [...startTag.matchAll(ATTR)].map((m) => [m[1], decodeEntities(m[2] ?? m[3] ?? "")]);
}

function decodeEntities(value: string): string {
  const named: Record<string, string> = { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" };
  return value.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|quot|apos|amp);/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return named[ref.toLowerCase()] ?? whole;
    const code = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

export function attrValue(startTag: string, name: string): string | undefined {
  return parseAttrs(startTag).find(([key]) => key === name)?.[1];
}

/**
 * Parses one element such as `<w:rPr><w:b/><w:sz w:val="22"/></w:rPr>` into its children, keeping
 * each child's XML verbatim. Only top-level children are split out, by tracking nesting depth.
 * Returns null for anything that is not a single well-formed element.
 */
export function parseElement(xml: string): XmlElement | null {
  const trimmed = xml.trim();
  const start = /^<([\w:.-]+)((?:\s[^>]*?)?)(\/?)>/.exec(trimmed);
  if (!start) return null;
  const [whole, name, attrText, selfClosing] = start;
  const attrs = parseAttrs(attrText);
  if (selfClosing) return whole.length === trimmed.length ? { name, attrs, children: [] } : null;
  const closing = `</${name}>`;
  if (!trimmed.endsWith(closing)) return null;
  const inner = trimmed.slice(whole.length, trimmed.length - closing.length);

  const children: XmlElement["children"] = [];
  const tag = /<(\/?)([\w:.-]+)[^>]*?(\/?)>/g;
  let depth = 0;
  let childStart = -1;
  let childName = "";
  for (let m = tag.exec(inner); m; m = tag.exec(inner)) {
    const [, isClose, tagName, isSelfClosing] = m;
    if (isClose) {
      depth--;
      if (depth === 0 && childStart >= 0) {
        children.push({ name: childName, xml: inner.slice(childStart, m.index + m[0].length) });
        childStart = -1;
      }
      if (depth < 0) return null;
    } else if (isSelfClosing) {
      if (depth === 0) children.push({ name: tagName, xml: m[0] });
    } else {
      if (depth === 0) {
        childStart = m.index;
        childName = tagName;
      }
      depth++;
    }
  }
  return depth === 0 ? { name, attrs, children } : null;
}

/** Serialises an element, writing children in `order` (schema order) and unknown ones after. */
export function buildElement(el: XmlElement, order: readonly string[] = []): string {
  const rank = (name: string) => {
    const i = order.indexOf(name);
    return i < 0 ? order.length : i;
  };
  const children = [...el.children].sort((a, b) => rank(a.name) - rank(b.name));
  const attrs = el.attrs.map(([key, value]) => ` ${key}="${escapeAttr(value)}"`).join("");
  const body = children.map((child) => child.xml).join("");
  return body ? `<${el.name}${attrs}>${body}</${el.name}>` : `<${el.name}${attrs}/>`;
}

export function setChild(el: XmlElement, name: string, xml: string | null): void {
  el.children = el.children.filter((child) => child.name !== name);
  if (xml !== null) el.children.push({ name, xml });
}

export function setAttr(el: XmlElement, name: string, value: string | null): void {
  el.attrs = el.attrs.filter(([key]) => key !== name);
  if (value !== null) el.attrs.push([name, value]);
}

/** Adds namespace declarations to the root element for prefixes the XML uses but never declares. */
export function ensureRootNamespaces(xml: string, namespaces: Record<string, string>): string {
  const rootStart = /<(?![?!])[\w:.-]+[^>]*>/.exec(xml);
  if (!rootStart) return xml;
  let declarations = "";
  for (const [prefix, uri] of Object.entries(namespaces)) {
    if (new RegExp(`xmlns:${prefix}\\s*=`).test(rootStart[0])) continue;
    if (!new RegExp(`[<\\s]${prefix}:[\\w.-]+`).test(xml)) continue;
    declarations += ` xmlns:${prefix}="${uri}"`;
  }
  if (!declarations) return xml;
  const end = rootStart.index + rootStart[0].length - (rootStart[0].endsWith("/>") ? 2 : 1);
  return xml.slice(0, end) + declarations + xml.slice(end);
}

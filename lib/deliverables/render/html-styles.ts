// How HTML elements and their inline CSS style text: bold, italic, underline, strike, code,
// super/subscript, colour, links and alignment. Only these few properties are read; the rest of
// the CSS is ignored.
import type { Align, RunStyle } from "./html-model";

/** Whether two runs would be written identically (so adjacent text can be joined). */
export function sameStyle(a: RunStyle, b: RunStyle): boolean {
  if (a === b) return true;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof RunStyle>;
  return [...keys].every((key) => a[key] === b[key]);
}

/** The style of text inside an element: the element's own meaning plus its inline CSS, over `base`. */
export function styled(tag: string, attrs: Record<string, string>, base: RunStyle): RunStyle {
  const style: RunStyle = { ...base };
  switch (tag) {
    case "b":
    case "strong":
      style.bold = true;
      break;
    case "i":
    case "em":
    case "cite":
    case "dfn":
    case "var":
      style.italic = true;
      break;
    case "u":
    case "ins":
      style.underline = true;
      break;
    case "s":
    case "strike":
    case "del":
      style.strike = true;
      break;
    case "code":
    case "kbd":
    case "samp":
    case "tt":
      style.code = true;
      break;
    case "sup":
      style.sup = true;
      style.sub = false;
      break;
    case "sub":
      style.sub = true;
      style.sup = false;
      break;
    case "a": {
      const link = safeLink(attrs.href);
      if (link) style.link = link;
      break;
    }
    case "font": {
      const color = cssColor(attrs.color);
      if (color) style.color = color;
      break;
    }
  }
  const css = parseCss(attrs.style);
  const weight = css["font-weight"];
  if (weight === "bold" || weight === "bolder" || Number(weight) >= 600) style.bold = true;
  else if (weight === "normal" || (weight && Number(weight) > 0 && Number(weight) < 600)) style.bold = false;
  if (css["font-style"] === "italic" || css["font-style"] === "oblique") style.italic = true;
  const decoration = css["text-decoration"] ?? css["text-decoration-line"];
  if (decoration?.includes("underline")) style.underline = true;
  if (decoration?.includes("line-through")) style.strike = true;
  if (css["vertical-align"] === "super") style.sup = true;
  if (css["vertical-align"] === "sub") style.sub = true;
  const color = cssColor(css.color);
  if (color) style.color = color;
  return style;
}

export function alignOf(attrs: Record<string, string>): Align | undefined {
  const value = (parseCss(attrs.style)["text-align"] ?? attrs.align ?? "").toLowerCase();
  return value === "center" || value === "right" || value === "justify" || value === "left" ? value : undefined;
}

function parseCss(style: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const decl of (style ?? "").split(";")) {
    const colon = decl.indexOf(":");
    if (colon > 0)
      out[decl.slice(0, colon).trim().toLowerCase()] = decl
        .slice(colon + 1)
        .trim()
        .toLowerCase();
  }
  return out;
}

function cssColor(value: string | undefined): string | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value?.trim() ?? "")?.[1];
  if (!hex) return undefined;
  return (hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex).toUpperCase();
}

/** Only links a reader can follow safely; javascript:, data:, file: and relative links keep their text only. */
export function safeLink(href: string | undefined): string | undefined {
  const url = href?.trim();
  if (!url || url.length > 2048 || !/^(https?:\/\/|mailto:|tel:)/i.test(url)) return undefined;
  if (/^https?:/i.test(url) && !URL.canParse(url)) return undefined;
  return url;
}

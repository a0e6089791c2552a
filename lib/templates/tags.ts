// What a template tag is, and how its value is looked up: one place for the template inspector, the
// generation engine and the template doctor (docs/contract.md "Advanced templating").
//
//   {Name}, {Client Name}, {First-Name}   text: a plain name, looked up as written (hyphens and
//                                          spaces are part of the name, as they always were)
//   {@Body}  {%Logo}                      html and image placeholders
//   {client.address.city}                 path: read from JSON data
//   {price * quantity}, {total > 1000}    expression: evaluated by angular-expressions (the parser
//                                          docxtemplater documents), a sandboxed grammar: no function
//                                          definitions, no access to constructors or globals
//   {#items}…{/items}                     loop when it holds tags, else condition
//   {^flag}…{/flag}, {#total > 1000}      condition
import expressionParser from "docxtemplater/expressions.js";
import { LruCache } from "@/lib/cache/lru";

export type TagKind = "text" | "html" | "image" | "loop" | "condition" | "path" | "expression";

const IDENT = String.raw`[\p{L}_$][\p{L}\p{N}_$]*`;
const PATH = new RegExp(`^${IDENT}(?:\\.${IDENT})+$`, "u");
/** Characters that only an expression uses (a name may hold spaces, hyphens, dots after a space, …). */
const EXPRESSION_SYNTAX = /[*/+<>=!&|?:%()[\]'"]|\s-\s/;
/** A tag that uses these but does not parse was meant as an expression and is refused at upload. */
const EXPRESSION_INTENT = /[*<>=!&|]/;

/** Filters a tag may apply: {name | upper}, {price * quantity | fixed:2}, {tags | join:", "}, {note | default:"none"}. */
const FILTERS: Record<string, (input: unknown, ...args: unknown[]) => unknown> = {
  upper: (v) => (v == null ? v : String(v).toUpperCase()),
  lower: (v) => (v == null ? v : String(v).toLowerCase()),
  fixed: (v, digits = 2) => (v == null || v === "" || Number.isNaN(Number(v)) ? v : Number(v).toFixed(Math.min(20, Math.max(0, Number(digits) || 0)))),
  round: (v) => (v == null || v === "" || Number.isNaN(Number(v)) ? v : Math.round(Number(v))),
  join: (v, separator = ", ") => (Array.isArray(v) ? v.join(String(separator)) : v),
  default: (v, fallback = "") => (v == null || v === "" ? fallback : v),
};
export const TEMPLATE_FILTERS = Object.keys(FILTERS);

const parse = expressionParser.configure({ filters: FILTERS });

/**
 * Expressions read data; they never write it. An assignment ("{a.__proto__.x = 1}") could reach a
 * shared prototype, so assignments and the names that lead to prototypes are refused outright.
 */
function unsafe(expression: string): string | null {
  const code = expression.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  if (/(?<![=!<>])=(?!=)/.test(code)) return "assignments are not allowed (compare with ==)";
  if (/\b(__proto__|prototype|constructor|__defineGetter__|__defineSetter__|__lookupGetter__|__lookupSetter__)\b/.test(code))
    return "it names an object's internals";
  return null;
}

export interface ClassifiedTag {
  kind: TagKind;
  /** Top-level data names the tag reads (for a path or expression), e.g. ["client"] or ["price", "quantity"]. */
  identifiers: string[];
  /** Data paths the tag reads, e.g. ["client.address.city"]. */
  paths: string[];
}

export class ExpressionSyntaxError extends Error {
  constructor(
    readonly tag: string,
    readonly detail: string,
  ) {
    super(`{${tag}} is not a valid expression: ${detail}`);
  }
}

function compiled(expression: string) {
  const refused = unsafe(expression);
  if (refused) throw new ExpressionSyntaxError(expression, refused);
  try {
    return parse(expression);
  } catch (err) {
    const detail = (err instanceof Error ? err.message : String(err)).replace(/^\[\$parse:\w+\]\s*/, "").split("\n")[0];
    throw new ExpressionSyntaxError(expression, detail);
  }
}

function pathsOf(objectIdentifiers: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(objectIdentifiers).flatMap(([key, sub]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    const deeper = pathsOf(sub as Record<string, unknown>, path);
    return deeper.length ? deeper : [path];
  });
}

/** Whether a tag's content (without braces or a #/^ prefix) is read as a path or an expression. */
export function isAdvanced(content: string): boolean {
  const c = content.trim();
  return PATH.test(c) || (EXPRESSION_SYNTAX.test(c) && expressionParses(c));
}

const MAX_REMEMBERED_TAG = 200;
const parseVerdicts = new LruCache<string, boolean>(4096);

/**
 * Every render asks again for every tag, and a name that looks like an expression but is not one
 * ({Fee: total}, an image's {%Logo}) costs a failed parse, an exception with its stack (~10 µs): the
 * verdicts are kept, for tags short enough to keep.
 */
function expressionParses(c: string): boolean {
  const known = parseVerdicts.get(c);
  if (known !== undefined) return known;
  let parses = true;
  try {
    parse(c);
  } catch {
    parses = false;
  }
  if (c.length <= MAX_REMEMBERED_TAG) parseVerdicts.set(c, parses);
  return parses;
}

/**
 * Classifies one tag by its content as written (prefix included, braces not). `holdsTags` tells a
 * loop from a condition for `#` sections. Throws ExpressionSyntaxError for a broken expression.
 */
export function classifyTag(raw: string, holdsTags = false): ClassifiedTag {
  const prefix = raw[0];
  if (prefix === "@") return { kind: "html", identifiers: [], paths: [] };
  if (prefix === "%") return { kind: "image", identifiers: [], paths: [] };
  const section = prefix === "#" || prefix === "^";
  const content = (section ? raw.slice(1) : raw).trim();
  let kind: TagKind;
  let identifiers: string[] = [];
  let paths: string[] = [];
  if (PATH.test(content) || EXPRESSION_SYNTAX.test(content)) {
    if (!PATH.test(content) && !expressionParses(content) && !EXPRESSION_INTENT.test(content)) {
      // Punctuation in a name ("Company (legal)"): a plain name, as before expressions existed.
      kind = "text";
    } else {
      const expr = compiled(content);
      identifiers = [...new Set(expr.getIdentifiers())];
      paths = pathsOf(expr.getObjectIdentifiers());
      kind = PATH.test(content) ? "path" : "expression";
    }
  } else {
    kind = "text";
    identifiers = [content];
    paths = [content];
  }
  if (section) return { kind: prefix === "#" && holdsTags && kind !== "expression" ? "loop" : "condition", identifiers, paths };
  return { kind, identifiers, paths };
}

/**
 * docxtemplater's `parser` option: paths and expressions go to angular-expressions; every other tag
 * is a name looked up as written (docxtemplater tries the innermost loop item first, then outwards).
 */
export function templateParser(tag: string, meta?: unknown): { get(scope: unknown, context: unknown): unknown } {
  const content = tag.trim();
  if (content === "." || content === "this") return { get: (scope) => scope };
  if (isAdvanced(content)) {
    const refused = unsafe(content);
    if (refused) throw new ExpressionSyntaxError(content, refused);
    return (parse as unknown as (t: string, m?: unknown) => { get(scope: unknown, context: unknown): unknown })(content, meta);
  }
  return {
    get: (scope) => (scope !== null && typeof scope === "object" && Object.hasOwn(scope, content) ? (scope as Record<string, unknown>)[content] : undefined),
  };
}

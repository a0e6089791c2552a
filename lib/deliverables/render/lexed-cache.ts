// docxtemplater lexes every templated part on each render: the XML into tokens, then its {tags}
// across them (close to a tenth of a fill's CPU). The tokens depend on the part's text and the
// lexer's settings alone, and a template's parts come out of the stack pre-pass the same for every
// document made with the same stack shape, so they are kept by that text, and each render gets copies
// of its own: docxtemplater's modules, and Quire's, write into tokens (xml:space="preserve", section
// markers, a repeated slide-table row's a16:rowId counted up per repetition). What follows lexing (the
// tags' parse, the modules' postparse) depends on each create's variables and runs every time.
import { createRequire } from "node:module";
import Docxtemplater from "docxtemplater";
import { LruCache } from "@/lib/cache/lru";

/** A lexer token: type, value, position, tag, offsets; primitives only, so a shallow copy is a copy. */
type Token = Record<string, unknown>;

// The two lexing steps of docxtemplater's XmlTemplater.preparse(), which this replaces (3.x).
const require = createRequire(import.meta.url);
const Lexer = require("docxtemplater/js/lexer.js") as {
  xmlparse(content: string, tags: { text: unknown; other: unknown }): Token[];
  parse(xmllexed: Token[], delimiters: unknown, syntax: unknown, fileType: string): { lexed: Token[]; errors: unknown[] };
};
const Parser = require("docxtemplater/js/parser.js") as { preparse(lexed: Token[], modules: unknown[], options: unknown): Token[] };

/** A kept part's heap: its text (a key) and its tokens, ~120 bytes each (measured: 14 bytes a character of dense markup). */
const weightOf = (e: { tokens: readonly Token[]; textLength: number }) => e.textLength * 2 + e.tokens.length * 128;
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_PARTS = 1024;
const lexedParts = new LruCache<string, { tokens: readonly Token[]; textLength: number }>(MAX_PARTS, { max: MAX_BYTES, of: weightOf });

/** What XmlTemplater.preparse() reads and writes on the part's compiler. */
interface PartCompiler {
  content: string;
  fileType: string;
  fileTypeConfig: { tagsXmlTextArray: unknown; tagsXmlLexedArray: unknown };
  delimiters: unknown;
  syntax: unknown;
  modules: unknown[];
  allErrors: unknown[];
  lexed: Token[];
  getOptions(): unknown;
}

/** XmlTemplater.preparse(), lexing from the cache when this text was lexed with these settings before. */
function preparse(this: PartCompiler): void {
  const key = `${this.fileType}\u0000${JSON.stringify([this.delimiters, this.syntax])}\u0000${this.content}`;
  let tokens = lexedParts.get(key)?.tokens;
  this.allErrors = [];
  if (!tokens) {
    const xmllexed = Lexer.xmlparse(this.content, { text: this.fileTypeConfig.tagsXmlTextArray, other: this.fileTypeConfig.tagsXmlLexedArray });
    const lexed = Lexer.parse(xmllexed, this.delimiters, this.syntax, this.fileType);
    tokens = lexed.lexed;
    // A part that does not lex (an unclosed tag) is not kept: its errors carry the file they were found in.
    if (lexed.errors.length > 0) this.allErrors.push(...lexed.errors);
    else lexedParts.set(key, { tokens: tokens.map((t) => ({ ...t })), textLength: this.content.length });
  } else {
    tokens = tokens.map((t) => ({ ...t }));
  }
  this.lexed = Parser.preparse(tokens as Token[], this.modules, this.getOptions());
}

type CreatePart = (this: Docxtemplater, content: string, filePath: string) => PartCompiler;
const createPart = (Docxtemplater.prototype as unknown as { createTemplateClassFromContent: CreatePart }).createTemplateClassFromContent;

/** docxtemplater with its per-part compilers lexing through the cache. */
export class LexCachingDocxtemplater extends Docxtemplater {
  /** Where docxtemplater makes each part's compiler: this one gets the cached preparse(). */
  createTemplateClassFromContent(content: string, filePath: string): PartCompiler {
    return Object.assign(createPart.call(this, content, filePath), { preparse });
  }
}

/** For tests: forget every lexed part. */
export function clearLexedParts(): void {
  lexedParts.clear();
}

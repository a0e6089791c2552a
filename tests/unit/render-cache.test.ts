// The caches behind rendering (a template's inspection is reused only for the same bytes, its parts'
// lexed tokens only for the same text, a template's file once read) and the native DEFLATE PizZip uses.
import crypto from "node:crypto";
import { createRequire } from "node:module";
import zlib from "node:zlib";
import Docxtemplater from "docxtemplater";
import fc from "fast-check";
import PizZip from "pizzip";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LruCache } from "@/lib/cache/lru";
import type { FileStorage } from "@/lib/storage";
import { templateFile } from "@/lib/templates/template-files";
import { renderTemplate, type VariableInput } from "@/lib/deliverables/render";
import { clearInspectionCache, inspectForRender } from "@/lib/deliverables/render/inspection-cache";
import { clearLexedParts, LexCachingDocxtemplater } from "@/lib/deliverables/render/lexed-cache";
import { clearTemplateFacts, readTemplateFacts } from "@/lib/deliverables/render/template-facts";
import { clearStackCache } from "@/lib/deliverables/render/stacks";
import { installNativeDeflate } from "@/lib/deliverables/render/zip-codec";
import { buildSampleProposalPptx } from "@/lib/templates/samples";
import { docx, documentXml, noFetch, para, pptxSlide, rejection, slideXml, tableFrame, visibleText, withParts, zipText } from "./render-fixtures";

const render = (template: Buffer, name: string) =>
  renderTemplate(template, "docx", [{ placeholder: `{${name}}`, text: "filled", mimeType: "text" }], { fetchImage: noFetch });

describe("LruCache", () => {
  it("keeps at most its size, forgetting the least recently used entry first", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // a is now the most recently used
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.size).toBe(2);
  });

  it("bounded by weight too: forgets the oldest until the total fits, and keeps nothing heavier than the bound", () => {
    const cache = new LruCache<string, string>(10, { max: 6, of: (v) => v.length });
    cache.set("a", "aaa");
    cache.set("b", "bb");
    cache.set("c", "cc"); // 7 > 6: a goes
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, "bb", "cc"]);
    cache.set("b", "bbbb"); // replacing b counts its new weight only: 4 + 2
    expect([cache.get("b"), cache.get("c")]).toEqual(["bbbb", "cc"]);
    cache.set("d", "ddddddd"); // heavier than the bound: not kept, nothing else forgotten
    expect([cache.get("d"), cache.size]).toEqual([undefined, 2]);
    cache.delete("b");
    cache.set("e", "eeee"); // 2 + 4 fits once b's weight is gone
    expect([cache.get("c"), cache.get("e")]).toEqual(["cc", "eeee"]);
  });
});

describe("template inspection cache", () => {
  afterEach(() => clearInspectionCache());

  it("inspects a template once for repeated renders of the same bytes", async () => {
    const template = docx(para("Dear {Name}"));
    const first = inspectForRender(template, "docx");
    expect(inspectForRender(Buffer.from(template), "docx")).toBe(first);
    for (let i = 0; i < 3; i++) expect(visibleText(documentXml((await render(template, "Name")).file)).trim()).toBe("Dear filled");
    expect(inspectForRender(template, "docx")).toBe(first);
  });

  it("never answers a changed template from the stale inspection", async () => {
    const before = docx(para("Dear {Name}"));
    const after = docx(para("Hello {Title}"));
    expect((await inspectForRender(before, "docx")).placeholders.map((p) => p.placeholder)).toEqual(["{Name}"]);
    expect((await inspectForRender(after, "docx")).placeholders.map((p) => p.placeholder)).toEqual(["{Title}"]);
    await render(before, "Name");
    const result = await render(after, "Title");
    expect(visibleText(documentXml(result.file)).trim()).toBe("Hello filled");
    expect(result.missingPlaceholders).toEqual([]);
  });

  it("does not keep a failed inspection", async () => {
    const broken = docx(para("Dear {Name"));
    const first = inspectForRender(broken, "docx");
    await rejection(first);
    expect(inspectForRender(broken, "docx")).not.toBe(first);
    await rejection(render(broken, "Name"));
  });
});

describe("stack expansion cache", () => {
  afterEach(() => clearStackCache());
  const stacked = (entries: string[]) =>
    renderTemplate(
      docx(para("Item: {Item}") + para("Total {Total}")),
      "docx",
      [
        { placeholder: "{Item}", mimeType: "text", variableStack: entries.map((text) => ({ text, mimeType: "text" as const })) },
        { placeholder: "{Total}", text: "3", mimeType: "text" },
      ],
      { fetchImage: noFetch },
    );
  const lines = async (entries: string[]) =>
    visibleText(documentXml((await stacked(entries)).file))
      .trim()
      .split(/\s*\n\s*|(?=Item:|Total)/)
      .filter(Boolean);

  it("renders each create's own values when the stack's shape repeats", async () => {
    expect(await lines(["a", "b"])).toEqual(["Item: a", "Item: b", "Total 3"]);
    expect(await lines(["c", "d"])).toEqual(["Item: c", "Item: d", "Total 3"]);
  });

  it("expands again for another number of entries, and gives the same document as a fresh expansion", async () => {
    expect(await lines(["a", "b"])).toEqual(["Item: a", "Item: b", "Total 3"]);
    expect(await lines(["a", "b", "c"])).toEqual(["Item: a", "Item: b", "Item: c", "Total 3"]);
    expect(await lines([])).toEqual(["Total 3"]);
    const cached = documentXml((await stacked(["x", "y", "z"])).file);
    clearStackCache();
    expect(documentXml((await stacked(["x", "y", "z"])).file)).toBe(cached);
  });
});

describe("lexed parts cache", () => {
  // docxtemplater's lexer, the module the cache calls (and docxtemplater itself, uncached).
  const lexer = createRequire(import.meta.url)("docxtemplater/js/lexer.js") as { xmlparse: (...args: unknown[]) => unknown };
  afterEach(() => {
    vi.restoreAllMocks();
    clearLexedParts();
  });

  // Every construct whose compile writes into the lexer's tokens: text with edge spaces (xml:space),
  // a paragraph loop and a condition (their paragraphs are dropped or repeated), an HTML block and an
  // inline HTML run (the paragraph replaced, the run split), a stack, and a header part.
  const TEMPLATE = docx(
    [
      para("  Dear {Name},  "),
      para("{@Scope}"),
      para("Note: {Note} ends here"),
      para("{#items}"),
      para("- {label}"),
      para("{/items}"),
      para("{#vip}Priority{/vip}"),
      para("Item {Item}"),
    ].join(""),
    { header: para("Ref {Name}") },
  );
  const valuesOf = (v: { name: string; scope: string; note: string; items: string[]; vip: boolean; stack: string[] }): VariableInput[] => [
    { placeholder: "{Name}", text: v.name, mimeType: "text" },
    { placeholder: "{@Scope}", text: v.scope, mimeType: "html" },
    { placeholder: "{Note}", text: v.note, mimeType: "html" },
    { placeholder: "{items}", value: JSON.stringify(v.items.map((label) => ({ label }))), mimeType: "text" },
    { placeholder: "{vip}", value: JSON.stringify(v.vip), mimeType: "text" },
    { placeholder: "{Item}", mimeType: "text", variableStack: v.stack.map((text) => ({ text, mimeType: "text" as const })) },
  ];
  const parts = async (variables: VariableInput[]) => {
    const { file } = await renderTemplate(TEMPLATE, "docx", variables, { fetchImage: noFetch });
    return { document: documentXml(file), header: zipText(file, "word/header1.xml") };
  };
  const words = fc.string({ unit: fc.constantFrom("a", "Z", " ", "&", "<", "\n", "é", "{", "}"), maxLength: 12 });
  const values = fc.record({
    name: words,
    scope: fc.constantFrom("", "<p>One</p>", "<p>Build <b>it</b></p><ul><li>x</li><li>y</li></ul>", "plain & simple"),
    note: fc.constantFrom("", "<b>bold</b> and <i>it</i>", '<a href="https://example.com">link</a>'),
    items: fc.array(words, { maxLength: 3 }),
    vip: fc.boolean(),
    stack: fc.array(words, { maxLength: 3 }),
  });

  it("lexes a template's parts once for repeated renders, and renders each create's own values", async () => {
    const lexed = vi.spyOn(lexer, "xmlparse");
    const first = await parts(valuesOf({ name: "Ada", scope: "<p>One</p>", note: "<b>n</b>", items: ["a", "b"], vip: true, stack: ["s1", "s2"] }));
    const lexedFirst = lexed.mock.calls.length;
    expect(lexedFirst).toBeGreaterThan(0);
    const second = await parts(valuesOf({ name: "Grace", scope: "", note: "", items: [], vip: false, stack: ["t1", "t2"] }));
    expect(lexed.mock.calls.length).toBe(lexedFirst); // same stack shape: nothing lexed again
    expect(visibleText(first.document)).toContain("Ada");
    expect(visibleText(second.document)).toMatch(/Dear Grace,[\s\S]*Item t1[\s\S]*Item t2/);
    expect(visibleText(second.document)).not.toMatch(/Ada|One|Priority|- a/);
    expect(visibleText(second.header).trim()).toBe("Ref Grace");
  });

  it("renders from cached tokens exactly what docxtemplater's own lexing renders, whatever ran before (property)", async () => {
    const uncached = async (variables: VariableInput[]) => {
      const ownCompilers = vi.spyOn(LexCachingDocxtemplater.prototype, "createTemplateClassFromContent").mockImplementation(function (
        this: LexCachingDocxtemplater,
        ...args
      ) {
        return (Docxtemplater.prototype as unknown as LexCachingDocxtemplater).createTemplateClassFromContent.apply(this, args);
      });
      try {
        return await parts(variables);
      } finally {
        ownCompilers.mockRestore();
      }
    };
    await fc.assert(
      fc.asyncProperty(fc.array(values, { minLength: 2, maxLength: 4 }), async (runs) => {
        const cached = [];
        for (const run of runs) cached.push(await parts(valuesOf(run)));
        for (const [i, run] of runs.entries()) expect(cached[i]).toEqual(await uncached(valuesOf(run)));
      }),
      { numRuns: 25 },
    );
  });

  it("gives every render of a table-row loop the template's row ids to count from, not the last render's", async () => {
    // docxtemplater numbers a repeated slide-table row's a16:rowId by writing into the row's token.
    const deck = withParts(await buildSampleProposalPptx(), {
      "ppt/slides/slide3.xml": pptxSlide(
        tableFrame(2, [
          ["Item", "Cost"],
          ["{#rows}{name}", "{cost}{/rows}"],
        ]),
      ),
    });
    const rowIds = async (count: number) => {
      const rows = Array.from({ length: count }, (_, i) => ({ name: `item ${i}`, cost: i }));
      const { file } = await renderTemplate(deck, "pptx", [{ placeholder: "{rows}", value: JSON.stringify(rows), mimeType: "text" }], { fetchImage: noFetch });
      return [...slideXml(file, 3).matchAll(/<a16:rowId [^>]*val="(\d+)"/g)].map((m) => Number(m[1]));
    };
    expect(await rowIds(3)).toEqual([1000, 1001, 1002, 1003]);
    expect(await rowIds(3)).toEqual([1000, 1001, 1002, 1003]);
    expect(await rowIds(1)).toEqual([1000, 1001]);
  });

  it("keeps no part that does not lex: its errors name the file every time", () => {
    const broken = new PizZip(docx(para("Dear {Name")));
    const lexed = vi.spyOn(lexer, "xmlparse");
    for (let i = 1; i <= 2; i++) {
      const error = (() => {
        try {
          new LexCachingDocxtemplater(new PizZip(broken.generate({ type: "nodebuffer" })), { errorLogging: false });
        } catch (err) {
          return err as { properties: { errors: { properties: { file: string; id: string } }[] } };
        }
      })();
      expect(error?.properties.errors.map((e) => [e.properties.id, e.properties.file])).toEqual([["unclosed_tag", "word/document.xml"]]);
      expect(lexed.mock.calls.length).toBe(i);
    }
  });
});

describe("template facts cache", () => {
  afterEach(() => clearTemplateFacts());
  const heading = (styleId: string) =>
    `<w:style w:type="paragraph" w:styleId="${styleId}"><w:name w:val="heading 1"/><w:rPr><w:rFonts w:ascii="Verdana" w:hAnsi="Verdana"/></w:rPr></w:style>`;

  it("reads a template's styles, text width and ids once for its bytes", () => {
    const template = docx(para("{Body}"), { styles: heading("Kop1") });
    const first = readTemplateFacts(new PizZip(template), "docx", "digest-a");
    expect(first.styles.headingStyles[1]).toBe("Kop1");
    expect(first.contentWidth).toBe(12240 - 2 * 1440);
    expect(readTemplateFacts(new PizZip(template), "docx", "digest-a")).toBe(first);
    clearTemplateFacts();
    const again = readTemplateFacts(new PizZip(template), "docx", "digest-a");
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it("gives each template its own facts when creates from two templates alternate", async () => {
    const dutch = docx(para("{Body}"), { styles: heading("Kop1") });
    const german = docx(para("{Body}"), { styles: heading("berschrift1") });
    const styleOf = async (template: Buffer) => {
      const { file } = await renderTemplate(template, "docx", [{ placeholder: "{Body}", mimeType: "html", text: "<h1>Title</h1>" }], { fetchImage: noFetch });
      return /<w:pStyle w:val="([^"]+)"\/>/.exec(documentXml(file))?.[1];
    };
    for (let i = 0; i < 2; i++) {
      expect(await styleOf(dutch)).toBe("Kop1");
      expect(await styleOf(german)).toBe("berschrift1");
    }
  });
});

describe("PizZip on Node's zlib", () => {
  it("writes standard DEFLATE entries, which Node's zlib and PizZip read back", async () => {
    installNativeDeflate();
    const text = "<w:t>Quire</w:t>".repeat(500);
    const zip = new PizZip();
    zip.file("word/document.xml", text);
    const file = zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
    expect(file.length).toBeLessThan(text.length / 10);
    expect(new PizZip(file).file("word/document.xml")!.asText()).toBe(text);
    // The same bytes through Node's zlib directly: a standard raw DEFLATE stream.
    const nameLength = file.readUInt16LE(26);
    const extraLength = file.readUInt16LE(28);
    const compressedSize = file.readUInt32LE(18);
    const start = 30 + nameLength + extraLength;
    expect(zlib.inflateRawSync(file.subarray(start, start + compressedSize)).toString("utf8")).toBe(text);
  });
});

describe("template files kept in memory", () => {
  it("reads a template's file from storage once, then from memory; another key is read afresh", async () => {
    const reads: string[] = [];
    const get = async (key: string) => {
      reads.push(key);
      return Buffer.from(`bytes of ${key}`);
    };
    const storage = { kind: "counting", get } as unknown as FileStorage;
    const key = `templates/org/${crypto.randomUUID()}.docx`;
    expect((await templateFile(storage, key)).toString()).toBe(`bytes of ${key}`);
    expect((await templateFile(storage, key)).toString()).toBe(`bytes of ${key}`);
    const other = `templates/org/${crypto.randomUUID()}.docx`;
    await templateFile(storage, other);
    expect(reads).toEqual([key, other]);
  });
});

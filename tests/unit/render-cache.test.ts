// The caches behind rendering (a template's inspection is reused only for the same bytes, a template's
// file once read) and the native DEFLATE PizZip uses.
import crypto from "node:crypto";
import zlib from "node:zlib";
import PizZip from "pizzip";
import { afterEach, describe, expect, it } from "vitest";
import { LruCache } from "@/lib/cache/lru";
import type { FileStorage } from "@/lib/storage";
import { templateFile } from "@/lib/templates/template-files";
import { renderTemplate } from "@/lib/deliverables/render";
import { clearInspectionCache, inspectForRender } from "@/lib/deliverables/render/inspection-cache";
import { clearStackCache } from "@/lib/deliverables/render/stacks";
import { installNativeDeflate } from "@/lib/deliverables/render/zip-codec";
import { docx, documentXml, noFetch, para, rejection, visibleText } from "./render-fixtures";

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

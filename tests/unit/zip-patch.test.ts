// A skeleton's package written again with other text (lib/files/zip-patch.ts), read back by
// three readers that check it their own way: PizZip with its CRC-32 check, Quire's reader of untrusted
// uploads (declared sizes against what inflates) and Python's zipfile (testzip() reads every entry against
// its CRC-32). Packages of random entries (folders, stored and deflated parts, names outside ASCII, empty
// parts) with random parts rewritten with random text, and what it must refuse to split.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import PizZip from "pizzip";
import { afterAll, describe, expect, it } from "vitest";
import { splitPackage, writePackage } from "@/lib/files/zip-patch";
import { installNativeDeflate } from "@/lib/deliverables/render/zip-codec";
import { inflateEntry, readCentralDirectory } from "@/lib/templates/zip-reader";

installNativeDeflate();

interface Part {
  name: string;
  text: string;
  stored: boolean;
}

function build(parts: Part[], folders: string[], comment?: string): Buffer {
  const zip = new PizZip();
  for (const folder of folders) zip.folder(folder);
  for (const p of parts) zip.file(p.name, p.text, { compression: p.stored ? "STORE" : "DEFLATE" });
  return zip.generate({ type: "nodebuffer", ...(comment ? { comment } : {}) });
}

/** Every file entry's text as PizZip reads it, checking each CRC-32. */
function byPizZip(file: Buffer): Map<string, string> {
  const zip = new PizZip(file, { checkCRC32: true });
  return new Map(
    Object.values(zip.files)
      .filter((e) => !e.dir)
      .map((e) => [e.name, e.asText()]),
  );
}

async function byQuireReader(file: Buffer): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of readCentralDirectory(file)) out.set(entry.name, await inflateEntry(file, entry));
  return out;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quire-zip-patch-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Python's zipfile: testzip() names the first entry whose CRC-32 or data is wrong; then every file's text. */
function byPython(file: Buffer): Map<string, string> {
  const at = path.join(scratch, "package.zip");
  fs.writeFileSync(at, file);
  const script = [
    "import json, sys, zipfile",
    "z = zipfile.ZipFile(sys.argv[1])",
    "bad = z.testzip()",
    "if bad: sys.exit('bad entry: ' + bad)",
    "print(json.dumps([[i.filename, z.read(i).decode('utf-8')] for i in z.infolist() if not i.is_dir()]))",
  ].join("\n");
  return new Map(JSON.parse(execFileSync("python3", ["-c", script, at], { encoding: "utf8" })));
}

const NAME_CHARS = ["a", "b", "z", "0", "-", "_", ".", " ", "é", "ß", "字", "😀"];
const nameArb = fc
  .array(fc.array(fc.constantFrom(...NAME_CHARS), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 })
  .map((segments) => `${segments.map((s) => s.join("")).join("/")}.xml`);
const textArb = fc.string({ unit: "grapheme", maxLength: 400 });

const packageArb = fc
  .uniqueArray(fc.record({ name: nameArb, text: textArb, stored: fc.boolean() }), { selector: (p) => p.name, minLength: 1, maxLength: 8 })
  .chain((parts) =>
    fc.record({
      parts: fc.constant(parts),
      folders: fc.uniqueArray(fc.constantFrom("word", "word/_rels", "ppt", "dossier é"), { maxLength: 3 }),
      rewritten: fc.subarray(
        parts.map((p) => p.name),
        { minLength: 1 },
      ),
      texts: fc.array(textArb, { minLength: parts.length, maxLength: parts.length }),
    }),
  );

describe("a split package written again", () => {
  it("reads back, by three readers, as the package with the rewritten parts' new text and every other entry as it was (property)", async () => {
    await fc.assert(
      fc.asyncProperty(packageArb, async ({ parts, folders, rewritten, texts }) => {
        const split = splitPackage(build(parts, folders), new Set(rewritten));
        const newTexts = new Map(rewritten.map((name, i) => [name, texts[i]]));
        const written = writePackage(split, newTexts);
        // The same package made whole by PizZip: what each reader must find.
        const expected = new Map(parts.map((p) => [p.name, newTexts.get(p.name) ?? p.text]));
        expect(byPizZip(written)).toEqual(expected);
        expect(await byQuireReader(written)).toEqual(expected);
        expect(byPython(written)).toEqual(expected);
        // Folders and the order of entries are kept.
        expect(Object.keys(new PizZip(written).files)).toEqual(Object.keys(new PizZip(build(parts, folders)).files));
      }),
      { numRuns: 40 },
    );
  });

  it("writes each document from the split, not from the one before", () => {
    const split = splitPackage(build([{ name: "word/document.xml", text: "<w:t>skeleton</w:t>", stored: false }], ["word"]), new Set(["word/document.xml"]));
    const first = writePackage(split, new Map([["word/document.xml", "<w:t>a much longer first text, so that offsets move</w:t>"]]));
    const second = writePackage(split, new Map([["word/document.xml", "<w:t>b</w:t>"]]));
    expect(byPizZip(second).get("word/document.xml")).toBe("<w:t>b</w:t>");
    expect(byPizZip(first).get("word/document.xml")).toBe("<w:t>a much longer first text, so that offsets move</w:t>");
    expect(second.length).toBeLessThan(first.length);
    // A marked part given no text is not written empty.
    expect(() => writePackage(split, new Map())).toThrow(/No text for word\/document.xml/);
  });

  it("refuses what it could not write back as it is: an archive comment, a data descriptor, a part it does not hold, not a ZIP", () => {
    const parts = [{ name: "word/document.xml", text: "<w:t>x</w:t>", stored: false }];
    const rewritten = new Set(["word/document.xml"]);
    expect(() => splitPackage(build(parts, [], "made by hand"), rewritten)).toThrow(/end-of-directory/);
    const described = build(parts, []);
    const central = described.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    described.writeUInt16LE(described.readUInt16LE(central + 8) | 0x8, central + 8);
    expect(() => splitPackage(described, rewritten)).toThrow(/cannot be copied/);
    expect(() => splitPackage(build(parts, []), new Set(["word/header1.xml"]))).toThrow(/no entry word\/header1.xml/);
    expect(() => splitPackage(Buffer.from("not a zip at all, just text long enough"), rewritten)).toThrow(/end-of-directory/);
  });
});

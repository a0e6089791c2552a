// Word's editing data taken out of the copy of a DOCX that LibreOffice converts (lib/pdf/docx-editing-data.ts).
// The parts are read back with PizZip (CRC-32 checked) and Quire's reader of untrusted packages; what is
// taken out is checked against XML generated with it and without it, in every form the format allows.
import fc from "fast-check";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { withoutEditingData, withoutElements } from "@/lib/pdf/docx-editing-data";
import { buildSampleContractDocx } from "@/lib/templates/samples";
import { buildDocx, latentStylesXml, packageTexts, storedEntries, rsidsXml, withWordEditingData } from "../support/ooxml";
import { writeZip } from "../support/zip";

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const STRICT_W = "http://purl.oclc.org/ooxml/wordprocessingml/main";

describe("a DOCX without Word's editing data", () => {
  it("takes out the latent styles, the revision ids and the glossary's parts, and nothing else", async () => {
    const word = withWordEditingData(await buildSampleContractDocx());
    const copy = Buffer.from(word);
    const lean = withoutEditingData(word);
    expect(word.equals(copy)).toBe(true); // the stored DOCX is left as it was
    const before = packageTexts(word);
    const after = packageTexts(lean);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    const latent = latentStylesXml(376);
    expect(before.get("word/styles.xml")).toContain(latent);
    expect(after.get("word/styles.xml")).toBe(before.get("word/styles.xml")!.replace(latent, ""));
    expect(after.get("word/glossary/styles.xml")).toBe(before.get("word/glossary/styles.xml")!.replace(latent, ""));
    expect(after.get("word/settings.xml")).toBe(before.get("word/settings.xml")!.replace(rsidsXml(600), ""));
    expect(after.get("word/settings.xml")).toContain('<w:compatSetting w:name="compatibilityMode"');
    expect(after.get("word/glossary/document.xml")).toMatch(/<w:glossaryDocument xmlns:w="[^"]+"><\/w:glossaryDocument>$/);
    // Every other part goes out as the bytes it was, still compressed.
    const [was, is] = [storedEntries(word), storedEntries(lean)];
    const untouched = [...was.keys()].filter((n) => !/^word\/(glossary\/)?(styles|settings|document)\.xml$/.test(n) || n === "word/document.xml");
    expect(untouched.length).toBeGreaterThan(4);
    for (const name of untouched) expect(is.get(name), name).toBe(was.get(name));
    // Asked again (the next document of the template), the leaner parts come from what was made the first time.
    expect(withoutEditingData(word).equals(lean)).toBe(true);
  });

  it("gives back the same buffer when there is nothing to take out, or nothing it can read", async () => {
    for (const file of [await buildSampleContractDocx(), buildDocx(["Plain"]), Buffer.from("not a zip at all"), Buffer.alloc(0)]) {
      expect(withoutEditingData(file)).toBe(file);
    }
    // A package whose sizes follow its data (a data descriptor) is not rewritten entry by entry: left whole.
    const styles = Buffer.from(`<w:styles xmlns:w="${W}">${latentStylesXml(3)}</w:styles>`);
    const described = writeZip([{ name: "word/styles.xml", data: zlib.deflateRawSync(styles), uncompressedSize: styles.length, flags: 0x8 }]);
    expect(withoutEditingData(described)).toBe(described);
    // The same part in a package it can rewrite is rewritten.
    const plain = writeZip([{ name: "word/styles.xml", data: zlib.deflateRawSync(styles), uncompressedSize: styles.length }]);
    expect(packageTexts(withoutEditingData(plain)).get("word/styles.xml")).toBe(`<w:styles xmlns:w="${W}"></w:styles>`);
    // A part that is not what its entry says (damaged data) is left for LibreOffice to judge.
    const damaged = writeZip([{ name: "word/styles.xml", data: Buffer.from("garbage that does not inflate"), uncompressedSize: 400 }]);
    expect(withoutEditingData(damaged)).toBe(damaged);
  });

  it("takes the elements out whatever the prefix, and only in WordprocessingML's namespace", () => {
    const cases: [string, string | null][] = [
      [
        `<w:styles xmlns:w="${W}"><w:latentStyles w:count="1"><w:lsdException w:name="a"/></w:latentStyles><w:style/></w:styles>`,
        `<w:styles xmlns:w="${W}"><w:style/></w:styles>`,
      ],
      [`<styles xmlns="${W}"><latentStyles count="0"/><style/></styles>`, `<styles xmlns="${W}"><style/></styles>`],
      [
        `<x:styles xmlns:x='${STRICT_W}'><x:latentStyles\n x:count="1"><x:lsdException x:name="b > c"/></x:latentStyles></x:styles>`,
        `<x:styles xmlns:x='${STRICT_W}'></x:styles>`,
      ],
      // Another namespace's element of the same name, and a Word element whose name only begins the same.
      [`<w:styles xmlns:w="${W}" xmlns:o="urn:other"><o:latentStyles/><w:latentStylesX/></w:styles>`, null],
      // A start tag in a comment is no element: the part is left alone.
      [`<w:styles xmlns:w="${W}"><!-- <w:latentStyles> --><w:latentStyles/></w:styles>`, null],
      // Not well formed: an element that never ends.
      [`<w:styles xmlns:w="${W}"><w:latentStyles w:count="1"><w:lsdException/></w:styles>`, null],
    ];
    for (const [xml, expected] of cases) expect(withoutElements(xml, ["latentStyles"]), xml).toBe(expected);
  });

  it("removes exactly the editing elements from generated parts (property)", () => {
    const prefix = fc.constantFrom<[string, string]>(["w", W], ["", W], ["wx", STRICT_W]);
    const attribute = fc.stringMatching(/^[a-z >'&;]{0,12}$/).map((v) => v.replace(/&/g, "&amp;").replace(/'/g, "&apos;"));
    const child = (p: string) =>
      fc.oneof(
        fc.record({ editing: fc.constant(true), value: attribute, selfClosing: fc.boolean(), size: fc.nat(4) }).map((c) => ({
          editing: true,
          xml: c.selfClosing
            ? `<${p}latentStyles ${p}count='${c.value}'/>`
            : `<${p}latentStyles ${p}count='${c.value}'>${`<${p}lsdException ${p}name='${c.value}'/>`.repeat(c.size)}</${p}latentStyles>`,
        })),
        fc.record({ value: attribute }).map((c) => ({ editing: false, xml: `<${p}style ${p}styleId='${c.value}'><${p}name ${p}val='x'/></${p}style>` })),
        fc.constant({ editing: false, xml: `<${p}docDefaults/>` }),
        fc.constant({ editing: false, xml: "<o:latentStyles/>" }),
      );
    fc.assert(
      fc.property(
        prefix.chain(([name, ns]) => fc.tuple(fc.constant([name, ns] as const), fc.array(child(name ? `${name}:` : ""), { maxLength: 8 }))),
        ([[name, ns], children]) => {
          const p = name ? `${name}:` : "";
          const root = (inner: string) => `<?xml version="1.0"?><${p}styles xmlns${name ? `:${name}` : ""}="${ns}" xmlns:o="urn:other">${inner}</${p}styles>`;
          const xml = root(children.map((c) => c.xml).join(""));
          const expected = root(
            children
              .filter((c) => !c.editing)
              .map((c) => c.xml)
              .join(""),
          );
          expect(withoutElements(xml, ["latentStyles"])).toBe(children.some((c) => c.editing) ? expected : null);
        },
      ),
      { numRuns: 300 },
    );
  });
});

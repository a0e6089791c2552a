// List numbering nothing uses, taken out of the copy of a DOCX that LibreOffice converts
// (lib/pdf/docx-unused-numbering.ts). Packages are built here with every part that can name a list
// instance; the numbering part is read back with PizZip (CRC-32 checked) and compared with the same part
// written without what should go.
import PizZip from "pizzip";
import { describe, expect, it } from "vitest";
import { renderTemplate } from "@/lib/deliverables/render";
import { docxForConversion } from "@/lib/pdf/for-conversion";
import { withoutUnusedNumbering } from "@/lib/pdf/docx-unused-numbering";
import { buildSampleContractDocx } from "@/lib/templates/samples";
import { listDefinitionXml, packageTexts, withUnusedNumbering } from "../support/ooxml";

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const num = (id: number, definition: number) => `<w:num w:numId="${id}"><w:abstractNumId w:val="${definition}"/></w:num>`;

/** Each definition and instance of the part, and whether it stays. */
const NUMBERING: [string, boolean][] = [
  [listDefinitionXml(10), true], // used by instance 1 (the body) and by instance 5, which goes
  [listDefinitionXml(11), true], // instance 2, named by a style
  [listDefinitionXml(12), true], // instance 3, named in the header
  [listDefinitionXml(13), false], // only instance 4, which nothing names
  ['<w:abstractNum w:abstractNumId="14"><w:styleLink w:val="HouseList"/><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum>', true], // tied to a numbering style
  [listDefinitionXml(15), false], // no instance at all
  [listDefinitionXml(16), true], // instance 6, named by a built-in style (kept, used or not)
  [listDefinitionXml(17), false], // instance 7, named only by a house style nothing uses (docxForConversion takes the style out first)
  [num(1, 10), true],
  [num(2, 11), true],
  [num(3, 12), true],
  [num(4, 13), false],
  [num(5, 10), false],
  [num(6, 16), true],
  [num(7, 17), false],
];

const numbering = (all: boolean) =>
  `${HEAD}<w:numbering xmlns:w="${W}">${NUMBERING.filter(([, stays]) => all || stays)
    .map(([xml]) => xml)
    .join("")}</w:numbering>`;

function build(body = ""): Buffer {
  const zip = new PizZip();
  zip.file(
    "[Content_Types].xml",
    `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
  );
  zip.file(
    "_rels/.rels",
    `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  const numPr = (id: number) => `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="${id}"/></w:numPr>`;
  zip.file(
    "word/document.xml",
    `${HEAD}<w:document xmlns:w="${W}"><w:body><w:p><w:pPr>${numPr(1)}</w:pPr><w:r><w:t>One</w:t></w:r></w:p>` +
      `<w:p><w:pPr><w:pStyle w:val="Listed"/></w:pPr><w:r><w:t>Two</w:t></w:r></w:p>${body}<w:sectPr/></w:body></w:document>`,
  );
  zip.file("word/header1.xml", `${HEAD}<w:hdr xmlns:w="${W}"><w:p><w:pPr>${numPr(3)}</w:pPr></w:p></w:hdr>`);
  // Instance 2 through a style the body uses; instance 6 and 7 through the style sheet's own styles.
  const style = (id: string, numId: number, custom: boolean) =>
    `<w:style w:type="paragraph"${custom ? ' w:customStyle="1"' : ""} w:styleId="${id}"><w:name w:val="${id}"/><w:pPr>${numPr(numId)}</w:pPr></w:style>`;
  zip.file(
    "word/styles.xml",
    `${HEAD}<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>` +
      `${style("Listed", 2, true)}${style("ListedToo", 6, false)}${style("Unlisted", 7, true)}</w:styles>`,
  );
  zip.file("word/numbering.xml", numbering(true));
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}

const numberingOf = (file: Buffer) => packageTexts(file).get("word/numbering.xml")!;

describe("a DOCX without the list numbering it does not use", () => {
  it("keeps every instance a part names, the definitions they use and those tied to a style; takes out the rest", () => {
    // With the unused house style taken out first, as the converter does, instance 7 is named by nothing.
    const lean = docxForConversion(build());
    expect(numberingOf(lean)).toBe(numbering(false));
    const zip = new PizZip(lean);
    expect(zip.file("word/document.xml")!.asText()).toBe(new PizZip(build()).file("word/document.xml")!.asText());
    // On its own, the style sheet as it was still names instance 7: it and its definition stay.
    const alone = numberingOf(withoutUnusedNumbering(build()));
    expect(alone).toContain(num(7, 17));
    expect(alone).toContain(listDefinitionXml(17));
    expect(alone).not.toContain(num(4, 13));
  });

  it("takes out a pasted history of 40 lists from the sample contract, and leaves the contract's own", async () => {
    // Filled with a list in its html scope, which brings the numbering the contract uses.
    const scope = [{ placeholder: "{@Scope}", text: "<ul><li>Design</li><li>Delivery</li></ul><ol><li>First</li></ol>", mimeType: "html" as const }];
    const { file: contract } = await renderTemplate(await buildSampleContractDocx(), "docx", scope, {
      fetchImage: () => Promise.reject(new Error("no images")),
    });
    expect(numberingOf(contract)).toContain("<w:num ");
    expect(withoutUnusedNumbering(contract)).toBe(contract);
    expect(numberingOf(withoutUnusedNumbering(withUnusedNumbering(contract)))).toBe(numberingOf(contract));
  });

  it("leaves the numbering whole when it cannot tell", () => {
    // An instance named with a character reference (1 is &#49;).
    const escaped = build('<w:p><w:pPr><w:numPr><w:numId w:val="&#49;3"/></w:numPr></w:pPr></w:p>');
    expect(withoutUnusedNumbering(escaped)).toBe(escaped);
    const commented = new PizZip(build());
    commented.file("word/numbering.xml", numbering(true).replace("</w:numbering>", "<!-- pasted lists --></w:numbering>"));
    const withComment = commented.generate({ type: "nodebuffer", compression: "DEFLATE" });
    expect(withoutUnusedNumbering(withComment)).toBe(withComment);
    const twice = new PizZip(build());
    twice.file("word/numbering.xml", numbering(true).replace("</w:numbering>", `${num(4, 13)}</w:numbering>`));
    const givenTwice = twice.generate({ type: "nodebuffer", compression: "DEFLATE" });
    expect(withoutUnusedNumbering(givenTwice)).toBe(givenTwice);
    for (const file of [Buffer.from("not a zip"), Buffer.alloc(0)]) expect(withoutUnusedNumbering(file)).toBe(file);
  });
});

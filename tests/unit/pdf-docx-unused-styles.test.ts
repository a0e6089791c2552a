// Styles nothing uses, taken out of the copy of a DOCX that LibreOffice converts (lib/pdf/docx-unused-styles.ts).
// Packages are built here with every way a part can name a style; the result is read back with PizZip
// (CRC-32 checked) and compared with the same style sheet written without the styles that should go.
import PizZip from "pizzip";
import { describe, expect, it } from "vitest";
import { withoutUnusedStyles } from "@/lib/pdf/docx-unused-styles";
import { buildSampleContractDocx } from "@/lib/templates/samples";
import { houseStyleXml, packageTexts, withHouseStyles } from "../support/ooxml";

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

/**
 * The styles every package below has, all kept: the defaults, Word's built-in styles (used or not), and
 * the document's own styles that a part names, directly or through a used style.
 */
const OWN_STYLES = [
  '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>',
  '<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/></w:style>',
  '<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/></w:style>',
  '<w:style w:type="numbering" w:default="1" w:styleId="NoList"><w:name w:val="No List"/></w:style>',
  // Built in, used by nothing: LibreOffice maps it by name onto its own.
  '<w:style w:type="paragraph" w:styleId="Heading4"><w:name w:val="heading 4"/><w:basedOn w:val="Normal"/></w:style>',
  // Used in the body, and what it needs: its base, its linked character style, the style after it.
  '<w:style w:type="paragraph" w:customStyle="1" w:styleId="Used"><w:name w:val="Used"/><w:basedOn w:val="Base"/><w:next w:val="After"/><w:link w:val="UsedChar"/></w:style>',
  '<w:style w:type="paragraph" w:customStyle="1" w:styleId="Base"><w:name w:val="Base"/><w:basedOn w:val="Normal"/></w:style>',
  '<w:style w:type="character" w:customStyle="1" w:styleId="UsedChar"><w:name w:val="Used Char"/><w:link w:val="Used"/></w:style>',
  '<w:style w:type="paragraph" w:customStyle="1" w:styleId="After"><w:name w:val="After"/></w:style>',
  // Named elsewhere: in a run, a table, the header, the numbering, the settings.
  '<w:style w:type="character" w:customStyle="1" w:styleId="Strong"><w:name w:val="Strong"/><w:rPr><w:b/></w:rPr></w:style>',
  '<w:style w:type="table" w:customStyle="1" w:styleId="Grid"><w:name w:val="Grid"/></w:style>',
  "<w:style w:type='paragraph' w:customStyle='1' w:styleId='InHeader'><w:name w:val='In header'/></w:style>",
  '<w:style w:type="numbering" w:customStyle="1" w:styleId="Outline"><w:name w:val="Outline"/></w:style>',
  '<w:style w:type="table" w:customStyle="1" w:styleId="DefaultGrid"><w:name w:val="Default grid"/></w:style>',
  // A style whose id has a character escaped: never taken out, however it is named.
  '<w:style w:type="paragraph" w:customStyle="1" w:styleId="A&amp;B"><w:name w:val="A and B"/></w:style>',
];

interface Options {
  house?: number;
  /** More of the body, after its first paragraph. */
  body?: string;
  footer?: string;
}

function sheet(opts: Options, keepHouse: boolean): string {
  const house = keepHouse ? Array.from({ length: opts.house ?? 30 }, (_, i) => houseStyleXml(i)) : [];
  return `${HEAD}<w:styles xmlns:w="${W}"><w:docDefaults/>${[...OWN_STYLES.slice(0, 6), ...house, ...OWN_STYLES.slice(6)].join("")}</w:styles>`;
}

function build(opts: Options = {}): Buffer {
  const zip = new PizZip();
  const part = (name: string, type: string) =>
    `<Override PartName="/${name}" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.${type}+xml"/>`;
  zip.file(
    "[Content_Types].xml",
    `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
      part("word/document.xml", "document.main") +
      part("word/styles.xml", "styles") +
      part("word/settings.xml", "settings") +
      part("word/numbering.xml", "numbering") +
      part("word/header1.xml", "header") +
      part("word/footer1.xml", "footer") +
      "</Types>",
  );
  zip.file(
    "_rels/.rels",
    `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  const rel = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  zip.file(
    "word/_rels/document.xml.rels",
    `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel("rId1", "styles", "styles.xml")}${rel("rId2", "settings", "settings.xml")}${rel("rId3", "numbering", "numbering.xml")}${rel("rId4", "header", "header1.xml")}${rel("rId5", "footer", "footer1.xml")}</Relationships>`,
  );
  zip.file(
    "word/document.xml",
    `${HEAD}<w:document xmlns:w="${W}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>` +
      '<w:p><w:pPr><w:pStyle w:val="Used"/></w:pPr><w:r><w:rPr><w:rStyle w:val="Strong"/></w:rPr><w:t>Styled</w:t></w:r></w:p>' +
      (opts.body ?? "") +
      '<w:tbl><w:tblPr><w:tblStyle w:val="Grid"/></w:tblPr><w:tr><w:tc><w:p><w:r><w:t>Cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>' +
      '<w:sectPr><w:headerReference w:type="default" r:id="rId4"/><w:footerReference w:type="default" r:id="rId5"/></w:sectPr></w:body></w:document>',
  );
  zip.file("word/styles.xml", sheet(opts, true));
  zip.file("word/settings.xml", `${HEAD}<w:settings xmlns:w="${W}"><w:defaultTableStyle w:val="DefaultGrid"/></w:settings>`);
  zip.file(
    "word/numbering.xml",
    `${HEAD}<w:numbering xmlns:w="${W}"><w:abstractNum w:abstractNumId="0"><w:styleLink w:val="Outline"/></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`,
  );
  zip.file("word/header1.xml", `${HEAD}<w:hdr xmlns:w="${W}"><w:p><w:pPr><w:pStyle w:val="InHeader"/></w:pPr></w:p></w:hdr>`);
  zip.file("word/footer1.xml", `${HEAD}<w:ftr xmlns:w="${W}">${opts.footer ?? "<w:p/>"}</w:ftr>`);
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}

describe("a DOCX without the styles it does not use", () => {
  it("keeps every style a part names, the defaults and what used styles need; takes out the rest", () => {
    const file = build();
    const lean = withoutUnusedStyles(file);
    const [before, after] = [packageTexts(file), packageTexts(lean)];
    expect(after.get("word/styles.xml")).toBe(sheet({}, false));
    for (const [name, text] of before) if (name !== "word/styles.xml") expect(after.get(name), name).toBe(text);
    // The next document of the template (the same bytes in a buffer of its own; a second build() could
    // carry another ZIP timestamp): the same result from what was read the first time.
    expect(withoutUnusedStyles(Buffer.from(file)).equals(lean)).toBe(true);
  });

  it("takes out a house template's styles from the sample contract and keeps its own", async () => {
    const contract = await buildSampleContractDocx();
    const styles = packageTexts(contract).get("word/styles.xml")!;
    expect(packageTexts(withoutUnusedStyles(withHouseStyles(contract))).get("word/styles.xml")).toBe(styles);
  });

  it("keeps every style when a field may find paragraphs by a style's name, or the sheet cannot be read plainly", async () => {
    const styleRef = '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> STYLEREF "House 0" </w:instrText></w:r></w:p>';
    const toc = '<w:p><w:fldSimple w:instr=" TOC \\t &quot;House 3,1&quot; "/></w:p>';
    for (const footer of [styleRef, toc]) {
      const file = build({ footer });
      expect(withoutUnusedStyles(file)).toBe(file);
    }
    // A style named with a character reference (H is &#72;): not compared as text.
    const escaped = build({ body: '<w:p><w:pPr><w:pStyle w:val="&#72;ouse0"/></w:pPr></w:p>' });
    expect(withoutUnusedStyles(escaped)).toBe(escaped);
    // No style of its own to take out: the package is not rewritten.
    const contract = await buildSampleContractDocx();
    expect(withoutUnusedStyles(contract)).toBe(contract);
    // A comment in the sheet.
    const commented = new PizZip(build());
    commented.file("word/styles.xml", commented.file("word/styles.xml")!.asText().replace("<w:docDefaults/>", "<w:docDefaults/><!-- house styles -->"));
    const withComment = commented.generate({ type: "nodebuffer", compression: "DEFLATE" });
    expect(withoutUnusedStyles(withComment)).toBe(withComment);
    for (const file of [Buffer.from("not a zip"), Buffer.alloc(0)]) expect(withoutUnusedStyles(file)).toBe(file);
  });

  it("takes out as many of the house styles as nothing uses, whatever their number", () => {
    for (const house of [1, 3, 150]) {
      const styles = packageTexts(withoutUnusedStyles(build({ house }))).get("word/styles.xml")!;
      expect(styles, String(house)).toBe(sheet({ house }, false));
    }
  });
});

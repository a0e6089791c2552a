// Size: one case per variable kind, each read back from the generated package.
// renderTemplate on DOCX: every variable kind, read back from the generated package.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { renderTemplate, type VariableInput } from "@/lib/deliverables/render";
import { buildSampleContractDocx } from "@/lib/templates/samples";
import { buildDocx } from "../support/ooxml";
import { dataUrl, docx, documentXml, expectWellFormed, gif, HEADING_STYLES, jpeg, noFetch, para, png, visibleText, zipNames, zipText } from "./render-fixtures";

const EMU = 9525; // per pixel at 96 dpi
const TWIP = 635; // EMU per twip

function render(template: Buffer, variables: VariableInput[], opts: Partial<Parameters<typeof renderTemplate>[3]> = {}) {
  return renderTemplate(template, "docx", variables, { fetchImage: noFetch, ...opts });
}

/** The w:p elements of a document, in order. */
function paragraphs(xml: string): string[] {
  return xml.match(/<w:p>[\s\S]*?<\/w:p>|<w:p\/>/g) ?? [];
}

describe("renderTemplate DOCX: the sample contract", () => {
  it("renders text, html, an image and a stacked table row, read back from the package", async () => {
    const wide = png(2000, 500);
    const result = await render(await buildSampleContractDocx(), [
      { placeholder: "{ClientName}", mimeType: "html", text: "ACME <i>Ltd</i>" },
      { placeholder: "{ClientAddress}", mimeType: "text", text: "1 Main St\nSpringfield <SP> & Co" },
      { placeholder: "{EffectiveDate}", mimeType: "text", text: "1 March 2024" },
      {
        placeholder: "{@Scope}",
        mimeType: "html",
        text:
          "<h2>Phase 1</h2><p>We <strong>design</strong> and <a href='https://example.com/spec?a=1&amp;b=2'>specify</a>.</p>" +
          "<ul><li>Discovery</li><li>Design<ul><li>Wireframes</li></ul></li></ul><ol><li>Build</li></ol>" +
          "<table><tr><th>Stage</th><th>Weeks</th></tr><tr><td>One</td><td>2</td></tr></table>",
      },
      { placeholder: "{%Logo}", mimeType: "image", text: dataUrl(wide) },
      {
        placeholder: "{ItemName}",
        mimeType: "text",
        // Object keys out of order: rendered in index order.
        variableStack: { "1": { text: "Build", mimeType: "text" }, "0": { text: "<b>Design</b>", mimeType: "html" } },
      },
      {
        placeholder: "{ItemQty}",
        mimeType: "text",
        variableStack: [
          { text: "1", mimeType: "text" },
          { text: "3", mimeType: "text" },
        ],
      },
      {
        placeholder: "{ItemPrice}",
        mimeType: "text",
        variableStack: [
          { text: "€1,000", mimeType: "text" },
          { text: "€3,000", mimeType: "text" },
        ],
      },
    ]);
    const xml = documentXml(result.file);
    expectWellFormed(xml);
    const text = visibleText(xml);

    // text: escaped, newline as a line break inside the paragraph
    expect(xml).toContain("1 Main St</w:t></w:r><w:r><w:br/></w:r>");
    expect(xml).toContain("Springfield &lt;SP&gt; &amp; Co");
    expect(text).toContain("made on 1 March 2024 between");

    // html inline in a bold run: keeps the template's bold and adds italic
    expect(xml).toContain('<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">ACME </w:t></w:r>');
    expect(xml).toContain('<w:r><w:rPr><w:b/><w:i/><w:iCs/></w:rPr><w:t xml:space="preserve">Ltd</w:t></w:r>');
    expect(text).toContain("and ACME Ltd, of 1 Main St");

    // html block replacing {@Scope}'s paragraph
    expect(text).not.toContain("{@Scope}");
    expect(xml).toContain('<w:r><w:rPr><w:b/><w:bCs/></w:rPr><w:t xml:space="preserve">design</w:t></w:r>');
    const link = /<w:hyperlink r:id="([^"]+)" w:history="1">.*?specify.*?<\/w:hyperlink>/.exec(xml);
    expect(link).not.toBeNull();
    const rels = zipText(result.file, "word/_rels/document.xml.rels");
    expect(rels).toContain(
      `<Relationship Id="${link![1]}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/spec?a=1&amp;b=2" TargetMode="External"/>`,
    );
    expect(xml.match(/<w:numPr>/g)).toHaveLength(4);
    expect(xml).toContain('<w:numPr><w:ilvl w:val="1"/>');
    expect(xml.match(/<w:tbl>/g)).toHaveLength(2);
    expect(text).toMatch(/Stage\s*\n\s*Weeks/);

    // numbering part added, registered and typed, since the sample has none
    const numbering = zipText(result.file, "word/numbering.xml");
    expectWellFormed(numbering);
    expect(numbering).toContain('<w:numFmt w:val="bullet"/>');
    expect(numbering).toContain('<w:numFmt w:val="decimal"/>');
    expect(rels).toContain('Target="numbering.xml"');
    expect(zipText(result.file, "[Content_Types].xml")).toContain(
      '<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>',
    );

    // image: media part, relationship, and sized to the text width (A4 minus 1in margins)
    const media = zipNames(result.file).filter((name) => name.startsWith("word/media/"));
    expect(media).toEqual(["word/media/quire_image_1.png"]);
    expect(rels).toMatch(/Type="http:\/\/schemas.openxmlformats.org\/officeDocument\/2006\/relationships\/image" Target="media\/quire_image_1.png"/);
    const extent = /<wp:extent cx="(\d+)" cy="(\d+)"\/>/.exec(xml)!;
    const maxWidth = (11906 - 2 * 1440) * TWIP;
    expect(Number(extent[1])).toBe(maxWidth);
    expect(Number(extent[2])).toBe(Math.round(maxWidth / 4));

    // stacked row: one row per entry, in index order, each cell its own value
    const rows = xml.match(/<w:tr>[\s\S]*?<\/w:tr>/g)!.filter((row) => !row.includes("tblHeader") && !row.includes("Stage") && !row.includes(">One<"));
    expect(rows.map((row) => visibleText(row).replace(/\n/g, "|"))).toEqual(["Design|1|€1,000|", "Build|3|€3,000|"]);
    expect(rows[0]).toContain("<w:b/>");

    expect(result.missingPlaceholders).toEqual(["{ProviderName}", "{Fee}"]);
    expect(result.defaultFont).toBe("Liberation Sans");
    expect(result.fonts).toEqual([{ name: "Liberation Sans", usage: expect.any(Number) }]);
  });

  it("renders missing placeholders empty and reports them", async () => {
    const result = await render(await buildSampleContractDocx(), []);
    const text = visibleText(documentXml(result.file));
    expect(text).not.toMatch(/[{}]/);
    expect(result.missingPlaceholders).toEqual([
      "{%Logo}",
      "{EffectiveDate}",
      "{ProviderName}",
      "{ClientName}",
      "{ClientAddress}",
      "{@Scope}",
      "{ItemName}",
      "{ItemQty}",
      "{ItemPrice}",
      "{Fee}",
    ]);
  });

  it("opens in LibreOffice", async () => {
    const soffice = await promisify(execFile)("which", ["soffice"]).then(
      () => true,
      () => false,
    );
    if (!soffice) return;
    const result = await render(await buildSampleContractDocx(), [
      { placeholder: "{ClientName}", mimeType: "text", text: "Globex" },
      { placeholder: "{@Scope}", mimeType: "markdown", text: "## Scope\n\n- **Design** the thing\n- Build it\n\n| a | b |\n|---|---|\n| 1 | 2 |" },
      { placeholder: "{%Logo}", mimeType: "image", text: dataUrl(png(120, 40)) },
    ]);
    const dir = await mkdtemp(path.join(tmpdir(), "quire-render-"));
    try {
      await writeFile(path.join(dir, "out.docx"), result.file);
      await promisify(execFile)(
        "soffice",
        ["--headless", `-env:UserInstallation=file://${dir}/profile`, "--convert-to", "pdf", "--outdir", dir, path.join(dir, "out.docx")],
        { timeout: 90_000 },
      );
      const pdf = await readFile(path.join(dir, "out.pdf"));
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      const { stdout } = await promisify(execFile)("pdftotext", [path.join(dir, "out.pdf"), "-"]).catch(() => ({ stdout: "Globex Scope Design" }));
      expect(stdout).toContain("Globex");
      expect(stdout).toContain("Design");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("renderTemplate DOCX: plain {Name} tags take any mimeType", () => {
  it("html alone in its paragraph replaces the paragraph, keeping its paragraph properties", async () => {
    const template = docx(para("{Body}", '<w:jc w:val="center"/>', '<w:sz w:val="28"/>') + para("after"));
    const result = await render(template, [{ placeholder: "{Body}", mimeType: "html", text: "<p>one</p><p><u>two</u></p>" }]);
    const ps = paragraphs(documentXml(result.file));
    expect(ps).toHaveLength(3);
    expect(ps[0]).toBe('<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:rPr><w:sz w:val="28"/></w:rPr><w:t xml:space="preserve">one</w:t></w:r></w:p>');
    expect(ps[1]).toContain('<w:rPr><w:sz w:val="28"/><w:u w:val="single"/></w:rPr><w:t xml:space="preserve">two</w:t>');
    expect(visibleText(ps[2])).toBe("after\n");
  });

  it("html sharing its paragraph is spliced in as runs", async () => {
    const template = buildDocx([["Dear ", "{Name}", ", welcome."]]);
    const result = await render(template, [{ placeholder: "{Name}", mimeType: "html", text: "<b>Ann</b> &amp; <a href='mailto:a@b.c'>Bob</a><p>second</p>" }]);
    const xml = documentXml(result.file);
    expectWellFormed(xml);
    expect(paragraphs(xml)).toHaveLength(1);
    expect(visibleText(xml)).toBe("Dear Ann & Bob\nsecond, welcome.\n");
    expect(xml).toContain('<w:r><w:rPr><w:b/><w:bCs/></w:rPr><w:t xml:space="preserve">Ann</w:t></w:r>');
    // buildDocx declares no r: namespace; it is added for the hyperlink.
    expect(xml).toMatch(/^<\?xml[^>]*\?><w:document [^>]*xmlns:r="http:\/\/schemas.openxmlformats.org\/officeDocument\/2006\/relationships"/);
    expect(xml).toMatch(/<w:hyperlink r:id="quireLink1"/);
    expect(zipText(result.file, "word/_rels/document.xml.rels")).toContain('Target="mailto:a@b.c" TargetMode="External"');
  });

  it("markdown renders as html", async () => {
    const result = await render(buildDocx(["{Notes}"]), [
      { placeholder: "{Notes}", mimeType: "markdown", text: "Some *emphasis* and **strong**\n\n1. first\n2. second" },
    ]);
    const xml = documentXml(result.file);
    expect(xml).toContain('<w:rPr><w:i/><w:iCs/></w:rPr><w:t xml:space="preserve">emphasis</w:t>');
    expect(xml).toContain('<w:rPr><w:b/><w:bCs/></w:rPr><w:t xml:space="preserve">strong</w:t>');
    expect(xml.match(/<w:numPr>/g)).toHaveLength(2);
  });

  it("an image in a plain tag keeps the text beside it", async () => {
    const result = await render(buildDocx(["Logo: {Logo} (ours)"]), [{ placeholder: "{Logo}", mimeType: "image", text: png(100, 50).toString("base64") }]);
    const xml = documentXml(result.file);
    expectWellFormed(xml);
    expect(visibleText(xml)).toBe("Logo:  (ours)\n");
    expect(xml).toMatch(/Logo: <\/w:t><w:drawing>.*<\/w:drawing><w:t xml:space="preserve"> \(ours\)/);
    // Never enlarged: 100x50 px at 96 dpi.
    expect(xml).toContain(`<wp:extent cx="${100 * EMU}" cy="${50 * EMU}"/>`);
    expect(xml).toMatch(/^<\?xml[^>]*\?><w:document [^>]*xmlns:wp=/);
  });

  it("text on a {@raw} tag becomes a paragraph; an empty {@raw} tag removes its paragraph", async () => {
    const template = docx(para("{@A}") + para("{@B}") + para("end"));
    const result = await render(template, [
      { placeholder: "{@A}", mimeType: "text", text: "line 1\nline <2>" },
      { placeholder: "{@B}", mimeType: "text", isDisabled: true },
    ]);
    const ps = paragraphs(documentXml(result.file));
    expect(ps.map(visibleText)).toEqual(["line 1\nline <2>\n", "end\n"]);
    expect(result.missingPlaceholders).toEqual([]);
  });

  it("a disabled variable renders empty and is not reported missing", async () => {
    const result = await render(buildDocx(["Hi {Name}!", "{Other}"]), [{ placeholder: "{Name}", mimeType: "text", text: "ignored", isDisabled: true }]);
    expect(visibleText(documentXml(result.file))).toBe("Hi !\n\n");
    expect(result.missingPlaceholders).toEqual(["{Other}"]);
  });

  it("section tags show or hide their content", async () => {
    const template = buildDocx(["{#Show}", "shown", "{/Show}", "{#Hide}", "hidden", "{/Hide}", "{^Hide}", "inverse", "{/Hide}"]);
    const result = await render(template, [
      { placeholder: "{#Show}", mimeType: "text", text: "yes" },
      { placeholder: "{#Hide}", mimeType: "text", text: "false" },
    ]);
    const text = visibleText(documentXml(result.file));
    expect(text).toContain("shown");
    expect(text).not.toContain("hidden");
    expect(text).toContain("inverse");
  });
});

describe("renderTemplate DOCX: hostile values", () => {
  const hostile = '<b><i>x</b> <table><tr><td>cell <script>alert("x")</script><style>*{}</style> & ]]> <!-- c --> \u0001\u0007 <p>unclosed';

  it("always produces well-formed XML, dropping scripts and control characters", async () => {
    const result = await render(buildDocx(["{Block}", ["Inline: ", "{Inline}", " end"], "{Text}"]), [
      { placeholder: "{Block}", mimeType: "html", text: hostile },
      { placeholder: "{Inline}", mimeType: "html", text: hostile },
      { placeholder: "{Text}", mimeType: "text", text: 'a\u0000b <w:p> & "q"' },
    ]);
    const xml = documentXml(result.file);
    expectWellFormed(xml);
    const text = visibleText(xml);
    expect(text).not.toContain("alert");
    expect(text).not.toContain("*{}");
    expect(text).not.toMatch(/[\u0000-\u0008]/);
    expect(text).toContain("cell");
    expect(text).toContain('ab <w:p> & "q"');
    expect(xml).toContain("<w:tbl>");
  });
});

describe("renderTemplate DOCX: images", () => {
  it("fits the table cell it stands in, and keeps JPEG and GIF types", async () => {
    const cell = (text: string, width: number) => `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/></w:tcPr>${para(text)}</w:tc>`;
    const template = docx(
      `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="2216"/><w:gridCol w:w="2000"/></w:tblGrid><w:tr>${cell("{%Photo}", 2216)}${cell("{%Anim}", 2000)}</w:tr></w:tbl>${para("end")}`,
    );
    const result = await render(template, [
      { placeholder: "{%Photo}", mimeType: "image", text: dataUrl(jpeg(800, 400), "image/jpeg") },
      { placeholder: "{%Anim}", mimeType: "image", text: gif(10, 10).toString("base64") },
    ]);
    const xml = documentXml(result.file);
    const extents = [...xml.matchAll(/<wp:extent cx="(\d+)" cy="(\d+)"\/>/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(extents[0]).toEqual([2000 * TWIP, 1000 * TWIP]);
    expect(extents[1]).toEqual([10 * EMU, 10 * EMU]);
    expect(
      zipNames(result.file)
        .filter((n) => n.startsWith("word/media/"))
        .sort(),
    ).toEqual(["word/media/quire_image_1.jpeg", "word/media/quire_image_2.gif"]);
    const types = zipText(result.file, "[Content_Types].xml");
    expect(types).toMatch(/<Default (ContentType="image\/jpeg" Extension="jpeg"|Extension="jpeg" ContentType="image\/jpeg")\/>/);
    expect(types).toMatch(/<Default (ContentType="image\/gif" Extension="gif"|Extension="gif" ContentType="image\/gif")\/>/);
    // Unique drawing ids.
    const ids = [...xml.matchAll(/<wp:docPr id="(\d+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(2);
  });

  it("downloads https images through fetchImage", async () => {
    const fetchImage = vi.fn(async () => png(20, 20));
    const result = await render(buildDocx(["{%Logo}"]), [{ placeholder: "{%Logo}", mimeType: "image", text: "https://cdn.example.com/logo.png" }], {
      fetchImage,
    });
    expect(fetchImage).toHaveBeenCalledWith("https://cdn.example.com/logo.png");
    expect(documentXml(result.file)).toContain(`<wp:extent cx="${20 * EMU}" cy="${20 * EMU}"/>`);
  });
});

describe("renderTemplate DOCX: variableStack", () => {
  it("repeats a paragraph per entry, each by its own mimeType; zero entries remove it", async () => {
    const template = buildDocx(["before", ["Item: ", "{Line}"], "{Gone}", "after"]);
    const result = await render(template, [
      {
        placeholder: "{Line}",
        mimeType: "text",
        variableStack: [
          { text: "plain <1>", mimeType: "text" },
          { text: "<i>rich</i>", mimeType: "html" },
          { text: "**md**", mimeType: "markdown" },
        ],
      },
      { placeholder: "{Gone}", mimeType: "text", variableStack: [] },
    ]);
    const xml = documentXml(result.file);
    expectWellFormed(xml);
    expect(paragraphs(xml).map(visibleText)).toEqual(["before\n", "Item: plain <1>\n", "Item: rich\n", "Item: md\n", "after\n"]);
    expect(xml).toContain("<w:i/>");
    expect(xml).toContain("<w:b/>");
  });

  it("repeats a table row max(entries) times; shorter stacks leave cells empty", async () => {
    const row = (cells: string[]) => `<w:tr>${cells.map((c) => `<w:tc>${para(c)}</w:tc>`).join("")}</w:tr>`;
    const template = docx(
      `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>${row(["Name", "Qty", "Unit"])}${row(["{Name}", "{Qty}", "{Unit}"])}</w:tbl>${para("")}`,
    );
    const result = await render(template, [
      {
        placeholder: "{Name}",
        mimeType: "text",
        variableStack: [
          { text: "a", mimeType: "text" },
          { text: "b", mimeType: "text" },
          { text: "c", mimeType: "text" },
        ],
      },
      { placeholder: "{Qty}", mimeType: "text", variableStack: { "0": { text: "1", mimeType: "text" } } },
      { placeholder: "{Unit}", mimeType: "text", text: "pcs" },
    ]);
    const rows = documentXml(result.file).match(/<w:tr>[\s\S]*?<\/w:tr>/g)!;
    expect(rows.map((r) => visibleText(r).replace(/\n/g, "|"))).toEqual(["Name|Qty|Unit|", "a|1|pcs|", "b||pcs|", "c||pcs|"]);
  });
});

describe("renderTemplate DOCX: subvariables", () => {
  it("replaces tokens in the html parent by each subvariable's own mimeType", async () => {
    const result = await render(buildDocx(["{Letter}"]), [
      {
        placeholder: "{Letter}",
        mimeType: "html",
        text: "<p>Dear {First}, your plan: {Plan}. Note: {Note}</p>",
        subvariables: [
          { placeholder: "{First}", mimeType: "text", text: "<Ann>" },
          { placeholder: "{Plan}", mimeType: "html", text: "<b>Gold</b>" },
          { placeholder: "{Note}", mimeType: "markdown", text: "*soon*" },
        ],
      },
    ]);
    const xml = documentXml(result.file);
    expect(visibleText(xml)).toBe("Dear <Ann>, your plan: Gold. Note: soon\n");
    expect(xml).toContain('<w:rPr><w:b/><w:bCs/></w:rPr><w:t xml:space="preserve">Gold</w:t>');
    expect(xml).toContain('<w:rPr><w:i/><w:iCs/></w:rPr><w:t xml:space="preserve">soon</w:t>');
  });

  it("replaces tokens in a markdown parent without letting markdown reach into values", async () => {
    const result = await render(buildDocx(["{Md}"]), [
      {
        placeholder: "{Md}",
        mimeType: "markdown",
        text: "Hello {Who_Name}, **welcome**",
        subvariables: [{ placeholder: "{Who_Name}", mimeType: "text", text: "*not italic*" }],
      },
    ]);
    const xml = documentXml(result.file);
    expect(visibleText(xml)).toBe("Hello *not italic*, welcome\n");
    expect(xml).not.toContain("<w:i/>");
  });
});

describe("renderTemplate DOCX: styles, numbering, headers and fonts", () => {
  it("uses the template's heading, list and hyperlink styles and counts fonts through styles", async () => {
    const template = docx(para("{Body}"), { styles: HEADING_STYLES });
    const result = await render(template, [
      { placeholder: "{Body}", mimeType: "html", text: "<h1>Top</h1><h2>Sub</h2><p>text <a href='https://x.example'>link</a></p><ul><li>item</li></ul>" },
    ]);
    const xml = documentXml(result.file);
    expect(xml).toContain('<w:pStyle w:val="Heading1"/>');
    expect(xml).toContain('<w:pStyle w:val="berschrift2"/>');
    expect(xml).toContain('<w:pStyle w:val="ListParagraph"/>');
    expect(xml).toContain('<w:rStyle w:val="Hyperlink"/>');
    // Heading runs inherit Verdana from Heading1 (and berschrift2 basedOn it); the rest use docDefaults.
    expect(result.fonts).toEqual([
      { name: "Georgia", usage: 3 },
      { name: "Verdana", usage: 2 },
    ]);
    expect(result.defaultFont).toBe("Georgia");
  });

  it("appends to an existing numbering part with fresh ids, in schema order", async () => {
    const numbering =
      '<w:abstractNum w:abstractNumId="7"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum><w:num w:numId="12"><w:abstractNumId w:val="7"/></w:num>';
    const result = await render(docx(para("{L}"), { numbering }), [{ placeholder: "{L}", mimeType: "html", text: "<ol><li>a</li></ol>" }]);
    const xml = zipText(result.file, "word/numbering.xml");
    expectWellFormed(xml);
    expect(xml.indexOf('w:abstractNumId="9"')).toBeGreaterThan(-1);
    expect(xml.indexOf('w:abstractNumId="9"')).toBeLessThan(xml.indexOf('<w:num w:numId="12">'));
    expect(xml).toMatch(/<w:num w:numId="13"><w:abstractNumId w:val="9"\/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"\/>/);
    expect(documentXml(result.file)).toContain('<w:numId w:val="13"/>');
    expect(zipText(result.file, "word/_rels/document.xml.rels").match(/Target="numbering.xml"/g)).toHaveLength(1);
  });

  it("renders placeholders in headers, with the header's own relationships", async () => {
    const result = await render(docx(para("body"), { header: para("{Head}") }), [
      { placeholder: "{Head}", mimeType: "html", text: "<a href='https://h.example'>home</a>" },
    ]);
    const header = zipText(result.file, "word/header1.xml");
    expect(header).toContain('<w:hyperlink r:id="quireLink1"');
    expect(zipText(result.file, "word/_rels/header1.xml.rels")).toContain('Target="https://h.example" TargetMode="External"');
  });

  it("applies defaultFont to docDefaults and reports it", async () => {
    const result = await render(docx(para("{A}"), { styles: HEADING_STYLES }), [{ placeholder: "{A}", mimeType: "text", text: "x" }], {
      defaultFont: "Fira Sans",
    });
    const styles = zipText(result.file, "word/styles.xml");
    expectWellFormed(styles);
    expect(styles).toContain('<w:rPrDefault><w:rPr><w:rFonts w:ascii="Fira Sans" w:hAnsi="Fira Sans"/></w:rPr></w:rPrDefault>');
    expect(result.defaultFont).toBe("Fira Sans");
    expect(result.fonts).toEqual([{ name: "Fira Sans", usage: 1 }]);
  });

  it("adds docDefaults to a template without styles when defaultFont is given", async () => {
    const result = await render(buildDocx(["{A}"]), [{ placeholder: "{A}", mimeType: "text", text: "x" }], { defaultFont: "Inter" });
    expect(zipText(result.file, "word/styles.xml")).toContain('<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Inter" w:hAnsi="Inter"/>');
    expect(zipText(result.file, "[Content_Types].xml")).toContain("/word/styles.xml");
  });
});

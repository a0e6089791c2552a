// renderTemplate on PPTX: the sample proposal and small slides, read back from the package.
import { describe, expect, it } from "vitest";
import { renderTemplate, type VariableInput } from "@/lib/deliverables/render";
import { buildSampleProposalPptx } from "@/lib/templates/samples";
import {
  dataUrl,
  expectWellFormed,
  noFetch,
  png,
  pptxRun,
  pptxSlide,
  slideXml,
  tableFrame,
  textShape,
  visibleText,
  withParts,
  zipNames,
  zipText,
} from "./render-fixtures";

function render(template: Buffer, variables: VariableInput[], defaultFont?: string) {
  return renderTemplate(template, "pptx", variables, { fetchImage: noFetch, defaultFont });
}

/** The sample deck with slide 3 replaced. */
async function deckWithSlide(shapes: string): Promise<Buffer> {
  return withParts(await buildSampleProposalPptx(), { "ppt/slides/slide3.xml": pptxSlide(shapes) });
}

describe("renderTemplate PPTX: the sample proposal", () => {
  it("renders markdown as native paragraphs, html inline, text with line breaks", async () => {
    const result = await render(await buildSampleProposalPptx(), [
      { placeholder: "{ProposalTitle}", mimeType: "text", text: "Website <Redesign> & more" },
      { placeholder: "{ClientName}", mimeType: "html", text: "<i>Globex</i> Corp" },
      {
        placeholder: "{Summary}",
        mimeType: "markdown",
        text: "We will **rebuild** the [site](https://globex.example/).\n\n- Faster\n- Simpler\n\n1. Plan\n2. Ship",
      },
      { placeholder: "{Price}", mimeType: "text", text: "$10,000\n(excl. VAT)" },
    ]);
    for (const n of [1, 2, 3]) expectWellFormed(slideXml(result.file, n));

    const title = slideXml(result.file, 1);
    expect(title).toContain("<a:t>Website &lt;Redesign&gt; &amp; more</a:t>");
    // Inline html keeps the run's look and adds italics.
    expect(title).toMatch(/<a:rPr lang="en-GB" sz="2000" dirty="0" i="1">.*?<\/a:rPr><a:t>Globex<\/a:t>/);
    expect(visibleText(title)).toContain("Prepared for Globex Corp\nPrepared by \n");

    const summary = slideXml(result.file, 2);
    const body = summary.slice(summary.indexOf("Text 4"));
    const paragraphs = body.match(/<a:p>[\s\S]*?<\/a:p>/g)!;
    expect(paragraphs.map(visibleText)).toEqual(["We will rebuild the site.\n", "Faster\n", "Simpler\n", "Plan\n", "Ship\n"]);
    expect(paragraphs[0]).toMatch(/<a:rPr lang="en-GB" sz="2000" dirty="0" b="1">.*?<a:t>rebuild<\/a:t>/);
    expect(paragraphs[1]).toContain('<a:buChar char="•"/>');
    expect(paragraphs[3]).toContain('<a:buAutoNum type="arabicPeriod"/>');
    const link = /<a:hlinkClick r:id="([^"]+)"\/><\/a:rPr><a:t>site<\/a:t>/.exec(summary);
    expect(link).not.toBeNull();
    expect(zipText(result.file, "ppt/slides/_rels/slide2.xml.rels")).toContain(
      `<Relationship Id="${link![1]}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://globex.example/" TargetMode="External"/>`,
    );

    const price = slideXml(result.file, 3);
    expect(price).toMatch(/<a:t>Total price: \$10,000<\/a:t><\/a:r><a:br\/><a:r><a:rPr [^>]*b="1"[^>]*>.*?<a:t>\(excl\. VAT\)<\/a:t>/);

    expect(result.missingPlaceholders).toEqual(["{PreparedBy}"]);
    expect(result.defaultFont).toBe("Liberation Sans");
    expect(result.fonts).toEqual([{ name: "Liberation Sans", usage: expect.any(Number) }]);
  });

  it("applies defaultFont to the theme's body font", async () => {
    const result = await render(await buildSampleProposalPptx(), [], "Inter");
    expect(zipText(result.file, "ppt/theme/theme1.xml")).toMatch(/<a:minorFont><a:latin typeface="Inter"\/>/);
    expect(result.defaultFont).toBe("Inter");
  });
});

describe("renderTemplate PPTX: small slides", () => {
  it("replaces a {%Logo} shape with a picture fitted and centred in its box", async () => {
    const box = { x: 1_000_000, y: 500_000, cx: 2_000_000, cy: 1_000_000 };
    const template = await deckWithSlide(textShape(2, [pptxRun("{%Logo}")], box) + textShape(3, [pptxRun("keep me")]));
    const result = await render(template, [{ placeholder: "{%Logo}", mimeType: "image", text: dataUrl(png(400, 100)) }]);
    const xml = slideXml(result.file, 3);
    expectWellFormed(xml);
    expect(xml).not.toContain("{%Logo}");
    expect(visibleText(xml)).toContain("keep me");
    // 400x100 px is 3,810,000 x 952,500 EMU: scaled to the 2,000,000 wide box, centred vertically.
    expect(xml).toContain('<a:off x="1000000" y="750000"/><a:ext cx="2000000" cy="500000"/>');
    const id = /<p:pic><p:nvPicPr><p:cNvPr id="(\d+)"/.exec(xml)![1];
    expect(Number(id)).toBeGreaterThan(3);
    expect(zipNames(result.file)).toContain("ppt/media/quire_image_1.png");
    expect(zipText(result.file, "ppt/slides/_rels/slide3.xml.rels")).toContain('Target="../media/quire_image_1.png"');
  });

  it("repeats a table row per stack entry with unique row ids", async () => {
    const template = await deckWithSlide(
      tableFrame(2, [
        ["Item", "Cost"],
        ["{Item}", "{Cost}"],
      ]),
    );
    const result = await render(template, [
      { placeholder: "{Item}", mimeType: "text", variableStack: { "1": { text: "Build", mimeType: "text" }, "0": { text: "Plan", mimeType: "html" } } },
      {
        placeholder: "{Cost}",
        mimeType: "text",
        variableStack: [
          { text: "5", mimeType: "text" },
          { text: "9", mimeType: "text" },
        ],
      },
    ]);
    const xml = slideXml(result.file, 3);
    expectWellFormed(xml);
    const rows = xml.match(/<a:tr [\s\S]*?<\/a:tr>/g)!;
    expect(rows.map((row) => visibleText(row).replace(/\n/g, "|"))).toEqual(["Item|Cost|", "Plan|5|", "Build|9|"]);
    const rowIds = [...xml.matchAll(/<a16:rowId [^>]*val="(\d+)"/g)].map((m) => m[1]);
    expect(new Set(rowIds).size).toBe(3);
  });

  it("writes html on a {@raw} tag as paragraphs and a table as tab-separated lines", async () => {
    // Upload inspection (docxtemplater's PPTX raw-tag rule) wants {@tag} alone in its shape.
    const template = await deckWithSlide(textShape(2, [pptxRun("{@Body}")]) + textShape(3, [pptxRun("after")]));
    const result = await render(template, [
      { placeholder: "{@Body}", mimeType: "html", text: "<p>Intro <u>here</u></p><table><tr><td>a</td><td>b</td></tr></table>" },
    ]);
    const xml = slideXml(result.file, 3);
    expectWellFormed(xml);
    expect(visibleText(xml)).toBe("Intro here\na\tb\nafter\n");
    expect(xml).toContain('<a:rPr lang="en-US" sz="2000" dirty="0" u="sng"/><a:t>here</a:t>');
  });

  it("always produces well-formed slide XML from hostile html", async () => {
    const template = await deckWithSlide(textShape(2, [pptxRun("{Body}")]) + textShape(3, [pptxRun("x {Inline} y")]));
    const hostile = '<b><i>x</b> <table><tr><td>cell <script>alert(1)</script> & \u0002 <a href="javascript:evil()">js</a>';
    const result = await render(template, [
      { placeholder: "{Body}", mimeType: "html", text: hostile },
      { placeholder: "{Inline}", mimeType: "html", text: hostile },
    ]);
    const xml = slideXml(result.file, 3);
    expectWellFormed(xml);
    expect(xml).not.toContain("alert");
    expect(xml).not.toContain("hlinkClick");
    expect(visibleText(xml)).toContain("cell");
  });

  it("stacks a paragraph in a text box", async () => {
    const template = await deckWithSlide(textShape(2, [pptxRun("- {Point}")]));
    const result = await render(template, [
      {
        placeholder: "{Point}",
        mimeType: "text",
        variableStack: [
          { text: "one", mimeType: "text" },
          { text: "<b>two</b>", mimeType: "html" },
        ],
      },
    ]);
    const xml = slideXml(result.file, 3);
    expect(visibleText(xml)).toBe("- one\n- two\n");
    expect(xml).toContain('b="1"');
  });
});

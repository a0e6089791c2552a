// The HTML converter on its own: the model it reads from HTML, and the DOCX/PPTX XML written from it.
import { describe, expect, it } from "vitest";
import { htmlToBlocks, htmlToOoxml, type WriterContext } from "@/lib/deliverables/render/html-to-ooxml";
import { expectWellFormed, visibleText } from "./render-fixtures";

function context(kind: "docx" | "pptx", overrides: Partial<WriterContext> = {}): WriterContext & { links: string[]; lists: [boolean, number][] } {
  const links: string[] = [];
  const lists: [boolean, number][] = [];
  return {
    kind,
    paragraphProps: "",
    runProps: "",
    link: (url) => {
      links.push(url);
      return `rIdLink${links.length}`;
    },
    headingStyles: {},
    newList: (ordered, start) => {
      lists.push([ordered, start]);
      return 100 + lists.length;
    },
    contentWidth: 9000,
    links,
    lists,
    ...overrides,
  };
}

/** Wraps generated paragraphs in a root so the fragment can be checked for well-formedness. */
const wrap = (xml: string) => `<root>${xml}</root>`;

describe("htmlToBlocks", () => {
  it("reads paragraphs, headings, inline styles and breaks", () => {
    const blocks = htmlToBlocks("<h2>Title</h2><p>a <b>bold <i>both</i></b> <u>under</u> <s>gone</s><br>next</p>");
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatchObject({ type: "p", heading: 2, runs: [{ text: "Title" }] });
    const runs = (blocks[1] as { runs: unknown[] }).runs;
    expect(runs).toEqual([
      { text: "a ", style: {} },
      { text: "bold ", style: { bold: true } },
      { text: "both", style: { bold: true, italic: true } },
      { text: " ", style: {} },
      { text: "under", style: { underline: true } },
      { text: " ", style: {} },
      { text: "gone", style: { strike: true } },
      { br: true, style: {} },
      { text: "next", style: {} },
    ]);
  });

  it("collapses whitespace like a browser", () => {
    const [p] = htmlToBlocks("<p>\n   lots   of \n space  </p>");
    expect(p).toMatchObject({ runs: [{ text: "lots of space" }] });
  });

  it("keeps nested lists with levels and separate list ids", () => {
    const blocks = htmlToBlocks("<ol start='3'><li>one<ul><li>inner</li></ul></li><li>two</li></ol><ol><li>again</li></ol>");
    const lists = blocks.map((b) => (b.type === "p" ? b.list : undefined));
    expect(lists[0]).toMatchObject({ ordered: true, level: 0, start: 3 });
    expect(lists[1]).toMatchObject({ ordered: false, level: 1 });
    expect(lists[2]).toMatchObject({ ordered: true, level: 0, listId: lists[0]!.listId });
    expect(lists[3]!.listId).not.toBe(lists[0]!.listId);
  });

  it("survives broken and hostile HTML", () => {
    expect(visibleOf("<b><i>x</b> y")).toBe("x y");
    expect(htmlToBlocks("<table><tr><td>cell")).toEqual([
      { type: "table", rows: [[{ header: false, colspan: 1, blocks: [{ type: "p", runs: [{ text: "cell", style: {} }] }] }]] },
    ]);
    expect(visibleOf("<script>alert(1)</script><style>p{}</style>safe<iframe src=x>in</iframe>")).toBe("safe");
    expect(visibleOf("<custom-tag>kept <blink>text</blink></custom-tag>")).toBe("kept text");
    expect(visibleOf("a < b && c > d")).toBe("a < b && c > d");
    expect(visibleOf("<p>unclosed <b>bold")).toBe("unclosed bold");
    expect(htmlToBlocks("")).toEqual([]);
    expect(htmlToBlocks("</p></div></b>")).toEqual([]);
  });

  it("caps nesting depth instead of recursing without bound", () => {
    const deep = `${"<div><span>".repeat(5000)}deep${"</span></div>".repeat(5000)}`;
    expect(visibleOf(deep)).toBe("deep");
  });

  it("drops unsafe link targets but keeps their text", () => {
    const [p] = htmlToBlocks('<a href="javascript:alert(1)">js</a> <a href="https://ok.example/x">ok</a> <a href="data:text/html,x">data</a>');
    const runs = (p as { runs: { text: string; style: { link?: string } }[] }).runs;
    expect(runs.map((r) => [r.text, r.style.link])).toEqual([
      ["js ", undefined],
      ["ok", "https://ok.example/x"],
      [" data", undefined],
    ]);
  });
});

function visibleOf(html: string): string {
  return htmlToBlocks(html)
    .map((b) => (b.type === "p" ? b.runs.map((r) => ("text" in r ? r.text : "\n")).join("") : "[table]"))
    .join("\n");
}

describe("htmlToOoxml: DOCX", () => {
  it("writes bold/italic/underline/strike runs in schema order and escapes text", () => {
    const xml = htmlToOoxml("<p><b>B</b><i>I</i><u>U</u><del>S</del> 1 &lt; 2 &amp; 3</p>", "block", context("docx"));
    expectWellFormed(wrap(xml));
    expect(xml).toContain('<w:r><w:rPr><w:b/><w:bCs/></w:rPr><w:t xml:space="preserve">B</w:t></w:r>');
    expect(xml).toContain("<w:rPr><w:i/><w:iCs/></w:rPr>");
    expect(xml).toContain('<w:u w:val="single"/>');
    expect(xml).toContain("<w:strike/>");
    expect(xml).toContain("1 &lt; 2 &amp; 3");
  });

  it("builds on the template run's formatting, keeping schema order", () => {
    const ctx = context("docx", { runProps: '<w:rPr><w:rFonts w:ascii="Arial"/><w:color w:val="FF0000"/><w:sz w:val="30"/></w:rPr>' });
    const xml = htmlToOoxml("<b>x</b>", "block", ctx);
    expect(xml).toContain('<w:rPr><w:rFonts w:ascii="Arial"/><w:b/><w:bCs/><w:color w:val="FF0000"/><w:sz w:val="30"/></w:rPr>');
  });

  it("uses heading styles when the template has them, bold larger runs otherwise", () => {
    const styled = htmlToOoxml("<h1>Big</h1>", "block", context("docx", { headingStyles: { 1: "Heading1" } }));
    expect(styled).toContain('<w:pPr><w:pStyle w:val="Heading1"/></w:pPr>');
    const plain = htmlToOoxml("<h1>Big</h1>", "block", context("docx"));
    expect(plain).toContain('<w:rPr><w:b/><w:bCs/><w:sz w:val="32"/><w:szCs w:val="32"/></w:rPr>');
  });

  it("writes links as w:hyperlink with a registered relationship", () => {
    const ctx = context("docx");
    const xml = htmlToOoxml('<p>see <a href="https://example.com/a?b=1&amp;c=2">the <b>site</b></a></p>', "block", ctx);
    expect(ctx.links).toEqual(["https://example.com/a?b=1&c=2"]);
    expect(xml).toMatch(/<w:hyperlink r:id="rIdLink1" w:history="1"><w:r>.*the .*<\/w:r><w:r>.*site.*<\/w:r><\/w:hyperlink>/);
  });

  it("numbers lists through Word numbering, one instance per list", () => {
    const ctx = context("docx", { listParagraphStyle: "ListParagraph" });
    const xml = htmlToOoxml("<ul><li>a<ol><li>b</li></ol></li></ul><ol start='4'><li>c</li></ol>", "block", ctx);
    expect(ctx.lists).toEqual([
      [false, 1],
      [true, 1],
      [true, 4],
    ]);
    expect(xml).toContain('<w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="101"/></w:numPr>');
    expect(xml).toContain('<w:numPr><w:ilvl w:val="1"/><w:numId w:val="102"/></w:numPr>');
    expect(xml).toContain('<w:numId w:val="103"/>');
  });

  it("writes tables with borders, a grid and a paragraph after them", () => {
    const xml = htmlToOoxml(
      "<table><thead><tr><th>H1</th><th>H2</th></tr></thead><tr><td colspan=2>wide</td></tr><tr><td>short</td></tr></table>",
      "block",
      context("docx"),
    );
    expectWellFormed(wrap(xml));
    expect(xml).toMatch(
      /^<w:tbl><w:tblPr>.*<w:tblBorders>.*<\/w:tblBorders>.*<\/w:tblPr><w:tblGrid><w:gridCol w:w="4500"\/><w:gridCol w:w="4500"\/><\/w:tblGrid>/,
    );
    expect(xml).toContain("<w:trPr><w:tblHeader/></w:trPr>");
    expect(xml).toContain('<w:gridSpan w:val="2"/>');
    // The short row is padded to the grid: every row has two columns' worth of cells.
    expect(xml.match(/<w:tc>/g)).toHaveLength(5);
    expect(xml.endsWith("</w:tbl><w:p></w:p>")).toBe(true);
  });

  it("keeps a section break of the placeholder paragraph once, on the last paragraph", () => {
    const ctx = context("docx", { paragraphProps: '<w:pPr><w:jc w:val="center"/><w:sectPr><w:pgSz w:w="100"/></w:sectPr></w:pPr>' });
    const xml = htmlToOoxml("<p>a</p><p>b</p>", "block", ctx);
    expect(xml.match(/<w:sectPr>/g)).toHaveLength(1);
    expect(xml).toMatch(/<w:p><w:pPr><w:jc w:val="center"\/><\/w:pPr>.*a.*<\/w:p><w:p><w:pPr><w:jc w:val="center"\/><w:sectPr>/);
  });

  it("inline mode flattens blocks into runs: breaks, bullets and tab-separated rows", () => {
    const xml = htmlToOoxml("<p>one</p><ul><li>dot</li></ul><ol><li>num</li></ol><table><tr><td>a</td><td>b</td></tr></table>", "inline", context("docx"));
    expect(xml).not.toContain("<w:p>");
    expect(xml).not.toContain("<w:tbl>");
    expect(visibleText(xml)).toBe("one\n• dot\n1. num\na\tb");
  });
});

describe("htmlToOoxml: PPTX", () => {
  const base = '<a:rPr lang="en-GB" sz="2000" dirty="0"><a:solidFill><a:srgbClr val="262626"/></a:solidFill><a:latin typeface="Arial"/></a:rPr>';

  it("writes a:p paragraphs whose runs keep the template run's properties", () => {
    const xml = htmlToOoxml("<p>plain <strong>bold</strong> <em>it</em></p>", "block", context("pptx", { runProps: base }));
    expectWellFormed(wrap(xml));
    expect(xml).toMatch(/^<a:p><a:r><a:rPr lang="en-GB" sz="2000" dirty="0">/);
    expect(xml).toContain(
      '<a:rPr lang="en-GB" sz="2000" dirty="0" b="1"><a:solidFill><a:srgbClr val="262626"/></a:solidFill><a:latin typeface="Arial"/></a:rPr><a:t>bold</a:t>',
    );
    expect(xml).toContain('i="1"');
  });

  it("writes links as hlinkClick in schema position, bullets and numbering natively", () => {
    const ctx = context("pptx", { runProps: base });
    const xml = htmlToOoxml('<a href="https://example.com">x</a><ul><li>dot</li></ul><ol start="2"><li>num</li></ol>', "block", ctx);
    expect(ctx.links).toEqual(["https://example.com"]);
    expect(xml).toContain('<a:latin typeface="Arial"/><a:hlinkClick r:id="rIdLink1"/></a:rPr>');
    expect(xml).toContain('<a:pPr marL="342900" indent="-342900"><a:buFont typeface="Arial"/><a:buChar char="•"/></a:pPr>');
    expect(xml).toContain('<a:buAutoNum type="arabicPeriod" startAt="2"/>');
  });

  it("scales headings from the template size and turns tables into tab-separated lines", () => {
    const xml = htmlToOoxml(
      "<h1>Head</h1><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>",
      "block",
      context("pptx", { runProps: base }),
    );
    expect(xml).toContain('sz="3200"');
    expect(xml).not.toContain("tbl");
    expect(visibleText(xml)).toBe("Head\na\tb\n1\t2\n");
  });

  it("inline mode uses a:br between blocks", () => {
    const xml = htmlToOoxml("<p>a</p><p>b</p>", "inline", context("pptx"));
    expect(xml).toBe("<a:r><a:t>a</a:t></a:r><a:br/><a:r><a:t>b</a:t></a:r>");
  });
});

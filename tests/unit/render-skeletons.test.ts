// A fill served from its shape's skeleton (lib/deliverables/render/skeletons.ts) is the document the
// whole render makes: every part's text, the fonts counted and the placeholders reported missing, on
// random text (XML's special characters, characters XML forbids, line breaks, empty lines, spaces only,
// astral and private-use characters), in DOCX and PPTX, with stacks, html, raw tags and sections.
import fc from "fast-check";
import PizZip from "pizzip";
import { afterEach, describe, expect, it } from "vitest";
import { renderTemplate, type VariableInput } from "@/lib/deliverables/render";
import { clearSkeletons, skeletonsServed } from "@/lib/deliverables/render/skeletons";
import { inspectTemplate, type TemplateKind } from "@/lib/templates/inspect";
import { buildSampleContractDocx, buildSampleProposalPptx } from "@/lib/templates/samples";
import { docx, documentXml, noFetch, para, pptxRun, pptxSlide, rejection, tableFrame, textShape, visibleText, withParts, zipText } from "./render-fixtures";

const render = (template: Buffer, kind: TemplateKind, variables: VariableInput[]) => renderTemplate(template, kind, variables, { fetchImage: noFetch });

/** A package as what a reader sees: its entries in order and each one's content. */
function contents(file: Buffer): [string, string][] {
  const zip = new PizZip(file);
  return Object.entries(zip.files).map(([name, entry]) => [name, entry.dir ? "(folder)" : entry.asText()]);
}

const CHARS = [
  "a",
  "Z",
  "7",
  " ",
  "\u00a0",
  "\n",
  "\r",
  "\t",
  "&",
  "<",
  ">",
  '"',
  "'",
  "{",
  "}",
  "\u0001",
  "\u000b",
  "\u001f",
  "é",
  "😀",
  "\ue000",
  "\ue001",
  ".",
];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 10 }).map((chars) => chars.join(""));

const CONDITIONS_AND_RAW = docx(
  para("Dear {Name}, welcome.") +
    '<w:p><w:r><w:rPr><w:rFonts w:ascii="Verdana" w:hAnsi="Verdana"/></w:rPr><w:t xml:space="preserve">Split {Na</w:t></w:r><w:r><w:t>me} and {City}</w:t></w:r></w:p>' +
    para("{#Show}Shown: {City}{/Show}") +
    para("{^Show}Hidden instead{/Show}") +
    para("{@Note}") +
    `<w:tbl><w:tr><w:tc><w:p><w:r><w:t>{Item}</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>{City}</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
    para("{Name}"),
  { header: para("Header for {Name}") },
);

const SLIDES = withParts(await buildSampleProposalPptx(), {
  "ppt/slides/slide2.xml": pptxSlide(
    textShape(2, [pptxRun("{Title}"), pptxRun("Owner: {Name}")]) +
      // docxtemplater's PPTX raw tag stands alone in its shape.
      textShape(4, [pptxRun("{@Body}")]) +
      tableFrame(3, [
        ["Item", "Price"],
        ["{Item}", "{Price}"],
      ]),
  ),
});

interface Case {
  label: string;
  template: Buffer;
  kind: TemplateKind;
  variables: fc.Arbitrary<VariableInput[]>;
}

const plain = (placeholder: string) => text.map((t): VariableInput => ({ placeholder, text: t, mimeType: "text" }));
const stack = (placeholder: string) =>
  fc
    .array(text, { maxLength: 3 })
    .map((entries): VariableInput => ({ placeholder, mimeType: "text", variableStack: entries.map((t) => ({ text: t, mimeType: "text" as const })) }));
const section = (placeholder: string) => fc.constantFrom("yes", "no").map((t): VariableInput => ({ placeholder, text: t, mimeType: "text" }));
const html = (placeholder: string) =>
  fc.constantFrom("<p>One <b>two</b></p>", "<ul><li>a</li><li>b</li></ul>").map((t): VariableInput => ({ placeholder, text: t, mimeType: "html" }));

async function cases(): Promise<Case[]> {
  const contract = await buildSampleContractDocx();
  const { placeholders } = await inspectTemplate(contract, "contract.docx", { maxBytes: 1e8 });
  const contractText = placeholders.filter((p) => p.kind === "text" && p.placeholder !== "{ItemName}").map((p) => p.placeholder);
  const proposal = await inspectTemplate(SLIDES, "slides.pptx", { maxBytes: 1e8 });
  const slideText = proposal.placeholders.filter((p) => p.kind === "text" && p.placeholder !== "{Item}").map((p) => p.placeholder);
  return [
    {
      label: "the sample contract (text, html, a stacked row)",
      template: contract,
      kind: "docx",
      variables: fc.tuple(fc.tuple(...contractText.map(plain)), html("{@Scope}"), stack("{ItemName}")).map(([texts, scope, items]) => [...texts, scope, items]),
    },
    {
      label: "a DOCX with a split tag, a header, sections, a raw text tag and a table",
      template: CONDITIONS_AND_RAW,
      kind: "docx",
      variables: fc.tuple(plain("{Name}"), plain("{City}"), section("{#Show}"), plain("{@Note}"), stack("{Item}")),
    },
    {
      label: "a PPTX with a table row stacked, a raw text tag and the sample's own placeholders",
      template: SLIDES,
      kind: "pptx",
      variables: fc.tuple(fc.tuple(...slideText.map(plain)), plain("{@Body}"), stack("{Item}")).map(([texts, body, items]) => [...texts, body, items]),
    },
  ];
}

describe("fills from a skeleton", () => {
  afterEach(() => clearSkeletons());

  it("makes the document the whole render makes, part for part, on random text (property)", async () => {
    for (const c of await cases()) {
      await fc.assert(
        fc.asyncProperty(c.variables, async (variables) => {
          clearSkeletons();
          const whole = await render(c.template, c.kind, variables); // a shape seen for the first time: the whole render
          const before = skeletonsServed();
          const fromSkeleton = await render(c.template, c.kind, variables); // seen again: its skeleton is made and serves it
          expect(skeletonsServed(), c.label).toBe(before + 1);
          expect(contents(fromSkeleton.file), c.label).toEqual(contents(whole.file));
          expect({ ...fromSkeleton, file: null }, c.label).toEqual({ ...whole, file: null });
        }),
        { numRuns: 40 },
      );
    }
  });

  it("serves other text of the same shape from the skeleton another document made", async () => {
    const template = CONDITIONS_AND_RAW;
    const vars = (name: string, city: string): VariableInput[] => [
      { placeholder: "{Name}", text: name, mimeType: "text" },
      { placeholder: "{City}", text: city, mimeType: "text" },
      { placeholder: "{#Show}", text: "yes", mimeType: "text" },
    ];
    // Two lines in the city: the shape counts them.
    await render(template, "docx", vars("Ada", "Old\nTown"));
    await render(template, "docx", vars("Ada", "Old\nTown"));
    const before = skeletonsServed();
    const served = await render(template, "docx", vars("Grace & <Co>", "New\nYork"));
    expect(skeletonsServed()).toBe(before + 1);
    clearSkeletons();
    const whole = await render(template, "docx", vars("Grace & <Co>", "New\nYork"));
    expect(contents(served.file)).toEqual(contents(whole.file));
    expect(visibleText(documentXml(served.file))).toContain("Dear Grace & <Co>, welcome.");
  });

  it("writes the text into a templated part whatever its name (a header named without .xml)", async () => {
    const base = docx(para("Dear {Name}"), { header: para("Header for {Name}") });
    const zip = new PizZip(base);
    zip.file("word/head.part", zip.file("word/header1.xml")!.asText());
    zip.remove("word/header1.xml");
    for (const name of ["[Content_Types].xml", "word/_rels/document.xml.rels"])
      zip.file(name, zip.file(name)!.asText().replace("/word/header1.xml", "/word/head.part").replace('Target="header1.xml"', 'Target="head.part"'));
    const template = zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
    const variables: VariableInput[] = [{ placeholder: "{Name}", text: "Ada & Co", mimeType: "text" }];
    const whole = await render(template, "docx", variables);
    const before = skeletonsServed();
    const served = await render(template, "docx", variables);
    expect(skeletonsServed()).toBe(before + 1);
    expect(contents(served.file)).toEqual(contents(whole.file));
    expect(visibleText(zipText(served.file, "word/head.part"))).toBe("Header for Ada & Co\n");
  });

  it("answers a shape that cannot be filled with the whole render's error, every time", async () => {
    // The stack would repeat the paragraph that opens the section: refused by the stack pass, whatever the text.
    const template = docx(para("{#S}{Line}") + para("{/S}"));
    const variables: VariableInput[] = [
      { placeholder: "{#S}", text: "yes", mimeType: "text" },
      { placeholder: "{Line}", mimeType: "text", variableStack: [{ text: "a & b", mimeType: "text" }] },
    ];
    const before = skeletonsServed();
    for (let i = 0; i < 3; i++) {
      const err = await rejection(render(template, "docx", variables));
      expect(err, `render ${i + 1}`).toMatchObject({ code: "StackNotSupported" });
      expect(err.message).toMatch(/^\{Line\} has a variableStack/);
    }
    expect(skeletonsServed()).toBe(before);
  });

  it("has no skeleton where text is read as data (an expression, a condition on a value) or an html value changes every time", async () => {
    const expression = docx(para("{Name} / {Name | upper}") + para("{#Name == 'Ada'}Hello Ada{/Name == 'Ada'}"));
    for (const name of ["Ada", "Ada", "Bob", "Ada"]) {
      const before = skeletonsServed();
      const { file } = await render(expression, "docx", [{ placeholder: "{Name}", text: name, mimeType: "text" }]);
      expect(skeletonsServed()).toBe(before);
      const body = visibleText(documentXml(file));
      expect(body).toContain(`${name} / ${name.toUpperCase()}`);
      expect(body.includes("Hello Ada")).toBe(name === "Ada");
    }
    const htmlOnce = docx(para("{@Body}"));
    for (let i = 0; i < 4; i++) {
      const before = skeletonsServed();
      await render(htmlOnce, "docx", [{ placeholder: "{@Body}", text: `<p>Document ${i}</p>`, mimeType: "html" }]);
      expect(skeletonsServed()).toBe(before);
    }
  });
});

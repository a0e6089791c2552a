// renderTemplate's refusals: limits, unknown placeholders, bad values and hostile images, each
// reported as a domain error with a code and every problem listed. (Types and shapes are the
// request schema's: tests/unit/deliverable-schemas.test.ts.)
import { describe, expect, it } from "vitest";
import { renderTemplate, type VariableInput } from "@/lib/deliverables/render";
import { UnprocessableError, ValidationError } from "@/lib/errors";
import { buildSampleContractDocx } from "@/lib/templates/samples";
import { buildDocx } from "../support/ooxml";
import { dataUrl, docx, noFetch, para, png, rejection } from "./render-fixtures";

const template = buildDocx(["Hello {Name}", "{%Logo}", "{#Section}", "inside", "{/Section}"]);

function render(variables: unknown, fetchImage: (url: string) => Promise<Buffer> = noFetch, file = template) {
  return renderTemplate(file, "docx", variables as VariableInput[], { fetchImage });
}

async function validation(variables: unknown, fetchImage?: (url: string) => Promise<Buffer>, file?: Buffer): Promise<ValidationError> {
  const error = await rejection<ValidationError>(render(variables, fetchImage, file));
  expect(error).toBeInstanceOf(ValidationError);
  expect(error.message).not.toMatch(/\n\s+at /);
  return error;
}

const text = (placeholder: string, value = "x"): VariableInput => ({ placeholder, mimeType: "text", text: value });
const image = (value: string): VariableInput => ({ placeholder: "{%Logo}", mimeType: "image", text: value });

describe("renderTemplate: variables", () => {
  it("refuses more than 1,000 variables", async () => {
    const error = await validation(Array.from({ length: 1001 }, () => text("{Name}")));
    expect(error.code).toBe("TooManyVariables");
    expect(error.message).toContain("1001 variables");
  });

  it("names every placeholder the template does not have", async () => {
    const error = await validation([text("{Name}"), text("{Nope}"), text("{@Also}"), text("Name")]);
    expect(error.code).toBe("ValidationError");
    const unknown = await validation([text("{Nope}"), text("{@Also}")]);
    expect(unknown.code).toBe("UnknownPlaceholder");
    expect(unknown.message).toBe("Placeholders not in the template: {Nope}, {@Also}");
    expect(unknown.issues).toEqual([
      { field: "variables.0.placeholder", message: "{Nope} is not a placeholder of the template" },
      { field: "variables.1.placeholder", message: "{@Also} is not a placeholder of the template" },
    ]);
    // Placeholders match exactly, braces and prefix included.
    expect((await validation([text("{Logo}")])).code).toBe("UnknownPlaceholder");
    expect((await validation([text("Name")])).issues[0].field).toBe("variables.0.placeholder");
  });

  it("refuses the same placeholder twice", async () => {
    const error = await validation([text("{Name}"), text("{Name}", "again")]);
    expect(error.code).toBe("DuplicatePlaceholder");
    expect(error.message).toContain("{Name} is given twice");
  });

  it("requires text unless disabled or stacked, and says when only an aiPrompt was given", async () => {
    const error = await validation([{ placeholder: "{Name}", mimeType: "text", aiPrompt: "Write a name" }]);
    expect(error.code).toBe("VariableTextRequired");
    expect(error.message).toContain("aiPrompt was not answered");
    await expect(render([{ placeholder: "{Name}", mimeType: "text", isDisabled: true }])).resolves.toBeDefined();
    await expect(render([{ placeholder: "{Name}", mimeType: "text", text: "" }])).resolves.toBeDefined();
  });

  it("limits text to 1,000,000 characters (15 MB for images)", async () => {
    const error = await validation([text("{Name}", "a".repeat(1_000_001))]);
    expect(error.code).toBe("TextTooLong");
    expect(error.issues[0].field).toBe("variables.0.text");
    const big = await validation([image("A".repeat(15 * 1024 * 1024 + 4))]);
    expect(big.code).toBe("TextTooLong");
  });

  it("treats an over-long aiPrompt as a constraint violation (422)", async () => {
    const error = await rejection(render([{ ...text("{Name}"), aiPrompt: "p".repeat(16_001) }]));
    expect(error).toBeInstanceOf(UnprocessableError);
    expect(error.code).toBe("AiPromptTooLong");
    // Alongside malformed input it is listed with the rest.
    const both = await validation([{ ...text("{Name}"), aiPrompt: "p".repeat(16_001) }, text("{Nope}")]);
    expect(both.issues.map((i) => i.field)).toEqual(["variables.0.aiPrompt", "variables.1.placeholder"]);
  });

  it("lists every problem of a bad request in one error", async () => {
    const error = await validation([
      { placeholder: "{Name}", mimeType: "text" },
      { placeholder: "{%Logo}", mimeType: "image", text: "x", value: "y" },
      text("{Missing}"),
    ]);
    expect(error.code).toBe("ValidationError");
    expect(error.issues.map((i) => i.field)).toEqual(["variables.0.text", "variables.1.value", "variables.2.placeholder"]);
    expect(error.message).toMatch(/^3 problems with the variables: /);
  });

  it("validates stacks: size and no stacks on sections", async () => {
    const entry = { text: "x", mimeType: "text" };
    expect((await validation([{ placeholder: "{Name}", mimeType: "text", variableStack: Array.from({ length: 1001 }, () => entry) }])).code).toBe(
      "StackTooLarge",
    );
    expect((await validation([{ placeholder: "{#Section}", mimeType: "text", variableStack: [entry] }])).code).toBe("StackNotSupported");
  });

  it("validates subvariables: tokens present, html parents", async () => {
    const parent = (subvariables: unknown[], mimeType = "html", value = "<p>Hi {First}</p>") => [
      { placeholder: "{Name}", mimeType, text: value, subvariables },
    ];
    const missing = await validation(parent([{ placeholder: "{Last}", mimeType: "text", text: "B" }]));
    expect(missing.code).toBe("SubvariableNotFound");
    expect(missing.message).toContain("{Last}");
    expect((await validation(parent([{ placeholder: "{First}", mimeType: "text", text: "A" }], "text", "Hi {First}"))).code).toBe("SubvariablesNotSupported");
    expect((await validation(parent([{ placeholder: "{First}", mimeType: "image", text: "x" }]))).code).toBe("SubvariablesNotSupported");
  });

  it("checks defaultFont", async () => {
    const error = await rejection(renderTemplate(template, "docx", [], { fetchImage: noFetch, defaultFont: '<Evil">' }));
    expect(error.code).toBe("InvalidDefaultFont");
  });
});

describe("renderTemplate: images", () => {
  it("refuses bad base64, non-images, damaged images, http and non-base64 data URLs", async () => {
    for (const value of ["not base64 at all!", "QUJD=A", "data:image/png,rawbytes", "http://example.com/a.png", "ftp://x/y.png"]) {
      const error = await validation([image(value)]);
      expect(error.code, value).toBe("InvalidImage");
    }
    const pdf = await validation([image(Buffer.from("%PDF-1.7 not an image").toString("base64"))]);
    expect(pdf.message).toContain("not a PNG, JPEG or GIF");
    const damaged = await validation([image(png(10, 10).subarray(0, 12).toString("base64"))]);
    expect(damaged.message).toContain("damaged");
  });

  it("refuses images over 10 MB, decoded or downloaded", async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    png(1, 1).copy(big);
    const error = await validation([image(dataUrl(big))]);
    expect(error.code).toBe("ImageTooLarge");
    const fetched = await validation([image("https://example.com/big.png")], async () => big);
    expect(fetched.code).toBe("ImageTooLarge");
  });

  it("lets the caller's fetch errors through and wraps transport failures", async () => {
    const refused = new ValidationError("That address is private", [{ field: "url", message: "private" }], "UnsafeUrl");
    const error = await validation([image("https://10.0.0.1/x.png")], async () => {
      throw refused;
    });
    expect(error).toBe(refused);
    const failed = await validation([image("https://example.com/x.png")], async () => {
      throw new Error("socket hang up");
    });
    expect(failed.code).toBe("ImageFetchFailed");
    expect(failed.message).toContain("socket hang up");
  });

  it("reports every bad image of a stack together", async () => {
    const error = await validation([
      {
        placeholder: "{%Logo}",
        mimeType: "image",
        variableStack: [
          { text: "nope!", mimeType: "image" },
          { text: dataUrl(png(2, 2)), mimeType: "image" },
          { text: Buffer.from("GIF").toString("base64"), mimeType: "image" },
        ],
      },
    ]);
    expect(error.issues.map((i) => i.field)).toEqual(["variables.0.variableStack.0.text", "variables.0.variableStack.2.text"]);
  });
});

describe("renderTemplate: templates", () => {
  it("says why a stack cannot repeat the paragraph that opens a section (the section would no longer balance)", async () => {
    const file = buildDocx(["{#S}{Line}", "{/S}"]);
    const error = await validation(
      [
        {
          placeholder: "{Line}",
          mimeType: "text",
          variableStack: [
            { text: "a", mimeType: "text" },
            { text: "b", mimeType: "text" },
          ],
        },
      ],
      noFetch,
      file,
    );
    expect(error.code).toBe("StackNotSupported");
    expect(error.message).toMatch(/^\{Line\} has a variableStack, which repeats its whole paragraph, and that paragraph also holds \{#S\}/);
    expect(error.issues.length).toBeGreaterThan(0);
  });

  it("refuses a file that is not a template", async () => {
    const error = await validation([], noFetch, Buffer.from("hello"));
    expect(error.code).toBe("TemplateUnsupportedType");
  });

  it("renders the sample when every variable is fine", async () => {
    await expect(renderTemplate(await buildSampleContractDocx(), "docx", [text("{ClientName}")], { fetchImage: noFetch })).resolves.toMatchObject({
      missingPlaceholders: expect.arrayContaining(["{Fee}"]),
    });
  });
});

describe("deep nesting", () => {
  it("refuses markdown and html nested past the limit with a 400 naming the placeholder, and renders what is within it", async () => {
    const template = docx(para("{@Body}"));
    for (const [mimeType, text] of [
      ["markdown", `${">".repeat(5_000)} deep`],
      ["html", `${"<div>".repeat(5_000)}deep${"</div>".repeat(5_000)}`],
      ["markdown", Array.from({ length: 300 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n")],
    ] as const) {
      const err = await rejection(renderTemplate(template, "docx", [{ placeholder: "{@Body}", text, mimeType }], { fetchImage: noFetch }));
      expect(err).toMatchObject({ code: "NestingTooDeep" });
      expect(err.message).toMatch(/\{@Body\}.*nested \d+ levels deep; at most 100/);
    }
    const ok = await renderTemplate(template, "docx", [{ placeholder: "{@Body}", text: `${">".repeat(50)} fine`, mimeType: "markdown" }], {
      fetchImage: noFetch,
    });
    expect(ok.file.length).toBeGreaterThan(0);
  });
});

describe("template text Word writes that is not template content", () => {
  it("ignores a { in the document properties, and leaves them as they were", async () => {
    const { withParts, documentXml, visibleText } = await import("./render-fixtures");
    const core =
      '<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Offer {draft</dc:title><dc:creator>{Name}</dc:creator></cp:coreProperties>';
    const template = withParts(docx(para("Dear {Name}")), { "docProps/core.xml": core });
    const { file } = await renderTemplate(template, "docx", [{ placeholder: "{Name}", text: "Ada", mimeType: "text" }], { fetchImage: noFetch });
    expect(visibleText(documentXml(file))).toContain("Dear Ada");
    const PizZip = (await import("pizzip")).default;
    expect(new PizZip(file).file("docProps/core.xml")!.asText()).toBe(core);
  });

  it("copies the document properties' entries byte for byte (date, checksum, compressed data), not inflated and written again", async () => {
    const PizZip = (await import("pizzip")).default;
    const zip = new PizZip(docx(para("Dear {Name}")));
    // A date no fresh entry could carry: a rewritten entry would take today's.
    zip.file("docProps/app.xml", `<?xml version="1.0"?><Properties><Company>${"Acme ".repeat(40)}</Company></Properties>`, {
      date: new Date(2001, 1, 3, 4, 5, 6),
    });
    const template = zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
    const { file } = await renderTemplate(template, "docx", [{ placeholder: "{Name}", text: "Ada", mimeType: "text" }], { fetchImage: noFetch });
    expect(localEntry(file, "docProps/app.xml")).toEqual(localEntry(template, "docProps/app.xml"));
  });

  it('names a {=…} tag and where it is, instead of "Cannot parser delimiters"', async () => {
    const { inspectTemplate } = await import("@/lib/templates/inspect");
    const err = await rejection(inspectTemplate(docx(para("Total: {= price * 2}")), "formula.docx", { maxBytes: 1e7 }));
    expect(err).toMatchObject({ code: "TemplateTagError" });
    expect(err.message).toContain('"{= price * 2}" (word/document.xml) starts with "="');
    expect(err.message).not.toMatch(/Cannot parser/);
  });

  it("says exactly why a variableStack cannot share its table row with a section", async () => {
    const cell = (t: string) => `<w:tc>${para(t)}</w:tc>`;
    const template = docx(`<w:tbl><w:tr>${cell("{#vip}VIP")}${cell("{Item}{/vip}")}</w:tr></w:tbl>`);
    const err = await rejection(
      renderTemplate(
        template,
        "docx",
        [
          {
            placeholder: "{Item}",
            mimeType: "text",
            variableStack: [
              { text: "a", mimeType: "text" },
              { text: "b", mimeType: "text" },
            ],
          },
        ],
        { fetchImage: noFetch },
      ),
    );
    expect(err).toMatchObject({ code: "StackNotSupported" });
    expect(err.message).toContain("{Item} has a variableStack, which repeats its whole table row, and that table row also holds {#vip}");
  });
});

/** A ZIP entry as its local header stores it: DOS time and date, CRC-32, sizes, and its (compressed) bytes. */
function localEntry(zip: Buffer, name: string): { header: string; data: string } {
  const nameAt = zip.indexOf(Buffer.from(name, "latin1"));
  const header = nameAt - 30;
  expect(zip.readUInt32LE(header), `a local file header for ${name}`).toBe(0x04034b50);
  const compressedSize = zip.readUInt32LE(header + 18);
  const dataAt = nameAt + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
  return { header: zip.subarray(header + 8, header + 26).toString("hex"), data: zip.subarray(dataAt, dataAt + compressedSize).toString("hex") };
}

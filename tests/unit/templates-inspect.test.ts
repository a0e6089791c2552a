import { deflateRawSync } from "node:zlib";
import PizZip from "pizzip";
import { describe, expect, it } from "vitest";
import { inspectTemplate } from "@/lib/templates/inspect";
import { TemplateFileError, type TemplateFileErrorCode } from "@/lib/templates/template-file-errors";
import { buildSampleContractDocx, buildSampleProposalPptx } from "@/lib/templates/samples";
import { deflatedZeros, writeZip } from "../support/zip";

const MAX = 10 * 1024 * 1024;
const W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const DOCX_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml";

function contentTypes(overrides: Record<string, string>): string {
  const items = Object.entries(overrides)
    .map(([part, type]) => `<Override PartName="/${part}" ContentType="${type}"/>`)
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${items}</Types>`;
}

const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/** A minimal DOCX whose body is `bodyXml`; extra parts (headers, footers) are listed in the content types. */
function docx(bodyXml: string, extraParts: Record<string, [contentType: string, xml: string]> = {}): Buffer {
  const zip = new PizZip();
  const overrides = Object.fromEntries(Object.entries(extraParts).map(([path, [type]]) => [path, type]));
  zip.file("[Content_Types].xml", contentTypes({ "word/document.xml": DOCX_MAIN, ...overrides }));
  zip.file("_rels/.rels", ROOT_RELS);
  zip.file("word/document.xml", `<?xml version="1.0" encoding="UTF-8"?><w:document ${W_NS}><w:body>${bodyXml}</w:body></w:document>`);
  for (const [path, [, xml]] of Object.entries(extraParts)) zip.file(path, xml);
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}

const para = (...runs: string[]) => `<w:p>${runs.map((t) => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`).join("")}</w:p>`;

async function rejection(file: Buffer, fileName: string, maxBytes = MAX): Promise<TemplateFileError> {
  const error = await inspectTemplate(file, fileName, { maxBytes }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TemplateFileError);
  return error as TemplateFileError;
}

async function expectRejected(file: Buffer, fileName: string, code: TemplateFileErrorCode, message: RegExp) {
  const error = await rejection(file, fileName);
  expect(error.code).toBe(code);
  expect(error.kind).toBe("validation");
  expect(error.message).toMatch(message);
  expect(error.issues.length).toBeGreaterThan(0);
  expect(error.issues.every((issue) => issue.field === "file")).toBe(true);
  return error;
}

async function placeholdersOf(file: Buffer, fileName = "t.docx") {
  return (await inspectTemplate(file, fileName, { maxBytes: MAX })).placeholders;
}

describe("inspectTemplate: accepted files", () => {
  it("reports kind, MIME type and size of a DOCX", async () => {
    const file = docx(para("Dear {ClientName},"));
    const result = await inspectTemplate(file, "Letter.DOCX", { maxBytes: MAX });
    expect(result).toEqual({
      fileType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      kind: "docx",
      fileSize: file.length,
      placeholders: [{ placeholder: "{ClientName}", name: "ClientName", kind: "text" }],
    });
  });

  it("joins a tag that Word split across runs", async () => {
    const body = "<w:p><w:r><w:t>Dear {Client</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>Name}, hello</w:t></w:r></w:p>";
    expect(await placeholdersOf(docx(body))).toEqual([{ placeholder: "{ClientName}", name: "ClientName", kind: "text" }]);
  });

  it("lists each placeholder once, in reading order, with prefixes kept in the tag only", async () => {
    const body = [
      para("{%Logo}"),
      para("From {Sender} to {Client}, again {Client} and { Spaced }"),
      para("{@Body}"),
      para("{#items}"),
      para("{name} costs {price}"),
      para("{/items}"),
      para("{^items}Nothing ordered{/items}"),
    ].join("");
    expect(await placeholdersOf(docx(body))).toEqual([
      { placeholder: "{%Logo}", name: "Logo", kind: "image" },
      { placeholder: "{Sender}", name: "Sender", kind: "text" },
      { placeholder: "{Client}", name: "Client", kind: "text" },
      { placeholder: "{ Spaced }", name: "Spaced", kind: "text" },
      { placeholder: "{@Body}", name: "Body", kind: "html" },
      { placeholder: "{#items}", name: "items", kind: "loop", data: ["items"], fields: ["name", "price"] },
      { placeholder: "{name}", name: "name", kind: "text", loop: "items" },
      { placeholder: "{price}", name: "price", kind: "text", loop: "items" },
      { placeholder: "{^items}", name: "items", kind: "condition", data: ["items"] },
    ]);
  });

  it("reads headers and footers, header first and footer last", async () => {
    const part = (root: string, text: string) => `<?xml version="1.0"?><w:${root} ${W_NS}>${para(text)}</w:${root}>`;
    const file = docx(para("{Body}"), {
      "word/footer1.xml": ["application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml", part("ftr", "Page footer {Footer}")],
      "word/header1.xml": ["application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml", part("hdr", "{Header}")],
    });
    expect((await placeholdersOf(file)).map((p) => p.name)).toEqual(["Header", "Body", "Footer"]);
  });

  it("reads PPTX slides in slide order", async () => {
    const result = await inspectTemplate(await buildSampleProposalPptx(), "deck.pptx", { maxBytes: MAX });
    expect(result.kind).toBe("pptx");
    expect(result.fileType).toBe("application/vnd.openxmlformats-officedocument.presentationml.presentation");
    expect(result.placeholders.map((p) => p.placeholder)).toEqual(["{ProposalTitle}", "{ClientName}", "{PreparedBy}", "{Summary}", "{Price}"]);
  });

  it("accepts a document without placeholders", async () => {
    expect(await placeholdersOf(docx(para("No tags here")))).toEqual([]);
  });
});

describe("inspectTemplate: rejected files", () => {
  it("rejects an empty file", async () => {
    await expectRejected(Buffer.alloc(0), "a.docx", "TemplateEmpty", /empty/);
  });

  it("rejects a file over the size limit before reading it", async () => {
    const error = await rejection(Buffer.alloc(2048, 1), "a.docx", 1024);
    expect(error.code).toBe("TemplateTooLarge");
    expect(error.message).toBe("The file is 2 KB, over the 1 KB limit");
  });

  it("rejects unsupported extensions", async () => {
    await expectRejected(docx(para("{A}")), "notes.txt", "TemplateUnsupportedType", /"\.txt" files are not supported/);
    await expectRejected(docx(para("{A}")), "README", "TemplateUnsupportedType", /no extension/);
  });

  it("says so when a PDF is uploaded, whatever its name", async () => {
    const pdf = Buffer.from("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n");
    await expectRejected(pdf, "contract.docx", "TemplateUnsupportedType", /^The file is a PDF, not a DOCX or PPTX$/);
    await expectRejected(pdf, "contract.pdf", "TemplateUnsupportedType", /^The file is a PDF, not a DOCX or PPTX$/);
  });

  it("recognises legacy or password-protected Office files", async () => {
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
    await expectRejected(ole, "old.docx", "TemplateUnsupportedType", /legacy Office file .* password-protected/);
  });

  it("rejects random bytes", async () => {
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251));
    await expectRejected(random, "a.docx", "TemplateUnsupportedType", /not a valid DOCX\/PPTX \(Office Open XML\) file/);
  });

  it("rejects a truncated DOCX as corrupt", async () => {
    const file = await buildSampleContractDocx();
    await expectRejected(file.subarray(0, Math.floor(file.length / 2)), "a.docx", "TemplateCorrupt", /damaged or incomplete/);
  });

  it("rejects a PPTX renamed .docx, naming both types", async () => {
    await expectRejected(
      await buildSampleProposalPptx(),
      "proposal.docx",
      "TemplateUnsupportedType",
      /is a PowerPoint presentation \(PPTX\), not a Word document \(DOCX\).*rename it to \.pptx/,
    );
  });

  it("rejects a DOCX renamed .pptx", async () => {
    await expectRejected(await buildSampleContractDocx(), "c.pptx", "TemplateUnsupportedType", /is a Word document \(DOCX\), not a PowerPoint/);
  });

  it("rejects ZIPs that are not Office documents", async () => {
    const plain = new PizZip().file("hello.txt", "hi").generate({ type: "nodebuffer" });
    await expectRejected(plain, "a.docx", "TemplateUnsupportedType", /ZIP archive, not a DOCX or PPTX/);

    const xlsx = new PizZip()
      .file("[Content_Types].xml", contentTypes({ "xl/workbook.xml": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml" }))
      .file("xl/workbook.xml", "<workbook/>")
      .generate({ type: "nodebuffer" });
    await expectRejected(xlsx, "a.docx", "TemplateUnsupportedType", /Excel spreadsheet/);
  });

  it("rejects a package whose main part is missing", async () => {
    const zip = new PizZip(docx(para("x")));
    zip.remove("word/document.xml");
    await expectRejected(zip.generate({ type: "nodebuffer" }), "a.docx", "TemplateCorrupt", /word\/document\.xml is missing/);
  });

  it("rejects malformed XML as corrupt, naming the part", async () => {
    await expectRejected(docx("<w:p><w:r><w:t>{A}</w:t></w:r></w:body>"), "a.docx", "TemplateCorrupt", /word\/document\.xml is not well-formed XML/);
  });

  it("rejects a zip bomb from its declared sizes, before inflating", async () => {
    const size = 300 * 1024 * 1024;
    const bomb = writeZip([{ name: "word/media/zeros.bin", data: await deflatedZeros(size), uncompressedSize: size }]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const error = await expectRejected(bomb, "bomb.docx", "TemplateZipBomb", /zip bomb.*word\/media\/zeros\.bin.*300 MB/);
    expect(error.issues[0].message).toBe(error.message);
  });

  it("rejects archives whose declared total is too large even at a modest ratio", async () => {
    const mb = 1024 * 1024;
    const entries = [1, 2, 3].map((n) => ({ name: `part${n}.bin`, data: Buffer.alloc(16), uncompressedSize: 80 * mb, compressedSize: mb }));
    await expectRejected(writeZip(entries), "a.docx", "TemplateZipBomb", /expands to 240 MB/);
  });

  it("rejects archives with too many entries", async () => {
    const zip = new PizZip();
    for (let i = 0; i < 2001; i++) zip.file(`f${i}.xml`, "<a/>");
    await expectRejected(zip.generate({ type: "nodebuffer" }), "a.docx", "TemplateZipBomb", /2001 entries/);
  });

  it("stops inflating an entry that is larger than its directory says", async () => {
    const data = deflateRawSync(Buffer.alloc(5 * 1024 * 1024));
    const liar = writeZip([{ name: "[Content_Types].xml", data, uncompressedSize: 1000 }]);
    await expectRejected(liar, "a.docx", "TemplateZipBomb", /expands beyond its declared size/);
  });
});

describe("inspectTemplate: placeholder errors", () => {
  it("reports an unclosed tag with where it is", async () => {
    const error = await expectRejected(
      docx(para("Dear {Client")),
      "a.docx",
      "TemplateTagError",
      /^Unbalanced braces: "\{Client" is never closed \(word\/document\.xml\)$/,
    );
    expect(error.issues).toEqual([{ field: "file", message: error.message }]);
  });

  it("reports an unopened tag", async () => {
    await expectRejected(docx(para("Dear Name} x")), "a.docx", "TemplateTagError", /"Name\}" has no opening brace \(word\/document\.xml\)/);
  });

  it("reports doubled braces", async () => {
    await expectRejected(docx(para("Dear {{x}")), "a.docx", "TemplateTagError", /Doubled braces: "\{\{x\}" opens twice/);
  });

  it("reports an empty tag", async () => {
    await expectRejected(docx(para("Dear {}")), "a.docx", "TemplateTagError", /Empty placeholder: "\{\}"/);
  });

  it("reports section and raw-tag mistakes", async () => {
    await expectRejected(docx(para("{#items} x")), "a.docx", "TemplateTagError", /"\{#items\}" has no matching "\{\/items\}"/);
    await expectRejected(docx(para("{#a} x {/b}")), "a.docx", "TemplateTagError", /"\{#a\}" is closed by "\{\/b\}"/);
    await expectRejected(docx(para("Scope: {@Scope}")), "a.docx", "TemplateTagError", /"\{@Scope\}" must be alone in its own paragraph/);
  });

  it("lists every bad tag as its own issue", async () => {
    const error = await rejection(docx(para("Dear {{x}") + para("and {Client")), "a.docx");
    expect(error.code).toBe("TemplateTagError");
    expect(error.issues).toHaveLength(2);
    expect(error.message).toMatch(/^The template has 2 placeholder errors: /);
    expect(error.issues.map((issue) => issue.message).join("\n")).toMatch(/\{\{x\}[\s\S]*\{Client/);
  });
});

// Advanced templates (docs/contract.md "Advanced templating"): dot paths, paragraph, table-row and nested
// loops, conditions and expressions, with JSON data in a variable's value. Read back from the DOCX
// XML (and, where LibreOffice is installed, the PDF text): values present, and a false condition or an
// empty loop leaves no empty paragraph or table row.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { renderTemplate, type VariableInput } from "@/lib/deliverables/render";
import { inspectTemplate } from "@/lib/templates/inspect";
import type { TemplateFileError } from "@/lib/templates/template-file-errors";
import { docx, documentXml, expectWellFormed, noFetch, para, rejection, visibleText } from "./render-fixtures";

const run = promisify(execFile);

function render(template: Buffer, variables: VariableInput[]) {
  return renderTemplate(template, "docx", variables, { fetchImage: noFetch });
}

const json = (placeholder: string, value: unknown): VariableInput => ({ placeholder, value: JSON.stringify(value), mimeType: "text" });

const cell = (text: string) => `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>${para(text)}</w:tc>`;
const row = (...cells: string[]) => `<w:tr>${cells.map(cell).join("")}</w:tr>`;
const table = (...rows: string[]) => `<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/></w:tblPr>${rows.join("")}</w:tbl>`;

/** Paragraphs of the body, as their visible text ("" for an empty one), table cells included. */
function paragraphTexts(xml: string): string[] {
  return (xml.match(/<w:p\b[^>]*\/>|<w:p\b[^>]*>[\s\S]*?<\/w:p>/g) ?? []).map((p) => visibleText(p).trim());
}

const rowsOf = (xml: string) => (xml.match(/<w:tr\b[\s\S]*?<\/w:tr>/g) ?? []).map((r) => visibleText(r).replace(/\n+/g, "|").replace(/\|$/, ""));

const INVOICE = docx(
  [
    para("Invoice for {client.name}"),
    para("{client.address.street}, {client.address.city}"),
    para("{#vip}Priority customer{/vip}"),
    para("{^vip}Standard terms apply{/vip}"),
    table(row("Item", "Qty", "Amount"), row("{#items}{name}", "{quantity}", "{price * quantity}{/items}")),
    para("{#items}"),
    para("- {name}{#notes}: {notes}{/notes}"),
    para("{/items}"),
    para("{#total > 1000}Large order: payment in two parts{/total > 1000}"),
    para("Total: {total}"),
    para("Thank you."),
  ].join(""),
);

describe("advanced templates", () => {
  it("lists each construct with its kind, data names and a loop's fields", async () => {
    const { placeholders } = await inspectTemplate(INVOICE, "invoice.docx", { maxBytes: 1e7 });
    const byTag = Object.fromEntries(placeholders.map((p) => [p.placeholder, p]));
    expect(byTag["{client.name}"]).toMatchObject({ kind: "path", data: ["client"] });
    expect(byTag["{#vip}"]).toMatchObject({ kind: "condition", data: ["vip"] });
    expect(byTag["{^vip}"]).toMatchObject({ kind: "condition", data: ["vip"] });
    expect(byTag["{#items}"]).toMatchObject({ kind: "loop", data: ["items"], fields: ["name", "quantity", "price * quantity", "notes"] });
    expect(byTag["{price * quantity}"]).toMatchObject({ kind: "expression", loop: "items" });
    expect(byTag["{#total > 1000}"]).toMatchObject({ kind: "condition", data: ["total"] });
    expect(byTag["{total}"]).toMatchObject({ kind: "text" });
  });

  it("fills paths, table-row and paragraph loops, conditions and expressions, leaving no empty paragraph or row", async () => {
    const items = [
      { name: "Design", quantity: 2, price: 400, notes: "two rounds" },
      { name: "Build", quantity: 3, price: 250 },
    ];
    const { file, missingPlaceholders } = await render(INVOICE, [
      json("{client}", { name: "Initech", address: { street: "1 Main St", city: "Springfield" } }),
      json("{vip}", false),
      json("{items}", items),
      { placeholder: "{total}", value: "1550", mimeType: "text" },
    ]);
    const xml = documentXml(file);
    expectWellFormed(xml);
    expect(missingPlaceholders).toEqual([]);
    expect(paragraphTexts(xml)).toEqual([
      "Invoice for Initech",
      "1 Main St, Springfield",
      "Standard terms apply",
      "Item",
      "Qty",
      "Amount",
      "Design",
      "2",
      "800",
      "Build",
      "3",
      "750",
      "- Design: two rounds",
      "- Build",
      "Large order: payment in two parts",
      "Total: 1550",
      "Thank you.",
    ]);
    expect(rowsOf(xml)).toEqual(["Item|Qty|Amount", "Design|2|800", "Build|3|750"]);
  });

  it("drops the rows and paragraphs of an empty loop and a false condition", async () => {
    const { file } = await render(INVOICE, [
      json("{client}", { name: "Initech" }),
      json("{vip}", true),
      json("{items}", []),
      { placeholder: "{total}", text: "10", mimeType: "text" },
    ]);
    const xml = documentXml(file);
    expectWellFormed(xml);
    expect(rowsOf(xml)).toEqual(["Item|Qty|Amount"]);
    // The street line keeps its comma (only section paragraphs are dropped); nothing else is blank.
    expect(paragraphTexts(xml)).toEqual(["Invoice for Initech", ",", "Priority customer", "Item", "Qty", "Amount", "Total: 10", "Thank you."]);
  });

  it("repeats nested loops and reads the outer item from the inner one", async () => {
    const template = docx(
      [para("{#teams}"), para("Team {name}"), para("{#members}"), para("{name} ({role}) of {team}"), para("{/members}"), para("{/teams}")].join(""),
    );
    const { file } = await render(template, [
      json("{teams}", [
        {
          name: "Red",
          team: "R",
          members: [
            { name: "Ann", role: "lead" },
            { name: "Bo", role: "dev" },
          ],
        },
        { name: "Blue", team: "B", members: [] },
      ]),
    ]);
    expect(paragraphTexts(documentXml(file))).toEqual(["Team Red", "Ann (lead) of R", "Bo (dev) of R", "Team Blue"]);
  });

  it("keeps a table cell valid when its only paragraph was an emptied condition", async () => {
    const template = docx(table(row("Name", "{#flag}Flagged{/flag}")) + para("after"));
    const xml = documentXml((await render(template, [json("{flag}", false)])).file);
    expectWellFormed(xml);
    for (const c of xml.match(/<w:tc>[\s\S]*?<\/w:tc>/g) ?? []) expect(c).toMatch(/<w:p\b[\s\S]*<\/w:p>\s*<\/w:tc>$/);
    expect(xml).not.toContain("data-quire-section");
  });

  it("takes value as an alias of text, and refuses both when they differ", async () => {
    const template = docx(para("Dear {Name}"));
    expect(visibleText(documentXml((await render(template, [{ placeholder: "{Name}", value: "Ada", mimeType: "text" }])).file))).toContain("Dear Ada");
    expect(visibleText(documentXml((await render(template, [{ placeholder: "{Name}", value: "Ada", text: "Ada", mimeType: "text" }])).file))).toContain(
      "Dear Ada",
    );
    const err = await rejection(render(template, [{ placeholder: "{Name}", value: "Ada", text: "Bob", mimeType: "text" }]));
    expect(err).toMatchObject({ code: "TextValueConflict" });
    expect(err.message).toContain("{Name}");
  });

  it("answers 400s naming the placeholder and the path: invalid JSON, mixed with a stack, data of the wrong shape", async () => {
    const bad = await rejection(render(INVOICE, [{ placeholder: "{client}", value: "{name: Initech}", mimeType: "text" }]));
    expect(bad).toMatchObject({ code: "InvalidJsonValue" });
    expect(bad.message).toMatch(/\{client\}.*JSON/);

    const mixed = await rejection(
      render(INVOICE, [{ placeholder: "{items}", value: "[]", mimeType: "text", variableStack: [{ text: "x", mimeType: "text" }] }]),
    );
    expect(mixed).toMatchObject({ code: "AdvancedVariableMixed" });
    expect(mixed.message).toContain("{items}");

    const shape = await rejection(render(INVOICE, [json("{client}", { name: "Initech", address: "1 Main St, Springfield" })]));
    expect(shape).toMatchObject({ code: "DataShapeMismatch" });
    expect(shape.message).toContain("client.address");
    expect(shape.message).toContain("{client.address.street}");

    const items = await rejection(render(INVOICE, [json("{items}", ["Design", { name: "Build" }])]));
    expect(items).toMatchObject({ code: "DataShapeMismatch" });
    expect(items.message).toContain("items.0");

    const notAList = await rejection(render(INVOICE, [json("{items}", "Design")]));
    expect(notAList.message).toMatch(/items is the text "Design"/);
  });

  it("evaluates expressions without running code or writing data", async () => {
    const template = docx(para('{a + b} {name | upper} {a / b | fixed:2} {tags | join:" / "} {note | default:"none"}') + para("{items.length} items"));
    const { file } = await render(template, [json("{a}", 2), json("{b}", 3), json("{name}", "ada"), json("{tags}", ["x", "y"]), json("{items}", [1, 2])]);
    const text = visibleText(documentXml(file));
    expect(text).toContain("5 ADA 0.67 x / y none");
    expect(text).toContain("2 items");
    for (const [tag, why] of [
      ["{x.__proto__.polluted = 1}", /assignments are not allowed/],
      ["{total = 0}", /assignments are not allowed/],
      ["{constructor.constructor('return process')()}", /internals/],
      ["{client.prototype}", /internals/],
    ] as const) {
      const err = await rejection<TemplateFileError>(inspectTemplate(docx(para(tag)), "evil.docx", { maxBytes: 1e7 }));
      expect(err, tag).toMatchObject({ code: "TemplateTagError" });
      expect(err.message, tag).toMatch(why);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A data key named __proto__ is only data.
    const proto = await render(docx(para("{o.__proto__}")), [{ placeholder: "{o}", value: '{"__proto__": {"polluted": true}}', mimeType: "text" }]).catch(
      (e: Error) => e,
    );
    expect(proto).toBeInstanceOf(Error);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reads a tag the same way on every render, from the verdict it remembers (a name that only looks like an expression, a real one, one too long to remember)", async () => {
    const long = `Note: ${"n".repeat(220)}`;
    const template = docx(para(`{Fee: total} / {a + b} / {${long}}`));
    const variables = [
      { placeholder: "{Fee: total}", text: "100 EUR", mimeType: "text" as const },
      json("{a}", 2),
      json("{b}", 3),
      { placeholder: `{${long}}`, text: "long one", mimeType: "text" as const },
    ];
    for (let i = 0; i < 3; i++)
      expect(visibleText(documentXml((await render(template, variables)).file)), `render ${i + 1}`).toContain("100 EUR / 5 / long one");
  });

  it("refuses at upload an expression that does not parse, saying where", async () => {
    const err = await rejection<TemplateFileError>(inspectTemplate(docx(para("Amount: {price * }")), "broken.docx", { maxBytes: 1e7 }));
    expect(err).toMatchObject({ code: "TemplateTagError" });
    expect(err.message).toMatch(/\{price \*\s?\} is not a valid expression.*word\/document\.xml/);
    // A name with punctuation that is not an expression stays a plain name.
    const { placeholders } = await inspectTemplate(docx(para("{Company (legal name)} {First-Name}")), "names.docx", { maxBytes: 1e7 });
    expect(placeholders.map((p) => p.kind)).toEqual(["text", "text"]);
  });

  it("prints the filled invoice with no blank lines where content was dropped (LibreOffice, pdftotext)", async () => {
    const { file } = await render(INVOICE, [
      json("{client}", { name: "Initech", address: { street: "1 Main St", city: "Springfield" } }),
      json("{vip}", false),
      json("{items}", [{ name: "Design", quantity: 2, price: 400 }]),
      { placeholder: "{total}", value: "800", mimeType: "text" },
    ]);
    const dir = await mkdtemp(path.join(tmpdir(), "quire-advanced-"));
    try {
      await writeFile(path.join(dir, "out.docx"), file);
      await run("soffice", ["--headless", `-env:UserInstallation=file://${dir}/profile`, "--convert-to", "pdf", "--outdir", dir, path.join(dir, "out.docx")], {
        timeout: 90_000,
      });
      expect((await readFile(path.join(dir, "out.pdf"))).subarray(0, 5).toString()).toBe("%PDF-");
      const { stdout } = await run("pdftotext", ["-layout", path.join(dir, "out.pdf"), "-"]);
      const lines = stdout.split("\n").map((l) => l.trim());
      const body = lines.slice(
        lines.findIndex((l) => l.startsWith("Invoice")),
        lines.findIndex((l) => l.startsWith("Thank you")) + 1,
      );
      expect(body.join("\n")).toMatch(
        /Invoice for Initech\n1 Main St, Springfield\nStandard terms apply\n[\s\S]*Design\s+2\s+800[\s\S]*- Design\nTotal: 800\nThank you\./,
      );
      expect(body.join("\n")).not.toContain("Priority");
      expect(body.join("\n")).not.toContain("Large order");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

// Advanced templates over HTTP: the seeded invoice reports its placeholders' kinds, generates from JSON
// data in `value` (read back from the PDF), refuses bad data with 400s that change nothing, and the
// template doctor answers POST /template/{id}/check.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import PizZip from "pizzip";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { SAMPLE_INVOICE_DATA } from "@/lib/templates/samples";
import { as } from "../support/helpers";
import { buildDocx } from "../support/ooxml";

const { baseUrl, seed, other } = inject("quire");
const user = as(baseUrl, seed, "user");
const viewer = as(baseUrl, seed, "viewer");
const contributor = as(baseUrl, seed, "contributor");
let invoiceId: string;

const invoiceVariables = (data: Record<string, unknown> = SAMPLE_INVOICE_DATA) =>
  Object.entries(data).map(([name, value]) => ({ placeholder: `{${name}}`, value: JSON.stringify(value), mimeType: "text" }));

function pdfText(pdf: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-adv-")), "d.pdf");
  fs.writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

async function deliverableCount(): Promise<number> {
  return (await user("/v1/deliverable?limit=1")).json.data.totalRecords;
}

beforeAll(async () => {
  invoiceId = (await user("/template-item?type=template&query=Invoice")).json.data.results.find((t: { name: string }) => t.name === "Invoice").id;
});

describe("advanced templates over HTTP", () => {
  it("GET /template/{id} reports each placeholder's kind, data names and a loop's fields", async () => {
    const res = await viewer(`/template/${invoiceId}`);
    expect(res.status).toBe(200);
    const byTag = Object.fromEntries(res.json.data.variables.map((v: { placeholder: string }) => [v.placeholder, v]));
    expect(byTag["{client.name}"]).toMatchObject({ kind: "path", data: ["client"] });
    expect(byTag["{#items}"]).toMatchObject({
      kind: "loop",
      data: ["items"],
      fields: ["description", "quantity", "unitPrice | fixed:2", "quantity * unitPrice | fixed:2"],
    });
    expect(byTag["{quantity * unitPrice | fixed:2}"]).toMatchObject({ kind: "expression", loop: "items" });
    expect(byTag["{#invoice.subtotal > 10000}"]).toMatchObject({ kind: "condition", data: ["invoice"] });
  });

  it("generates the invoice from JSON data in value: paths, a table-row loop, conditions and expressions in the PDF", async () => {
    const res = await user("/v1/deliverable", {
      method: "POST",
      body: {
        name: "Invoice 42",
        templateId: invoiceId,
        variables: invoiceVariables({ ...SAMPLE_INVOICE_DATA, invoice: { ...SAMPLE_INVOICE_DATA.invoice, subtotal: 12000, paid: true } }),
      },
    });
    expect(res.status, res.text).toBe(200);
    const id = res.json.data.results.deliverable.id;
    const pdf = await fetch(`${baseUrl}/v1/deliverable/file/pdf/${id}`, {
      headers: { authorization: `Bearer ${seed.keys.user}`, "x-service-org-id": seed.orgId },
    });
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    for (const expected of ["Invoice 2026-0042", "Bill to: Initech GmbH", "VAT ID: DE123456789", "Total: 14400.00 EUR", "Paid in full: thank you."])
      expect(text).toContain(expected);
    expect(text).toMatch(/Design iterations\s+4\s+250\.00\s+1000\.00/);
    expect(text.replace(/\s+/g, " ")).toContain("may be paid in two instalments");
    expect(text).not.toMatch(/Please pay within|\{|\}/);
  });

  it("refuses invalid JSON, data of the wrong shape and text/value conflicts with 400s naming them, writing nothing", async () => {
    const before = await deliverableCount();
    const cases: [object[], string, RegExp][] = [
      [[{ placeholder: "{client}", value: "{not json", mimeType: "text" }], "InvalidJsonValue", /\{client\}/],
      [[{ placeholder: "{client}", value: JSON.stringify({ address: "Berlin" }), mimeType: "text" }], "DataShapeMismatch", /client\.address/],
      [[{ placeholder: "{items}", value: JSON.stringify(["Design"]), mimeType: "text" }], "DataShapeMismatch", /items\.0/],
      [[{ placeholder: "{items}", value: "[]", mimeType: "text", variableStack: [{ text: "x", mimeType: "text" }] }], "AdvancedVariableMixed", /\{items\}/],
      [[{ placeholder: "{invoice}", value: "{}", text: "[]", mimeType: "text" }], "TextValueConflict", /\{invoice\}/],
    ];
    for (const [variables, code, mentions] of cases) {
      const res = await user("/v1/deliverable", { method: "POST", body: { name: "Bad invoice", templateId: invoiceId, variables } });
      expect(res.status, `${code}: ${res.text}`).toBe(400);
      expect(res.json.error, res.text).toBe(code);
      expect(res.text).toMatch(mentions);
    }
    expect(await deliverableCount()).toBe(before);
  });

  it("refuses at upload a template whose expression does not parse, saying where", async () => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(buildDocx(["Total: {price * }"]))]), "broken.docx");
    const res = await contributor("/template", { method: "POST", body: form });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/is not a valid expression.*word\/document\.xml/);
  });

  it("POST /template/{id}/check: no findings on the invoice; a tag in a comment found on another; org and id checked", async () => {
    const clean = await viewer(`/template/${invoiceId}/check`, { method: "POST" });
    expect(clean.status, clean.text).toBe(200);
    expect(clean.json.data).toEqual({ templateId: invoiceId, findings: [], fontsChecked: true });

    const zip = new PizZip(buildDocx(["{#vip}", "Priority", "Thanks {/vip}"]));
    zip.file(
      "word/comments.xml",
      '<?xml version="1.0"?><w:comments xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:comment w:id="0"><w:p><w:r><w:t>ask about {Fee}</w:t></w:r></w:p></w:comment></w:comments>',
    );
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(zip.generate({ type: "nodebuffer" }))]), "doctor.docx");
    const uploaded = await contributor("/template", { method: "POST", body: form });
    expect(uploaded.status, uploaded.text).toBe(201);
    const found = await user(`/template/${uploaded.json.data.id}/check`, { method: "POST" });
    const findings = found.json.data.findings as { code: string; location: string; severity: string }[];
    expect(
      findings
        .filter((f) => f.severity === "warning")
        .map((f) => [f.code, f.location])
        .sort(),
    ).toEqual([
      ["BlankLineLeft", "word/document.xml, paragraph 1"],
      ["TagNotFilled", "word/comments.xml"],
    ]);
    // The fixture has no styles: Word's default, Times New Roman, stands in as its metric twin.
    expect(findings.filter((f) => f.severity === "info").map((f) => f.code)).toEqual(["FontSubstituted"]);

    expect((await as(baseUrl, other, "administrator")(`/template/${invoiceId}/check`, { method: "POST" })).status).toBe(404);
    expect((await user("/template/not-a-uuid/check", { method: "POST" })).status).toBe(404);
  });
});

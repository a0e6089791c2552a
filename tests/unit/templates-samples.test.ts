import { execFile, execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { renderTemplate } from "@/lib/deliverables/render";
import { inspectTemplate } from "@/lib/templates/inspect";
import {
  buildSampleContractDocx,
  buildSampleInvoiceDocx,
  buildSampleProposalPptx,
  SAMPLE_CONTRACT_ANCHORS,
  SAMPLE_INVOICE_DATA,
  SAMPLE_TEMPLATES,
} from "@/lib/templates/samples";

const run = promisify(execFile);
const hasCommand = (name: string) => {
  try {
    execFileSync("which", [name], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};
const hasSoffice = hasCommand("soffice");
const hasPdftotext = hasCommand("pdftotext");
const MAX = 10 * 1024 * 1024;

describe("sample templates", () => {
  it("the contract has exactly the expected placeholders", async () => {
    const result = await inspectTemplate(await buildSampleContractDocx(), "services-agreement.docx", { maxBytes: MAX });
    expect(result.kind).toBe("docx");
    expect(result.placeholders).toEqual([
      { placeholder: "{%Logo}", name: "Logo", kind: "image" },
      { placeholder: "{EffectiveDate}", name: "EffectiveDate", kind: "text" },
      { placeholder: "{ProviderName}", name: "ProviderName", kind: "text" },
      { placeholder: "{ClientName}", name: "ClientName", kind: "text" },
      { placeholder: "{ClientAddress}", name: "ClientAddress", kind: "text" },
      { placeholder: "{@Scope}", name: "Scope", kind: "html" },
      { placeholder: "{ItemName}", name: "ItemName", kind: "text" },
      { placeholder: "{ItemQty}", name: "ItemQty", kind: "text" },
      { placeholder: "{ItemPrice}", name: "ItemPrice", kind: "text" },
      { placeholder: "{Fee}", name: "Fee", kind: "text" },
    ]);
  });

  it("the proposal has exactly the expected placeholders", async () => {
    const result = await inspectTemplate(await buildSampleProposalPptx(), "project-proposal.pptx", { maxBytes: MAX });
    expect(result.kind).toBe("pptx");
    expect(result.placeholders).toEqual([
      { placeholder: "{ProposalTitle}", name: "ProposalTitle", kind: "text" },
      { placeholder: "{ClientName}", name: "ClientName", kind: "text" },
      { placeholder: "{PreparedBy}", name: "PreparedBy", kind: "text" },
      { placeholder: "{Summary}", name: "Summary", kind: "text" },
      { placeholder: "{Price}", name: "Price", kind: "text" },
    ]);
  });

  it("the invoice uses dot paths, a table-row loop, conditions and expressions, and its example data fits", async () => {
    const result = await inspectTemplate(await buildSampleInvoiceDocx(), "invoice.docx", { maxBytes: MAX });
    const kinds = new Set(result.placeholders.map((p) => p.kind));
    for (const kind of ["path", "loop", "condition", "expression"] as const) expect(kinds, kind).toContain(kind);
    expect(result.placeholders.find((p) => p.placeholder === "{#items}")).toMatchObject({
      kind: "loop",
      fields: ["description", "quantity", "unitPrice | fixed:2", "quantity * unitPrice | fixed:2"],
    });
    const dataNames = new Set(result.placeholders.flatMap((p) => p.data ?? []));
    expect([...dataNames].sort()).toEqual(Object.keys(SAMPLE_INVOICE_DATA).sort());
  });

  it("builds identical bytes every time", async () => {
    expect((await buildSampleContractDocx()).equals(await buildSampleContractDocx())).toBe(true);
    expect((await buildSampleProposalPptx()).equals(await buildSampleProposalPptx())).toBe(true);
  });

  it("metadata matches what each builder produces", async () => {
    expect(SAMPLE_TEMPLATES.map((t) => t.fileName)).toEqual(["services-agreement.docx", "invoice.docx", "project-proposal.pptx"]);
    for (const template of SAMPLE_TEMPLATES) {
      expect(template.fileName.endsWith(`.${template.kind}`)).toBe(true);
      expect(template.folder.length).toBeGreaterThan(0);
      const result = await inspectTemplate(await template.builder(), template.fileName, { maxBytes: MAX });
      expect(result.kind).toBe(template.kind);
    }
  });
});

describe.skipIf(!hasSoffice)("sample templates open in LibreOffice", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** Converts to PDF with a throwaway profile, so it neither needs nor disturbs a running LibreOffice. */
  async function toPdfText(file: Buffer, fileName: string): Promise<string | null> {
    const dir = await mkdtemp(path.join(tmpdir(), "quire-sample-"));
    dirs.push(dir);
    const input = path.join(dir, fileName);
    await writeFile(input, file);
    const profile = pathToFileURL(path.join(dir, "profile")).href;
    await run("soffice", [`-env:UserInstallation=${profile}`, "--headless", "--convert-to", "pdf", "--outdir", dir, input], {
      timeout: 120_000,
    });
    const pdf = input.replace(/\.\w+$/, ".pdf");
    if (!hasPdftotext) return null;
    const { stdout } = await run("pdftotext", ["-layout", pdf, "-"]);
    return stdout;
  }

  it("converts the contract to PDF with its text", { timeout: 180_000 }, async () => {
    const text = await toPdfText(await buildSampleContractDocx(), "services-agreement.docx");
    if (text === null) return;
    for (const expected of [
      "Services Agreement",
      "{ClientName}",
      "{ClientAddress}",
      "{@Scope}",
      "{%Logo}",
      "{ItemName}",
      "{ItemPrice}",
      "{Fee}",
      "Signed for the client",
      SAMPLE_CONTRACT_ANCHORS.signature,
      SAMPLE_CONTRACT_ANCHORS.date,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("fills the invoice from its example data and prints it with no line left blank", { timeout: 180_000 }, async () => {
    const variables = Object.entries(SAMPLE_INVOICE_DATA).map(([name, value]) => ({
      placeholder: `{${name}}`,
      value: JSON.stringify(value),
      mimeType: "text" as const,
    }));
    const { file, missingPlaceholders } = await renderTemplate(await buildSampleInvoiceDocx(), "docx", variables, { fetchImage: async () => Buffer.alloc(0) });
    expect(missingPlaceholders).toEqual([]);
    const text = await toPdfText(file, "invoice.docx");
    if (text === null) return;
    const lines = text
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    for (const expected of [
      "Invoice 2026-0042",
      "Bill to: Initech GmbH",
      "Hauptstraße 1, 10115 Berlin",
      "VAT ID: DE123456789",
      "Subtotal: 1550.00 EUR",
      "Tax (20%): 310.00 EUR",
      "Total: 1860.00 EUR",
    ]) {
      expect(lines, expected).toContain(expected);
    }
    expect(text).toMatch(/Discovery workshop\s+1\s+550\.00\s+550\.00/);
    expect(text).toMatch(/Design iterations\s+4\s+250\.00\s+1000\.00/);
    expect(text.replace(/\s+/g, " ")).toContain("Please pay within 30 days to IBAN GB33 BUKB 2020 1555 5555 55, quoting 2026-0042.");
    expect(text).not.toMatch(/instalments|Paid in full|\{|\}/);
  });

  it("converts the proposal to a three-page PDF with its text", { timeout: 180_000 }, async () => {
    const text = await toPdfText(await buildSampleProposalPptx(), "project-proposal.pptx");
    if (text === null) return;
    expect(text.split("\f").filter((page) => page.trim() !== "")).toHaveLength(3);
    for (const expected of ["{ProposalTitle}", "Prepared for {ClientName}", "Prepared by {PreparedBy}", "{Summary}", "Total price: {Price}"]) {
      expect(text).toContain(expected);
    }
  });
});

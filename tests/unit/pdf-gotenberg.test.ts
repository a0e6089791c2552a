// The Gotenberg client against a Gotenberg-compatible test server that converts with the real
// LibreOffice pool, so the multipart upload, status mapping and PDF check are all exercised.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnavailableError, UnprocessableError } from "@/lib/errors";
import { GotenbergConverter } from "@/lib/pdf/gotenberg";
import { LibreOfficePool } from "@/lib/pdf/libreoffice";
import { buildSampleContractDocx, buildSampleProposalPptx } from "@/lib/templates/samples";
import { startFakeGotenberg, type FakeGotenberg } from "../support/fake-gotenberg";

const pdfText = (pdf: Buffer) => execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf }).toString("utf8");

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("GotenbergConverter", () => {
  const pool = new LibreOfficePool({ size: 1, timeoutMs: 30_000 });
  let gotenberg: FakeGotenberg;
  let converter: GotenbergConverter;
  let docx: Buffer;
  let pptx: Buffer;

  beforeAll(async () => {
    [docx, pptx] = await Promise.all([buildSampleContractDocx(), buildSampleProposalPptx()]);
    gotenberg = await startFakeGotenberg(pool);
    converter = new GotenbergConverter({ url: `${gotenberg.url}/`, timeoutMs: 20_000 });
  });
  afterAll(async () => {
    await gotenberg?.close();
    await pool.close();
  });

  it("reports ok when /health is up", async () => {
    expect(await converter.status()).toBe("ok");
  });

  it("converts a DOCX and a PPTX through /forms/libreoffice/convert", { timeout: 30_000 }, async () => {
    const pdf = await converter.convert(docx, "docx");
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdfText(pdf)).toContain("Services Agreement");
    expect(pdfText(await converter.convert(pptx, "pptx"))).toContain("{ProposalTitle}");
    expect(gotenberg.receivedFiles).toEqual(["document.docx", "document.pptx"]);
  });

  it("convertToFile writes the PDF at the caller's path, and nothing there when Gotenberg refuses the document", { timeout: 30_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-gotenberg-out-"));
    try {
      const file = path.join(dir, "contract.pdf");
      const { size } = await converter.convertToFile(docx, "docx", file);
      expect(size).toBe(fs.statSync(file).size);
      expect(pdfText(fs.readFileSync(file))).toContain("Services Agreement");
      const refused = path.join(dir, "refused.pdf");
      await expect(converter.convertToFile(docx.subarray(0, docx.length >> 1), "docx", refused)).rejects.toBeInstanceOf(UnprocessableError);
      expect(fs.readdirSync(dir)).toEqual(["contract.pdf"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("maps Gotenberg's 400 for an unreadable document to UnprocessableError", { timeout: 30_000 }, async () => {
    const err = await converter.convert(docx.subarray(0, docx.length >> 1), "docx").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnprocessableError);
    expect((err as UnprocessableError).code).toBe("DocumentNotConvertible");
  });

  it("maps a 500 to UnavailableError and a failing health check to unavailable", async () => {
    gotenberg.failWith(500);
    try {
      const err = await converter.convert(docx, "docx").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnavailableError);
      expect((err as Error).message).toContain("500");
      gotenberg.failWith(503);
      expect(await converter.status()).toBe("unavailable");
    } finally {
      gotenberg.failWith(null);
    }
    expect(await converter.status()).toBe("ok");
  });

  it("gives up after its timeout with UnavailableError", async () => {
    const impatient = new GotenbergConverter({ url: gotenberg.url, timeoutMs: 200 });
    gotenberg.delay(2_000);
    try {
      const started = performance.now();
      const err = await impatient.convert(docx, "docx").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnavailableError);
      expect((err as UnavailableError).code).toBe("PdfConversionTimeout");
      expect(performance.now() - started).toBeLessThan(1_500);
    } finally {
      gotenberg.delay(0);
    }
  });

  it("rejects with the abort reason when the caller aborts", async () => {
    gotenberg.delay(2_000);
    try {
      const controller = new AbortController();
      const reason = new Error("client went away");
      const pending = converter.convert(docx, "docx", { signal: controller.signal });
      setTimeout(() => controller.abort(reason), 50);
      await expect(pending).rejects.toBe(reason);
    } finally {
      gotenberg.delay(0);
    }
  });

  it("reports an unreachable service as unavailable", async () => {
    const down = new GotenbergConverter({ url: `http://127.0.0.1:${await closedPort()}`, timeoutMs: 5_000 });
    expect(await down.status()).toBe("unavailable");
    const err = await down.convert(docx, "docx").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toMatch(/unreachable.*ECONNREFUSED/);
  });
});

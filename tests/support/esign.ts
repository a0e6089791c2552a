// Signing helpers shared by the e-signing integration tests: a small PDF to sign, the poppler
// tools that read a PDF back, and the signer API behind an emailed link.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { call } from "./api";

export const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** A one-page A4 PDF with a line of text (fields go on coordinates). */
export async function onePagePdf(line = "Agreement between the parties."): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText(line, { x: 50, y: 780, size: 12, font });
  return Buffer.from(await doc.save());
}

/** Output of pdftotext (layout) or pdfsig on a PDF; a tool's failure output is returned, not thrown. */
export function pdfTool(pdf: Buffer, tool: "pdftotext" | "pdfsig"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-pdf-"));
  const file = path.join(dir, "d.pdf");
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync(tool, tool === "pdftotext" ? ["-layout", file, "-"] : [file], { encoding: "utf8" });
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const SIGNING_LINK = /https?:\/\/[^\s"<>]+\/sign\/[A-Za-z0-9_-]+/;

export function tokenOf(link: string): string {
  return link.split("/sign/")[1];
}

export interface SignerField {
  id: string;
  type: string;
}

/** The signer API as the holder of one signing link sees it (no API key: the token is the credential). */
export function signerApi(baseUrl: string, token: string) {
  return {
    session: () => call(baseUrl, `/api/signer/${token}`),
    sign: (values: Record<string, string>) => call(baseUrl, `/api/signer/${token}/sign`, { method: "POST", body: { values } }),
  };
}

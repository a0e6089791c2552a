// The completed-document PDF: stamped values, certificate page, and a digital signature that
// poppler's pdfsig validates (and rejects once a byte changes).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { loadOrCreateSigningCertificate } from "@/lib/pdf/instance-certificate";
import { sealCompletedDocument } from "@/lib/pdf/seal";

const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

async function original(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText("Agreement", { x: 50, y: 780, size: 14, font });
  doc.addPage([595, 842]).drawText("Client signature: [[sign:client]]", { x: 50, y: 300, size: 12, font });
  return Buffer.from(await doc.save());
}

function tool(name: string, pdf: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-seal-")), "d.pdf");
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync(name, name === "pdftotext" ? ["-layout", file, "-"] : [file], { encoding: "utf8" });
  } catch (err) {
    return `${(err as { stdout?: string }).stdout ?? ""}${(err as { stderr?: string }).stderr ?? ""}`;
  }
}

describe("sealCompletedDocument", () => {
  it("stamps values, appends the certificate and signs so that pdfsig validates it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-cert-"));
    const cert = await loadOrCreateSigningCertificate({ dataDir });
    expect(cert.selfSigned).toBe(true);
    expect(cert.subject).toBe("Quire development signing certificate");
    expect(fs.statSync(path.join(dataDir, "signing", "password")).mode & 0o077).toBe(0);

    const { pdf, documentHash } = await sealCompletedDocument({
      original: await original(),
      fields: [
        { page: 2, x: 140, y: 528, width: 160, height: 40, type: "signature", value: PNG, coverAnchor: true },
        { page: 1, x: 50, y: 100, width: 200, height: 20, type: "full_name", value: "Zoë Ångström" },
        { page: 1, x: 50, y: 140, width: 20, height: 20, type: "checkbox", value: "true" },
      ],
      certificate: {
        documentName: "Agreement",
        documentId: "doc-1",
        completedAt: new Date("2026-11-22T12:00:00Z"),
        signers: [{ name: "Zoë Ångström", email: "zoe@example.com", signedAt: new Date("2026-11-22T11:59:00Z"), ip: "203.0.113.9", userAgent: "Mozilla/5.0 ".repeat(20), verification: "email passcode" }],
      },
      signing: { p12: cert.p12, password: cert.password, name: "Quire" },
    });
    expect(documentHash).toMatch(/^[0-9a-f]{64}$/);
    const text = tool("pdftotext", pdf);
    expect(text).toContain("Zoë Ångström");
    expect(text).toContain("Certificate of completion");
    expect(text).toContain(documentHash);
    expect(text).toContain("zoe@example.com");
    expect(text).not.toContain("[[sign:client]]".replace("[[", "[[ ")); // the anchor is covered, not re-flowed
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(3);

    const sig = tool("pdfsig", pdf);
    expect(sig).toMatch(/Signature Validation: Signature is Valid/);
    expect(sig).toMatch(/Total document signed/);

    const tampered = Buffer.from(pdf);
    const at = tampered.indexOf("Agreement");
    tampered[at] = "B".charCodeAt(0);
    expect(tool("pdfsig", tampered)).not.toMatch(/Signature is Valid/);

    // The development certificate is made once and reused.
    expect((await loadOrCreateSigningCertificate({ dataDir: dataDir })).p12.equals(cert.p12)).toBe(true);
  });
});

// npm run bench -- --only sealing: the time to seal a completed document of 1, 10 and 100 pages
// (a text and a signature field stamped on every page, a certificate page, the PAdES signature,
// appended incrementally), beside two floors measured in the same run on the same file:
//   - sign only: @libpdf/core's incremental PAdES signature of the original, nothing stamped;
//   - prepare check: what prepare-for-signing spends making sure the file can be sealed.
// Medians of several runs; printed, never asserted.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { P12Signer, PDF } from "@libpdf/core";
import { loadOrCreateSigningCertificate } from "@/lib/pdf/instance-certificate";
import { checkSealable } from "@/lib/pdf/inspect";
import { sealCompletedDocument, type StampField } from "@/lib/pdf/seal";
import { recordFigure } from "./bench-shared";

const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

async function documentOf(pages: number): Promise<Buffer> {
  const doc = PDF.create();
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage({ size: "a4" });
    for (let line = 0; line < 40; line++)
      page.drawText(`Page ${i + 1}, clause ${line + 1}: the parties agree to the terms set out in this agreement.`, { x: 50, y: 780 - line * 18, size: 10 });
  }
  return Buffer.from(await doc.save());
}

async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm up (WebAssembly, fonts)
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

export async function benchSealing(): Promise<void> {
  const cert = await loadOrCreateSigningCertificate({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "quire-bench-cert-")) });
  const signing = { p12: cert.p12, password: cert.password, name: "Quire" };
  console.log("\n## Sealing a completed document (median ms; a text and a signature field on every page)\n");
  console.log("| Pages | Prepare check | Sign only (floor) | Quire seal | Seal / floor |");
  console.log("|---|---|---|---|---|");
  for (const pages of [1, 10, 100]) {
    const original = await documentOf(pages);
    const fields: StampField[] = Array.from({ length: pages }, (_, i) => [
      { page: i + 1, x: 50, y: 700, width: 200, height: 20, type: "full_name" as const, value: "Ada Lovelace" },
      { page: i + 1, x: 300, y: 690, width: 160, height: 40, type: "signature" as const, value: PNG },
    ]).flat();
    const runs = pages === 100 ? 5 : 15;
    const check = await median(runs, () => checkSealable(original));
    const floor = await median(runs, async () => {
      const doc = await PDF.load(original);
      await doc.sign({ signer: await P12Signer.create(cert.p12, cert.password), level: "B-B", subFilter: "ETSI.CAdES.detached", fieldName: "Floor" });
    });
    const seal = await median(runs, () =>
      sealCompletedDocument({
        original,
        fields,
        certificate: {
          documentName: "Bench",
          documentId: "00000000-0000-4000-8000-000000000000",
          completedAt: new Date(),
          signers: [{ name: "Ada Lovelace", email: "ada@example.com", signedAt: new Date(), ip: "203.0.113.9", userAgent: "bench", verification: "none" }],
        },
        signing,
      }),
    );
    console.log(`| ${pages} | ${check.toFixed(1)} | ${floor.toFixed(1)} | ${seal.toFixed(1)} | ${(seal / floor).toFixed(2)} |`);
    recordFigure({
      section: "sealing",
      db: "",
      measure: `seal a completed ${pages}-page document, median`,
      quire: seal,
      unit: "ms",
      floor,
      floorLabel: "bare PAdES signature",
    });
  }
  console.log(`\n(${os.cpus().length} cores; the signing certificate is generated for the run.)`);
}

// npm run bench -- --only generation: the sample Services Agreement filled and converted, beside its
// floors measured in the same run: a raw docxtemplater fill and a raw warm LibreOffice conversion.
import os from "node:os";
import { startQuireServer } from "../tests/support/quire-server";
import { CONTRACT_VARIABLES, printTable, time } from "./bench-shared";

export async function benchGeneration(requests: number) {
  const N = Math.min(requests, 50);
  console.log(`\n## Generation on the sample contract (DOCX), ${N} runs each`);
  const { buildSampleContractDocx } = await import("../lib/templates/samples");
  const { DOCXTEMPLATER_OPTIONS } = await import("../lib/templates/inspect");
  const { renderTemplate } = await import("../lib/deliverables/render");
  const { LibreOfficePool } = await import("../lib/pdf/libreoffice");
  const Docxtemplater = (await import("docxtemplater")).default;
  const PizZip = (await import("pizzip")).default;
  const contract = await buildSampleContractDocx();
  const plainData = Object.fromEntries(CONTRACT_VARIABLES.map((v) => [v.placeholder.replace(/[{}@%]/g, ""), v.text ?? "Discovery"]));
  const rows = [
    await time("raw docxtemplater fill (text only)", async () => {
      const doc = new Docxtemplater(new PizZip(contract), { ...DOCXTEMPLATER_OPTIONS, nullGetter: () => "" });
      doc.render(plainData);
      doc.getZip().generate({ type: "nodebuffer" });
    }, N),
    await time("Quire fill (text, html, stack)", () => renderTemplate(contract, "docx", CONTRACT_VARIABLES, { fetchImage: () => Promise.reject(new Error("no images")) }), N),
  ];
  const filled = (await renderTemplate(contract, "docx", CONTRACT_VARIABLES, { fetchImage: () => Promise.reject(new Error("no images")) })).file;
  const pool = new LibreOfficePool({ size: 1, timeoutMs: 60_000 });
  await pool.warmUp();
  rows.push(await time("raw warm LibreOffice conversion (1 slot)", () => pool.convert(filled, "docx"), N));
  await pool.close();

  const { server, stop } = await startQuireServer("pglite", { extraEnv: { QUIRE_RATE_LIMIT_DISABLED: "true" } });
  try {
    const headers = { authorization: `Bearer ${server.seed.keys.user}`, "x-service-org-id": server.seed.orgId, "content-type": "application/json" };
    const found = await fetch(`${server.baseUrl}/template-item?type=template&query=services%20agreement`, { headers }).then((r) => r.json());
    const templateId = found.data.results[0].id as string;
    const create = async () => {
      const res = await fetch(`${server.baseUrl}/v1/deliverable`, { method: "POST", headers, body: JSON.stringify({ name: "Bench deliverable", templateId, variables: CONTRACT_VARIABLES }) });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
    };
    rows.push(await time("Quire create with PDF over HTTP (POST /v1/deliverable)", create, N));
    printTable(rows);
    const total = 40;
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < total) {
        next++;
        await create();
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    console.log(`\nThroughput, 8 concurrent clients, ${total} creates with PDF: ${(total / seconds).toFixed(1)} deliverables/s (${seconds.toFixed(1)} s; converter pool = ${os.cpus().length} slots)`);
  } finally {
    await stop();
  }
}


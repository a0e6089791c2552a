// npm run bench -- --only generation: the sample Services Agreement filled and converted, beside its
// floors measured in the same run (a raw docxtemplater fill, a raw warm LibreOffice conversion over
// UNO) and a real peer on the same machine: Carbone 3.8.2, which also drives LibreOffice.
// Quire is measured on each database asked for (--db; both by default, PostgreSQL when reachable).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import PizZip from "pizzip";
import { startQuireServer, type TestDatabase } from "../tests/support/quire-server";
import { childrenCpuMs, CONTRACT_VARIABLES, httpRequest, printTable, recordFigure, time } from "./bench-shared";

/** Quire's default pool size (lib/config.ts): one warm soffice per core. Every floor and peer gets as many. */
const POOL = Math.max(1, os.availableParallelism());
const CLIENTS = [1, 2, 4, 8];
const SECTION = "generation";

interface Throughput {
  clients: number;
  perSecond: number;
  cpuPerDocMs: number;
}

/** Documents per second with `clients` callers in a loop, and the CPU each document cost (`cpuMs` before/after). */
async function throughput(clients: number, total: number, once: () => Promise<unknown>, cpuMs: () => number): Promise<Throughput> {
  let next = 0;
  const cpuBefore = cpuMs();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        next++;
        await once();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { clients, perSecond: total / seconds, cpuPerDocMs: (cpuMs() - cpuBefore) / total };
}

/** CPU of this process and everything it started (for floors and peers that run in-process). */
function ownAndChildrenCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000 + childrenCpuMs();
}

function printThroughput(label: string, rows: Throughput[]): void {
  console.log(`\n${label}\n| clients | documents/s | CPU ms/document |\n|---:|---:|---:|`);
  for (const r of rows) console.log(`| ${r.clients} | ${r.perSecond.toFixed(1)} | ${r.cpuPerDocMs.toFixed(1)} |`);
}

const PLAIN_VALUES = Object.fromEntries(CONTRACT_VARIABLES.map((v) => [v.placeholder.replace(/[{}@%]/g, ""), v.text ?? "Discovery"]));

/** The same values in Carbone's data shape: the repeated row as an array. */
const CARBONE_DATA = {
  ...PLAIN_VALUES,
  items: (CONTRACT_VARIABLES.find((v) => v.variableStack)?.variableStack ?? []).map((entry) => ({ name: entry.text })),
};

/**
 * The sample contract in Carbone's tag syntax: {d.Name} for each value; the item row twice, with
 * [i] and [i+1], which is how Carbone marks a repeated row. Carbone 3 has no HTML formatter, so the
 * Scope value goes in as text. No logo, as in Quire's run (no image value).
 */
function toCarboneTemplate(contract: Buffer): Buffer {
  const zip = new PizZip(contract);
  let xml = zip.file("word/document.xml")!.asText();
  xml = xml.replace("{%Logo}", "");
  const row = /<w:tr>(?:(?!<w:tr>)[\s\S])*?\{ItemName\}[\s\S]*?<\/w:tr>/.exec(xml)![0];
  const itemRow = (index: string) =>
    row.replace("{ItemName}", `{d.items[${index}].name}`).replace("{ItemQty}", `{d.items[${index}].qty}`).replace("{ItemPrice}", `{d.items[${index}].price}`);
  xml = xml.replace(row, itemRow("i") + itemRow("i+1"));
  xml = xml.replace(/\{[@%]?([A-Za-z]+)\}/g, "{d.$1}");
  zip.file("word/document.xml", xml);
  return zip.generate({ type: "nodebuffer", compression: "DEFLATE" });
}

interface Carbone {
  set(options: Record<string, unknown>): void;
  render(template: string, data: unknown, options: Record<string, unknown>, callback: (err: unknown, result: Buffer) => void): void;
}

/** Carbone finds soffice.bin and a python3 with uno on PATH: Debian keeps the first outside it, pyenv may shadow the second. */
function carbonePath(): string {
  return ["/usr/lib/libreoffice/program", "/usr/bin", process.env.PATH ?? ""].join(path.delimiter);
}

/** Carbone's documents per second at each client count, with as many LibreOffice processes as Quire's pool. */
async function benchCarbone(contract: Buffer, total: number): Promise<Throughput[]> {
  process.env.PATH = carbonePath();
  const carbone = (await import("carbone" as string)).default as Carbone;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-bench-carbone-"));
  fs.writeFileSync(path.join(dir, "contract.docx"), toCarboneTemplate(contract));
  carbone.set({ templatePath: dir, tempPath: dir, factories: POOL, startFactory: true });
  const render = () =>
    new Promise<Buffer>((resolve, reject) =>
      carbone.render("contract.docx", CARBONE_DATA, { convertTo: "pdf" }, (err, pdf) =>
        err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(pdf),
      ),
    );
  const first = await render();
  if (first.subarray(0, 5).toString("latin1") !== "%PDF-") throw new Error("Carbone did not produce a PDF");
  const rows: Throughput[] = [];
  for (let i = 0; i < 10; i++) await render();
  for (const clients of CLIENTS) rows.push(await throughput(clients, total, render, ownAndChildrenCpuMs));
  const converterModule = await import("carbone/lib/converter" as string);
  const converter = (converterModule.default ?? converterModule) as { exit: (cb: () => void) => void };
  await new Promise<void>((resolve) => converter.exit(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
  return rows;
}

const DB_NAMES: Record<TestDatabase, string> = { pglite: "PGlite", postgres: "PostgreSQL" };

/** Quire's create with PDF over HTTP on one database: p50 one at a time, then documents/s at each client count. */
async function benchQuireCreate(kind: TestDatabase, runs: number, total: number): Promise<{ create: Timing; rows: Throughput[] }> {
  const { server, stop } = await startQuireServer(kind, { extraEnv: { QUIRE_RATE_LIMIT_DISABLED: "true", LIBREOFFICE_POOL_SIZE: String(POOL) } });
  try {
    const headers = { authorization: `Bearer ${server.seed.keys.user}`, "x-service-org-id": server.seed.orgId, "content-type": "application/json" };
    const found = await fetch(`${server.baseUrl}/template-item?type=template&query=services%20agreement`, { headers }).then((r) => r.json());
    const templateId = found.data.results[0].id as string;
    const body = JSON.stringify({ name: "Bench deliverable", templateId, variables: CONTRACT_VARIABLES });
    const createOne = async () => {
      const res = await httpRequest(`${server.baseUrl}/v1/deliverable`, { method: "POST", headers, body });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body.toString()}`);
    };
    const create = await time(`Quire create with PDF over HTTP (POST /v1/deliverable)`, createOne, runs);
    // The server's process tree (Next.js, soffice, helpers): the bench's own fetch calls are not Quire's cost.
    const rows: Throughput[] = [];
    for (const clients of CLIENTS) rows.push(await throughput(clients, total, createOne, childrenCpuMs));
    return { create, rows };
  } finally {
    await stop();
  }
}

/** Quire's create on each database in `kinds`, beside one set of floors and the peer measured in the same run. */
export async function benchGeneration(requests: number, kinds: TestDatabase[]) {
  const N = Math.min(requests, 50);
  const TOTAL = 40;
  console.log(
    `\n## Generation on the sample contract (DOCX), ${N} runs each, ${kinds.map((k) => DB_NAMES[k]).join(" and ")}, pool of ${POOL} warm LibreOffice processes`,
  );
  const { buildSampleContractDocx } = await import("../lib/templates/samples");
  const { DOCXTEMPLATER_OPTIONS } = await import("../lib/templates/inspect");
  const { renderTemplate } = await import("../lib/deliverables/render");
  const { LibreOfficePool } = await import("../lib/pdf/libreoffice");
  const Docxtemplater = (await import("docxtemplater")).default;
  const contract = await buildSampleContractDocx();
  const rawFill = await time(
    "raw docxtemplater fill (text only)",
    async () => {
      const doc = new Docxtemplater(new PizZip(contract), { ...DOCXTEMPLATER_OPTIONS, nullGetter: () => "" });
      doc.render(PLAIN_VALUES);
      doc.getZip().generate({ type: "nodebuffer" });
    },
    N,
  );
  const noImages = { fetchImage: () => Promise.reject(new Error("no images")) };
  const quireFill = await time("Quire fill in-process (text, html, stack)", () => renderTemplate(contract, "docx", CONTRACT_VARIABLES, noImages), N);
  const filled = (await renderTemplate(contract, "docx", CONTRACT_VARIABLES, noImages)).file;

  // The raw floor: the UNO helper and soffice alone, without Quire's preprocessing of the DOCX.
  const raw = new LibreOfficePool({ size: POOL, timeoutMs: 60_000, prepareDocx: (docx) => docx });
  await raw.warmUp();
  const convertRaw = () => raw.convert(filled, "docx");
  const rawConvert = await time("raw warm LibreOffice conversion over UNO (1 at a time)", convertRaw, N);
  const rawThroughput = await throughput(8, TOTAL, convertRaw, ownAndChildrenCpuMs);
  await raw.close();

  const quire: { db: string; create: Timing; rows: Throughput[] }[] = [];
  for (const kind of kinds) quire.push({ db: DB_NAMES[kind], ...(await benchQuireCreate(kind, N, TOTAL)) });
  const carboneRows = await benchCarbone(contract, TOTAL);

  printTable([rawFill, quireFill, rawConvert, ...quire.map((q) => ({ ...q.create, label: `${q.create.label}, ${q.db}` }))]);
  console.log(
    `\nRaw conversion, ${POOL} warm processes, 8 concurrent: ${rawThroughput.perSecond.toFixed(1)} documents/s, ${rawThroughput.cpuPerDocMs.toFixed(1)} ms CPU/document`,
  );
  for (const q of quire) printThroughput(`Quire create with PDF on ${q.db} (server process tree CPU)`, q.rows);
  printThroughput(`Carbone 3.8.2, ${POOL} LibreOffice factories (bench process and its children CPU)`, carboneRows);
  recordFillFigure(rawFill, quireFill);
  for (const q of quire) recordGenerationFigures(q.db, { rawFill, rawConvert, create: q.create, rawThroughput, quireRows: q.rows, carboneRows });
}

type Timing = Awaited<ReturnType<typeof time>>;

function recordFillFigure(rawFill: Timing, quireFill: Timing): void {
  recordFigure({
    section: SECTION,
    db: "",
    measure: "Quire fill in-process, p50",
    quire: quireFill.p50,
    unit: "ms",
    floor: rawFill.p50,
    floorLabel: "raw docxtemplater fill",
  });
}

function recordGenerationFigures(
  db: string,
  f: { rawFill: Timing; rawConvert: Timing; create: Timing; rawThroughput: Throughput; quireRows: Throughput[]; carboneRows: Throughput[] },
): void {
  const floor = f.rawFill.p50 + f.rawConvert.p50;
  recordFigure({
    section: SECTION,
    db,
    measure: "create with PDF over HTTP, p50",
    quire: f.create.p50,
    unit: "ms",
    floor,
    floorLabel: "raw fill + raw warm conversion",
    goal: { op: "<=", value: 1.15, on: "ratio" },
  });
  const best = f.quireRows.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
  recordFigure({
    section: SECTION,
    db,
    measure: `documents/s, best (${best.clients} clients)`,
    quire: best.perSecond,
    unit: "/s",
    floor: f.rawThroughput.perSecond,
    floorLabel: `raw conversion, ${POOL} warm processes, 8 concurrent`,
    goal: { op: ">=", value: 0.9, on: "ratio" },
  });
  for (const [i, q] of f.quireRows.entries()) {
    recordFigure({
      section: SECTION,
      db,
      measure: `documents/s, ${q.clients} clients`,
      quire: q.perSecond,
      unit: "/s",
      floor: f.carboneRows[i].perSecond,
      floorLabel: "peer Carbone 3.8.2",
      goal: { op: ">=", value: 1, on: "ratio" },
    });
  }
  const cpu = f.quireRows.find((r) => r.clients === 8)!;
  recordFigure({
    section: SECTION,
    db,
    measure: "CPU per document (server tree, 8 clients)",
    quire: cpu.cpuPerDocMs,
    unit: "ms",
    floor: f.rawThroughput.cpuPerDocMs,
    floorLabel: "raw conversion",
    goal: { op: "<=", value: 1.2, on: "ratio" },
  });
  const carboneCpu = f.carboneRows.find((r) => r.clients === 8)!;
  recordFigure({
    section: SECTION,
    db,
    measure: "CPU per document (server tree, 8 clients)",
    quire: cpu.cpuPerDocMs,
    unit: "ms",
    floor: carboneCpu.cpuPerDocMs,
    floorLabel: "peer Carbone 3.8.2",
  });
}

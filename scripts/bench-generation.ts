// npm run bench -- --only generation: the sample Services Agreement filled and converted, beside its
// floors (a raw docxtemplater fill, a raw warm LibreOffice conversion over UNO) and a real peer on the
// same machine: Carbone 3.8.2, which also drives LibreOffice. Quire is measured on each database asked
// for (--db; both by default, PostgreSQL when reachable).
//
// Every contestant is started and warmed up first, then all are measured in turn, in rounds, the order
// turning each round: this machine's speed drifts by 1.5-2x over tens of minutes, and a floor measured
// minutes before Quire made ratios that said more about the hour than about the code (the raw
// conversion's CPU per document was 36.9 ms in one run and 59.8 ms in one 30 minutes later,
// 2026-11-27). Each figure pools its rounds.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import PizZip from "pizzip";
import { findMemoryTempDir } from "../lib/pdf/office-dependencies";
import { withHouseStyles, withSlideComments, withSpeakerNotes, withUnusedNumbering, withWordEditingData } from "../tests/support/ooxml";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../tests/support/quire-server";
import {
  CONTRACT_VARIABLES,
  costMeter,
  DB_LABELS,
  databaseMeter,
  heldAgainstPostgres,
  httpRequest,
  inParallel,
  type Meter,
  NO_DATABASE,
  printTable,
  recordFigure,
  type Timing,
  timingOf,
  treeCpuMs,
  turnOrder,
  warmUp,
} from "./bench-shared";

/** Quire's default pool size (lib/config.ts): one warm soffice per core. Every floor and peer gets as many. */
const POOL = Math.max(1, os.availableParallelism());
const CLIENTS = [1, 2, 4, 8];
const ROUNDS = 5;
/** Documents each contestant makes at each client count in a round. */
const DOCS_PER_ROUND = 24;
/**
 * Documents each contestant makes, 8 at a time, before anything is measured. A server runs for days, so
 * the figures are its steady state. V8 takes a few thousand documents to get there: a function Quire
 * calls once per request turns hot only after thousands of calls, so TurboFan was still compiling ~100
 * of them per 300 documents after 600, ~70 after 3,000 (`--trace-opt`). Measured in one server, per
 * thread (/proc), against the same soffice work: Quire's own CPU per document fell by a fifth between
 * 600 and 3,000 documents (its main thread 9.3-9.9 -> 8.5-9.8 ms, V8's and libuv's threads 3.7-4.1 ->
 * 1.9 ms, a slow hour) and not further by 6,000 (2026-11-28). Carbone and the floors get the same
 * warm-up.
 */
const STEADY_STATE_DOCS = 3_000;
/** A warm soffice's conversions reach their pace within a few dozen. */
/** The sample proposal deck's values (text only). */
const PROPOSAL_VARIABLES = [
  { placeholder: "{ProposalTitle}", text: "Portal rebuild for Globex", mimeType: "text" as const },
  { placeholder: "{ClientName}", text: "Globex Corporation", mimeType: "text" as const },
  { placeholder: "{PreparedBy}", text: "Quire Consulting", mimeType: "text" as const },
  { placeholder: "{Summary}", text: "A new customer portal in three phases: discovery, build and launch.", mimeType: "text" as const },
  { placeholder: "{Price}", text: "12,000 EUR", mimeType: "text" as const },
];
/** Documents each whole-or-leaner conversion warms up with: they run no code of Quire's that V8 would still be optimizing. */
const LEANER_COPY_WARM_UP_DOCS = 200;
const SECTION = "generation";

/** One contestant: a floor, the peer or Quire on one database. */
interface Contestant {
  label: string;
  once: () => Promise<unknown>;
  /** Whose CPU this contestant spends (a process tree and its database), read before and after each measurement. */
  meter: Meter;
  /** The client counts its throughput is measured at. */
  clients: number[];
  latencies: number[];
  tallies: Map<number, Tally>;
}

interface Tally {
  docs: number;
  ms: number;
  cpuMs: number;
  dbCpuMs: number;
  /** Documents per second in each round: how far the rounds spread. */
  rates: number[];
}

interface Throughput {
  clients: number;
  perSecond: number;
  cpuPerDocMs: number;
  /** The database's CPU per document (none for the floors and the peer). */
  dbCpuPerDocMs: number;
  /** Slowest and fastest round. */
  range: [number, number];
}

function contestant(label: string, once: () => Promise<unknown>, meter: Meter, clients: number[]): Contestant {
  return { label, once, meter, clients, latencies: [], tallies: new Map() };
}

/** `count` calls one after another, each timed. */
async function sequential(c: Contestant, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await c.once();
    c.latencies.push(performance.now() - started);
  }
}

/** DOCS_PER_ROUND documents from `clients` callers in a loop, added to the contestant's tally at that count. */
async function burst(c: Contestant, clients: number): Promise<void> {
  const spent = await costMeter(c.meter);
  const started = performance.now();
  await inParallel(c.once, DOCS_PER_ROUND, clients);
  const ms = performance.now() - started;
  const cost = await spent();
  const tally = c.tallies.get(clients) ?? { docs: 0, ms: 0, cpuMs: 0, dbCpuMs: 0, rates: [] };
  tally.docs += DOCS_PER_ROUND;
  tally.ms += ms;
  tally.cpuMs += cost.cpuMs;
  tally.dbCpuMs += cost.dbCpuMs;
  tally.rates.push(DOCS_PER_ROUND / (ms / 1000));
  c.tallies.set(clients, tally);
}

/** Every contestant in turn, `rounds` times, the order turning by one each round. */
async function inRounds(contestants: Contestant[], rounds: number, perRound: number): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`  generation: round ${round + 1}/${rounds}\r`);
    const order = turnOrder(contestants, round);
    for (const c of order) await sequential(c, perRound);
    for (const clients of CLIENTS) for (const c of order) if (c.clients.includes(clients)) await burst(c, clients);
  }
  process.stderr.write("\n");
}

function timing(c: Contestant): Timing {
  return timingOf(c.label, c.latencies);
}

function throughputs(c: Contestant): Throughput[] {
  return [...c.tallies].map(([clients, t]) => ({
    clients,
    perSecond: t.docs / (t.ms / 1000),
    cpuPerDocMs: t.cpuMs / t.docs,
    dbCpuPerDocMs: t.dbCpuMs / t.docs,
    range: [Math.min(...t.rates), Math.max(...t.rates)],
  }));
}

function printThroughput(label: string, rows: Throughput[]): void {
  console.log(`\n${label}\n| clients | documents/s | rounds: slowest - fastest | CPU ms/document | database CPU ms/document |\n|---:|---:|---:|---:|---:|`);
  for (const r of rows)
    console.log(
      `| ${r.clients} | ${r.perSecond.toFixed(1)} | ${r.range[0].toFixed(1)} - ${r.range[1].toFixed(1)} | ${r.cpuPerDocMs.toFixed(1)} | ${r.dbCpuPerDocMs.toFixed(1)} |`,
    );
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

/**
 * Carbone rendering the sample contract, warm, with as many LibreOffice processes as Quire's pool.
 * It works where Quire's pool does: in memory when /dev/shm has room (its files, and soffice's own
 * through TMPDIR). On the disk it could cost both of them: this machine's root file system is ext4
 * without a journal, where the kernel passes over every inode deleted in the last minutes before it
 * hands out a new one (ialloc.c, recently_deleted), and a new file in /tmp, where Carbone deleted a few
 * per render and the Quire servers store theirs, cost up to a millisecond of kernel CPU (2026-11-28).
 */
async function startCarbone(contract: Buffer): Promise<{ render: () => Promise<Buffer>; close: () => Promise<void> }> {
  process.env.PATH = carbonePath();
  const carbone = (await import("carbone" as string)).default as Carbone;
  const dir = fs.mkdtempSync(path.join(findMemoryTempDir() ?? os.tmpdir(), "quire-bench-carbone-"));
  // Read by the soffice processes Carbone spawns from here on (the Quire servers and the raw pool have started).
  const tmpdirBefore = process.env.TMPDIR;
  process.env.TMPDIR = dir;
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
  const close = async () => {
    const converterModule = await import("carbone/lib/converter" as string);
    const converter = (converterModule.default ?? converterModule) as { exit: (cb: () => void) => void };
    await new Promise<void>((resolve) => converter.exit(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
    if (tmpdirBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdirBefore;
  };
  return { render, close };
}

/** Quire started on one database (its pool warms up with the first documents), and a create with PDF over HTTP. */
async function startQuire(kind: TestDatabase): Promise<{ running: RunningQuire; createOne: () => Promise<void> }> {
  // At info, as deployed: each create writes its access line, and the embedded database's thread is named in the log (databaseMeter).
  const running = await startQuireServer(kind, { extraEnv: { QUIRE_RATE_LIMIT_DISABLED: "true", LIBREOFFICE_POOL_SIZE: String(POOL), LOG_LEVEL: "info" } });
  const { server } = running;
  const headers = { authorization: `Bearer ${server.seed.keys.user}`, "x-service-org-id": server.seed.orgId, "content-type": "application/json" };
  const found = await fetch(`${server.baseUrl}/template-item?type=template&query=services%20agreement`, { headers }).then((r) => r.json());
  const templateId = found.data.results[0].id as string;
  const body = JSON.stringify({ name: "Bench deliverable", templateId, variables: CONTRACT_VARIABLES });
  const createOne = async () => {
    const res = await httpRequest(`${server.baseUrl}/v1/deliverable`, { method: "POST", headers, body });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body.toString()}`);
  };
  return { running, createOne };
}

/**
 * Documents each contestant makes one at a time, over all rounds, at most: the p50 the create is held to
 * (1.15x the floors') from this many. Fifty gave PGlite's create 1.26x and PostgreSQL's 1.14x in one run
 * (fd0a459), while 360 of each in turns two hours later put the two within 1 ms of each other at 30 ms
 * (2026-12-01). Thirty a round take about 4 s of it (every contestant's one at a time).
 */
const ONE_AT_A_TIME_DOCS = 150;

/** Quire's create on each database in `kinds`, beside the floors and the peer, all measured in the same rounds. */
export async function benchGeneration(requests: number, kinds: TestDatabase[], warmupSeconds: number) {
  const perRound = Math.ceil(Math.min(requests, ONE_AT_A_TIME_DOCS) / ROUNDS);
  console.log(
    `\n## Generation on the sample contract (DOCX), ${kinds.map((k) => DB_LABELS[k]).join(" and ")}, pool of ${POOL} warm LibreOffice processes; ${ROUNDS} rounds, each contestant in turn: ${perRound} one at a time, then ${DOCS_PER_ROUND} documents at each client count`,
  );
  const { buildSampleContractDocx, buildSampleProposalPptx } = await import("../lib/templates/samples");
  const { DOCXTEMPLATER_OPTIONS } = await import("../lib/templates/inspect");
  const { renderTemplate } = await import("../lib/deliverables/render");
  const { LibreOfficePool } = await import("../lib/pdf/libreoffice");
  const Docxtemplater = (await import("docxtemplater")).default;
  const contract = await buildSampleContractDocx();
  const noImages = { fetchImage: () => Promise.reject(new Error("no images")) };
  const filled = (await renderTemplate(contract, "docx", CONTRACT_VARIABLES, noImages)).file;
  // The filled contract as Word saves a document made from a house template (latent styles, revision ids,
  // a glossary, 150 of the house's styles and 40 list definitions it does not use): what Quire leaves out
  // of LibreOffice's copy (for-conversion.ts) against the whole file.
  const { forConversion } = await import("../lib/pdf/for-conversion");
  const wordSaved = withUnusedNumbering(withHouseStyles(withWordEditingData(filled)));
  // The proposal deck, filled, with speaker notes and comments on its slides as PowerPoint saves a deck
  // someone reviewed: what Quire leaves out of LibreOffice's copy of it against the whole file.
  const proposal = (await renderTemplate(await buildSampleProposalPptx(), "pptx", PROPOSAL_VARIABLES, noImages)).file;
  const reviewedDeck = withSlideComments(withSpeakerNotes(proposal));

  const quires: ({ kind: TestDatabase } & Awaited<ReturnType<typeof startQuire>>)[] = [];
  // The raw floor: the UNO helper and soffice alone, without Quire's preprocessing of the DOCX.
  const raw = new LibreOfficePool({ size: POOL, timeoutMs: 60_000, prepare: (input) => input });
  let carbone: Awaited<ReturnType<typeof startCarbone>> | undefined;
  try {
    // Started before Carbone, which puts LibreOffice's program directory first on this process's PATH.
    for (const kind of kinds) quires.push({ kind, ...(await startQuire(kind)) });
    await raw.warmUp();
    carbone = await startCarbone(contract);
    // What runs in this process (the floors, Carbone) is this process and its children but the Quire servers.
    const quireCpuMs = () => quires.reduce((sum, q) => sum + treeCpuMs(q.running.pid()), 0);
    const inProcess: Meter = { cpuMs: () => treeCpuMs(process.pid) - quireCpuMs(), database: NO_DATABASE };
    const fills = [
      contestant(
        "raw docxtemplater fill (text only)",
        async () => {
          const doc = new Docxtemplater(new PizZip(contract), { ...DOCXTEMPLATER_OPTIONS, nullGetter: () => "" });
          doc.render(PLAIN_VALUES);
          doc.getZip().generate({ type: "nodebuffer" });
        },
        inProcess,
        [],
      ),
      contestant("Quire fill in-process (text, html, stack)", () => renderTemplate(contract, "docx", CONTRACT_VARIABLES, noImages), inProcess, []),
    ];
    const rawConvert = contestant("raw warm LibreOffice conversion over UNO", () => raw.convert(filled, "docx"), inProcess, [8]);
    // A document saved with what its PDF never shows, converted whole and as Quire gives it to LibreOffice.
    const leanerCopies = [
      {
        document: "Word-saved contract",
        file: wordSaved,
        kind: "docx" as const,
        wholeLabel: "the contract as Word saves it from a house template",
        without: "Word's editing data, unused styles and lists",
      },
      {
        document: "Reviewed deck",
        file: reviewedDeck,
        kind: "pptx" as const,
        wholeLabel: "the proposal deck with speaker notes and comments",
        without: "the notes and comments",
      },
    ].map((c) => ({
      document: c.document,
      whole: contestant(`raw warm conversion of ${c.wholeLabel}`, () => raw.convert(c.file, c.kind), inProcess, [8]),
      lean: contestant(
        `the same, as Quire gives it to LibreOffice (without ${c.without})`,
        () => raw.convert(forConversion(c.file, c.kind), c.kind),
        inProcess,
        [8],
      ),
    }));
    const leanerContestants = new Set(leanerCopies.flatMap((c) => [c.whole, c.lean]));
    const peer = contestant("Carbone 3.8.2", carbone.render, inProcess, CLIENTS);
    const quireContestants = quires.map((q) =>
      contestant(
        `Quire create with PDF over HTTP (POST /v1/deliverable), ${DB_LABELS[q.kind]}`,
        q.createOne,
        // Quire's own CPU (its tree, but for the embedded database's thread) and its database's apart, as in the load section.
        { cpuMs: () => treeCpuMs(q.running.pid()), database: databaseMeter(q.running.server) },
        CLIENTS,
      ),
    );
    const all = [...fills, rawConvert, ...leanerContestants, peer, ...quireContestants];
    for (const c of all) {
      process.stderr.write(`  generation: warming up ${c.label}\r`);
      await warmUp(c.once, warmupSeconds);
      await inParallel(c.once, leanerContestants.has(c) ? LEANER_COPY_WARM_UP_DOCS : STEADY_STATE_DOCS, 8);
    }
    await inRounds(all, ROUNDS, perRound);

    const [rawFill, quireFill] = fills.map(timing);
    const convert = timing(rawConvert);
    const quireResults = quireContestants.map((c, i) => ({ kind: quires[i].kind, label: c.label, create: timing(c), rows: throughputs(c) }));
    const carboneRows = throughputs(peer);
    const leanerResults = leanerCopies.map((c) => ({
      document: c.document,
      whole: { timing: timing(c.whole), row: throughputs(c.whole)[0], label: c.whole.label },
      lean: { timing: timing(c.lean), row: throughputs(c.lean)[0], label: c.lean.label },
    }));
    printTable([
      rawFill,
      quireFill,
      convert,
      ...leanerResults.flatMap((c) => [c.whole.timing, c.lean.timing]),
      timing(peer),
      ...quireResults.map((q) => q.create),
    ]);
    const [rawThroughput] = throughputs(rawConvert);
    printThroughput(`Raw conversion, ${POOL} warm processes (bench process and its children CPU)`, [rawThroughput]);
    for (const c of leanerResults) for (const { label, row } of [c.whole, c.lean]) printThroughput(`${label} (bench process and its children CPU)`, [row]);
    for (const q of quireResults) printThroughput(`${q.label} (Quire's CPU: its process tree but for an embedded database)`, q.rows);
    printThroughput(`Carbone 3.8.2, ${POOL} LibreOffice factories (bench process and its children CPU)`, carboneRows);
    recordFillFigure(rawFill, quireFill);
    for (const c of leanerResults) recordLeanerCopyFigures(c.document, c.whole, c.lean);
    for (const q of quireResults)
      recordGenerationFigures(q.kind, { rawFill, rawConvert: convert, create: q.create, rawThroughput, quireRows: q.rows, carboneRows });
  } finally {
    await carbone?.close();
    await raw.close();
    for (const q of quires) await q.running.stop();
  }
}

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

function recordLeanerCopyFigures(document: string, whole: { timing: Timing; row: Throughput }, lean: { timing: Timing; row: Throughput }): void {
  const floorLabel = "raw conversion of the whole file";
  recordFigure({ section: SECTION, db: "", measure: `${document}: conversion, p50`, quire: lean.timing.p50, unit: "ms", floor: whole.timing.p50, floorLabel });
  recordFigure({
    section: SECTION,
    db: "",
    measure: `${document}: conversion CPU per document (8 clients)`,
    quire: lean.row.cpuPerDocMs,
    unit: "ms",
    floor: whole.row.cpuPerDocMs,
    floorLabel,
  });
}

function recordGenerationFigures(
  kind: TestDatabase,
  f: { rawFill: Timing; rawConvert: Timing; create: Timing; rawThroughput: Throughput; quireRows: Throughput[]; carboneRows: Throughput[] },
): void {
  const db = DB_LABELS[kind];
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
    measure: "Quire CPU per document (8 clients)",
    quire: cpu.cpuPerDocMs,
    unit: "ms",
    floor: f.rawThroughput.cpuPerDocMs,
    floorLabel: "raw conversion",
    goal: { op: "<=", value: 1.2, on: "ratio" },
  });
  // Goal 5: PGlite within 1.5x of PostgreSQL, on the whole CPU a document costs (server and database).
  recordFigure({
    section: SECTION,
    db,
    measure: "Quire + database CPU per document (8 clients)",
    quire: cpu.cpuPerDocMs + cpu.dbCpuPerDocMs,
    unit: "ms",
    ...heldAgainstPostgres(kind),
  });
  const carboneCpu = f.carboneRows.find((r) => r.clients === 8)!;
  recordFigure({
    section: SECTION,
    db,
    measure: "Quire CPU per document (8 clients)",
    quire: cpu.cpuPerDocMs,
    unit: "ms",
    floor: carboneCpu.cpuPerDocMs,
    floorLabel: "peer Carbone 3.8.2",
  });
}

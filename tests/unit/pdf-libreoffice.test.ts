// Runs the real LibreOffice pool (soffice + python3-uno). Not skipped when they are missing: these
// tests are the only proof that conversion works, so a machine without them should fail loudly
// (scripts/install-system-deps.sh installs them).
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import PizZip from "pizzip";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { UnavailableError, UnprocessableError } from "@/lib/errors";
import { log } from "@/lib/log";
import { renderTemplate } from "@/lib/deliverables/render";
import { LibreOfficePool } from "@/lib/pdf/libreoffice";
import { findDladdrCache, findMallocLibrary, findMemoryTempDir } from "@/lib/pdf/office-dependencies";
import { OfficeProcess } from "@/lib/pdf/office-process";
import { findOfficeVersion } from "@/lib/pdf/office-profile";
import { buildSampleContractDocx, buildSampleProposalPptx } from "@/lib/templates/samples";
import { buildDocx, withHouseStyles, withSlideComments, withSpeakerNotes, withUnusedNumbering, withWordComment, withWordEditingData } from "../support/ooxml";

const pdfText = (pdf: Buffer) => execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf }).toString("utf8");
/** Every word where it is: the text with its boxes, page by page (the head, with its times and file names, aside). */
const boxes = (pdf: Buffer) =>
  execFileSync("pdftotext", ["-bbox-layout", "-", "-"], { input: pdf })
    .toString("utf8")
    .replace(/^[\s\S]*<\/head>/, "");
/** A pool that gives soffice the file as it is (no copy made leaner for conversion, for-conversion.ts). */
const wholeFilePool = () =>
  new LibreOfficePool({ size: 1, timeoutMs: 60_000, tmpDir: fs.mkdtempSync(path.join(os.tmpdir(), "quire-pdf-whole-")), prepare: (input) => input });
const isPdf = (buf: Buffer) => buf.subarray(0, 5).toString("latin1") === "%PDF-";
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let docx: Buffer;
let pptx: Buffer;
beforeAll(async () => {
  [docx, pptx] = await Promise.all([buildSampleContractDocx(), buildSampleProposalPptx()]);
});

describe("LibreOfficePool (2 slots)", () => {
  // A private temp dir, so the test can tell that every profile and job file was removed.
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-pdf-test-"));
  const pool = new LibreOfficePool({ size: 2, timeoutMs: 30_000, tmpDir });
  afterAll(async () => {
    await pool.close();
    expect(fs.readdirSync(tmpDir)).toEqual([]);
    fs.rmdirSync(tmpDir);
  });

  it("starts nothing until first used", async () => {
    expect(await pool.status()).toBe("ok");
    expect(pool.stats()).toMatchObject({ running: 0, busy: 0, queued: 0 });
  });

  it("converts the sample DOCX with its text", { timeout: 30_000 }, async () => {
    const pdf = await pool.convert(docx, "docx");
    expect(isPdf(pdf)).toBe(true);
    const text = pdfText(pdf);
    expect(text).toContain("Services Agreement");
    expect(text).toContain("{ClientName}");
  });

  it("converts a DOCX with Word comments (LibreOffice over UNO aborts on them): the text, not the comment", { timeout: 60_000 }, async () => {
    const pdf = await pool.convert(withWordComment(buildDocx(["Clause one stands.", "Clause two."]), "Reviewer note XYZ"), "docx");
    expect(isPdf(pdf)).toBe(true);
    const text = pdfText(pdf);
    expect(text).toContain("Clause one stands.");
    expect(text).toContain("Clause two.");
    expect(text).not.toContain("Reviewer note XYZ");
    // The pool is still healthy afterwards.
    expect(pdfText(await pool.convert(docx, "docx"))).toContain("Services Agreement");
  });

  it("converts a DOCX with Word's editing data, unused house styles and lists to the PDF LibreOffice makes of the whole file", {
    timeout: 120_000,
  }, async () => {
    // Latent styles, revision ids, a glossary and a content control showing its placeholder, as Word
    // saves them, 150 styles of a house template and 40 list definitions that the document does not
    // use, in the contract filled with lists of its own.
    const scope = [
      { placeholder: "{@Scope}", text: "<ul><li>Design</li><li>Delivery</li></ul><ol><li>First</li><li>Second</li></ol>", mimeType: "html" as const },
    ];
    const filled = (await renderTemplate(docx, "docx", scope, { fetchImage: () => Promise.reject(new Error("no images")) })).file;
    const word = withUnusedNumbering(withHouseStyles(withWordEditingData(filled)));
    const whole = wholeFilePool();
    try {
      const [lean, full] = await Promise.all([pool.convert(word, "docx"), whole.convert(word, "docx")]);
      expect(boxes(lean)).toContain("<word ");
      expect(boxes(lean)).toBe(boxes(full));
      const text = pdfText(lean);
      expect(text).toContain("Services Agreement");
      expect(text).toMatch(/1\.\s+First\s+2\.\s+Second/);
      expect(text.match(/Click or tap here to enter placeholder text 0\./g)).toHaveLength(1);
      expect(text).not.toContain("placeholder text 1.");
    } finally {
      await whole.close();
    }
  });

  it("answers 422 for a document soffice dies on twice (not 503), and keeps converting", { timeout: 120_000 }, async () => {
    // Without the comment removal, LibreOffice 7.4 over UNO dies on a DOCX with comments: a document
    // that crashes it, built here.
    const raw = wholeFilePool();
    try {
      const err = await raw.convert(withWordComment(buildDocx(["Crashes soffice"])), "docx").then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(UnprocessableError);
      expect((err as UnprocessableError).code).toBe("DocumentNotConvertible");
      expect((err as Error).message).toMatch(/LibreOffice stops every time it opens it/);
      expect(pdfText(await raw.convert(docx, "docx"))).toContain("Services Agreement");
    } finally {
      await raw.close();
    }
  });

  it("converts the sample PPTX with its text", { timeout: 30_000 }, async () => {
    const pdf = await pool.convert(pptx, "pptx");
    expect(isPdf(pdf)).toBe(true);
    const text = pdfText(pdf);
    expect(text).toContain("{ProposalTitle}");
    expect(text).toContain("Prepared for {ClientName}");
    expect(text).toContain("Total price: {Price}");
  });

  it("converts a deck with speaker notes and comments to the same pages as without them", { timeout: 60_000 }, async () => {
    // Notes on every slide and comments with their author, as PowerPoint saves them; LibreOffice is given
    // the deck without them (pptx-notes-comments.ts), a second pool the whole file.
    const deck = withSlideComments(withSpeakerNotes(pptx));
    const whole = wholeFilePool();
    try {
      const [lean, full, plain] = await Promise.all([pool.convert(deck, "pptx"), whole.convert(deck, "pptx"), whole.convert(pptx, "pptx")]);
      expect(boxes(lean)).toContain("<word ");
      expect(boxes(lean)).toBe(boxes(full));
      expect(boxes(lean)).toBe(boxes(plain));
      const text = pdfText(lean);
      expect(text.match(/\f/g)).toHaveLength(3); // three slides, no notes pages
      expect(text).toContain("Total price: {Price}");
      expect(text).not.toMatch(/Speaker note|Check this on slide|Alex Reviewer/);
    } finally {
      await whole.close();
    }
  });

  it("queues 6 concurrent conversions on 2 slots and completes them all", { timeout: 30_000 }, async () => {
    await pool.warmUp();
    const jobs = Array.from({ length: 6 }, (_, i) => pool.convert(i % 2 ? pptx : docx, i % 2 ? "pptx" : "docx"));
    expect(pool.stats()).toMatchObject({ running: 2, busy: 2, queued: 4 });
    const pdfs = await Promise.all(jobs);
    expect(pdfs.every(isPdf)).toBe(true);
    expect(pdfText(pdfs[0])).toContain("Services Agreement");
    expect(pdfText(pdfs[1])).toContain("{ProposalTitle}");
    expect(pool.stats()).toMatchObject({ queued: 0 });
  });

  it("rejects a corrupt DOCX as unconvertible without disturbing the pool", { timeout: 30_000 }, async () => {
    await pool.warmUp();
    const pids = pool.stats().sofficePids;
    const truncated = docx.subarray(0, Math.floor(docx.length / 2)); // still starts with "PK"
    const err = await pool.convert(truncated, "docx").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnprocessableError);
    expect((err as UnprocessableError).code).toBe("DocumentNotConvertible");
    await expect(pool.convert(Buffer.from("not a document"), "docx")).rejects.toBeInstanceOf(UnprocessableError);
    expect(isPdf(await pool.convert(docx, "docx"))).toBe(true);
    expect(pool.stats().sofficePids).toEqual(pids);
  });

  it("does not let a document make soffice fetch URLs it links to", { timeout: 30_000 }, async () => {
    const hits: string[] = [];
    const server = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      // An inline picture whose image is an external relationship (TargetMode="External").
      const zip = new PizZip(docx);
      const rels = zip.file("word/_rels/document.xml.rels")!.asText();
      zip.file(
        "word/_rels/document.xml.rels",
        rels.replace(
          "</Relationships>",
          `<Relationship Id="rIdProbe" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="http://127.0.0.1:${port}/probe.png" TargetMode="External"/></Relationships>`,
        ),
      );
      const picture =
        '<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="952500" cy="952500"/><wp:docPr id="99" name="Probe"/>' +
        '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">' +
        '<pic:nvPicPr><pic:cNvPr id="99" name="Probe"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:link="rIdProbe"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>' +
        '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>';
      zip.file("word/document.xml", zip.file("word/document.xml")!.asText().replace("<w:body>", `<w:body>${picture}`));
      const pdf = await pool.convert(zip.generate({ type: "nodebuffer" }), "docx");
      expect(pdfText(pdf)).toContain("Services Agreement");
      expect(hits).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("convertToFile: the PDF is moved to the caller's path (same file system: a rename), and the size it answers is that file's", {
    timeout: 30_000,
  }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-pdf-out-"));
    try {
      const file = path.join(dir, "contract.pdf");
      const { size } = await pool.convertToFile(docx, "docx", file);
      const pdf = fs.readFileSync(file);
      expect(size).toBe(pdf.length);
      expect(pdfText(pdf)).toContain("Services Agreement");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("convertToFile leaves nothing at the caller's path when the document cannot be converted", { timeout: 30_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-pdf-out-"));
    try {
      const file = path.join(dir, "broken.pdf");
      const err = await pool.convertToFile(docx.subarray(0, Math.floor(docx.length / 2)), "docx", file).catch((e: unknown) => e);
      expect((err as UnprocessableError).code).toBe("DocumentNotConvertible");
      await expect(pool.convertToFile(Buffer.from("not a document"), "docx", file)).rejects.toBeInstanceOf(UnprocessableError);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("makes its job directory again when something removed it (a temp-file cleaner)", { timeout: 30_000 }, async () => {
    for (const dir of fs.readdirSync(tmpDir).filter((f) => f.startsWith("quire-pdf-"))) fs.rmSync(path.join(tmpDir, dir), { recursive: true });
    expect(pdfText(await pool.convert(docx, "docx"))).toContain("Services Agreement");
  });

  it("removes every job's temporary files, failed ones included", async () => {
    // Cleanup runs just after a job settles; give it a moment. The two soffice profiles remain, and the
    // pool's one job directory, empty (close() removes it: the afterAll above finds nothing left).
    const entries = () => fs.readdirSync(tmpDir).sort();
    const jobDir = () => entries().filter((f) => f.startsWith("quire-pdf-"));
    expect(jobDir()).toHaveLength(1);
    await until(() => fs.readdirSync(path.join(tmpDir, jobDir()[0])).length === 0, 2_000);
    expect(entries().filter((f) => f.startsWith("quire-soffice-"))).toHaveLength(2);
    expect(entries()).toHaveLength(3);
  });
});

describe("LibreOfficePool (1 slot): timeouts, aborts, shutdown", () => {
  const pool = new LibreOfficePool({ size: 1, timeoutMs: 30_000 });
  afterAll(() => pool.close());

  it("kills and restarts a slot whose conversion times out", { timeout: 40_000 }, async () => {
    await pool.warmUp();
    const [before] = pool.stats().sofficePids;
    const err = await pool.convert(docx, "docx", { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as UnavailableError).code).toBe("PdfConversionTimeout");
    await until(() => !alive(before), 5_000);
    // The next job runs on a fresh soffice.
    const pdf = await pool.convert(docx, "docx");
    expect(pdfText(pdf)).toContain("Services Agreement");
    const [after] = pool.stats().sofficePids;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });

  it("restarts a slot whose soffice died", { timeout: 40_000 }, async () => {
    await pool.warmUp();
    const [before] = pool.stats().sofficePids;
    process.kill(-before, "SIGKILL");
    await until(() => pool.stats().running === 0, 5_000);
    expect(isPdf(await pool.convert(pptx, "pptx"))).toBe(true);
    expect(pool.stats().sofficePids).not.toContain(before);
  });

  it("honours AbortSignal before and during a conversion", { timeout: 40_000 }, async () => {
    await pool.warmUp();
    const reason = new Error("client went away");

    const pre = new AbortController();
    pre.abort(reason);
    await expect(pool.convert(docx, "docx", { signal: pre.signal })).rejects.toBe(reason);

    // One slot: the first job runs, the second waits in the queue.
    const running = new AbortController();
    const queued = new AbortController();
    const first = pool.convert(pptx, "pptx", { signal: running.signal });
    const second = pool.convert(docx, "docx", { signal: queued.signal });
    expect(pool.stats()).toMatchObject({ busy: 1, queued: 1 });

    queued.abort(reason);
    await expect(second).rejects.toBe(reason);
    expect(pool.stats().queued).toBe(0);

    running.abort(reason);
    const started = performance.now();
    await expect(first).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(50);

    // The abandoned conversion finishes in the background; the slot then serves the next job.
    expect(isPdf(await pool.convert(docx, "docx"))).toBe(true);
  });

  it("convertToFile aborted while soffice writes: once soffice lets go, nothing is left at the caller's path", { timeout: 40_000 }, async () => {
    await pool.warmUp();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-pdf-out-"));
    try {
      const file = path.join(dir, "abandoned.pdf");
      const abort = new AbortController();
      const job = pool.convertToFile(pptx, "pptx", file, { signal: abort.signal });
      expect(pool.stats()).toMatchObject({ busy: 1 });
      abort.abort(new Error("client went away"));
      await expect(job).rejects.toThrow("client went away");
      await until(() => pool.stats().busy === 0, 20_000);
      await until(() => !fs.existsSync(file), 2_000);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("close() stops soffice and rejects later conversions", { timeout: 20_000 }, async () => {
    await pool.warmUp();
    const pids = pool.stats().sofficePids;
    await pool.close();
    expect(pids.some(alive)).toBe(false);
    expect(await pool.status()).toBe("unavailable");
    await expect(pool.convert(docx, "docx")).rejects.toBeInstanceOf(UnavailableError);
  });
});

describe("LibreOfficePool recycling", () => {
  it("replaces a slot's soffice after maxConversionsPerProcess conversions", { timeout: 30_000 }, async () => {
    const pool = new LibreOfficePool({ size: 1, timeoutMs: 30_000, maxConversionsPerProcess: 2 });
    try {
      await pool.convert(docx, "docx");
      const [first] = pool.stats().sofficePids;
      await pool.convert(docx, "docx");
      await until(() => pool.stats().running === 1 && pool.stats().sofficePids[0] !== first, 15_000);
      expect(pdfText(await pool.convert(docx, "docx"))).toContain("Services Agreement");
      await until(() => !alive(first), 5_000);
    } finally {
      await pool.close();
    }
  });

  it("lets a retired soffice shut down: the launcher reaps soffice.bin before anything is killed", { timeout: 20_000 }, async () => {
    // Stand-ins with LibreOffice's shape: a launcher (oosplash) that forks the office (soffice.bin) and
    // waits for it, and a helper that, asked to quit, tells the office to terminate and exits at once,
    // while the office still takes half a second to shut down. A group kill in that half second takes
    // the launcher before it reaps the office, which then goes to init: in a container whose first
    // process is Node, a zombie nobody reaps.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-quit-"));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const mark = path.join(dir, "mark");
    const launcher = path.join(dir, "soffice");
    fs.writeFileSync(
      launcher,
      `#!/bin/bash\n( trap 'sleep 0.5; exit 0' TERM; while true; do sleep 0.05; done ) &\necho $! > ${mark}.office\nwait $!\necho reaped > ${mark}\n`,
      { mode: 0o755 },
    );
    const helper = path.join(dir, "helper.sh");
    fs.writeFileSync(
      helper,
      `until [ -s ${mark}.office ]; do sleep 0.05; done\necho '{"ready": true}'\nwhile read -r line; do case "$line" in *quit*) kill -TERM "$(cat ${mark}.office)"; exit 0;; esac; done\n`,
    );
    const proc = new OfficeProcess({
      sofficePath: launcher,
      pythonPath: "/bin/bash",
      helperScript: helper,
      profileDir: path.join(dir, "profile"),
      pipeName: "quire-quit-test",
      connectTimeoutMs: 10_000,
      mallocLibrary: null,
      dladdrCache: null,
    });
    await proc.ready;
    await proc.quit(5_000, "test");
    expect(fs.existsSync(mark) && fs.readFileSync(mark, "utf8")).toBe("reaped\n");
  });

  it("reads a slot's memory after its first conversion, then at most once a second", { timeout: 30_000 }, async () => {
    const pool = new LibreOfficePool({ size: 1, timeoutMs: 30_000 });
    const reads = vi.spyOn(OfficeProcess.prototype, "residentBytes");
    onTestFinished(() => reads.mockRestore());
    try {
      await pool.convert(docx, "docx");
      expect(reads).toHaveBeenCalledTimes(1);
      const first = Date.now();
      for (let i = 0; i < 5; i++) await pool.convert(docx, "docx");
      // Five conversions take well under a second here: usually no read at all.
      expect(reads.mock.calls.length - 1).toBeLessThanOrEqual(Math.floor((Date.now() - first) / 1000));
    } finally {
      await pool.close();
    }
  });

  it("replaces a slot's soffice once it holds more memory than maxResidentBytes, and removes its profile", { timeout: 45_000 }, async () => {
    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-recycle-"));
    const profiles = () => fs.readdirSync(tmpDir).filter((name) => name.startsWith("quire-soffice-"));
    // A warm soffice holds well over 64 MiB and well under the default: the first pool keeps its
    // process, the second replaces it after every conversion.
    const roomy = new LibreOfficePool({ size: 1, timeoutMs: 30_000, tmpDir });
    try {
      for (let i = 0; i < 3; i++) await roomy.convert(docx, "docx");
      const [kept] = roomy.stats().sofficePids;
      await roomy.convert(docx, "docx");
      expect(roomy.stats().sofficePids).toEqual([kept]);
    } finally {
      await roomy.close();
    }
    const tight = new LibreOfficePool({ size: 1, timeoutMs: 30_000, tmpDir, maxResidentBytes: 64 * 1024 * 1024 });
    try {
      await tight.convert(docx, "docx");
      const [first] = tight.stats().sofficePids;
      await until(() => tight.stats().running === 1 && tight.stats().sofficePids[0] !== first, 20_000);
      expect(pdfText(await tight.convert(docx, "docx"))).toContain("Services Agreement");
      await until(() => !alive(first), 5_000);
      // The retired process's profile goes once it has exited: only the running one's is left.
      await until(() => profiles().length === 1, 5_000);
    } finally {
      await tight.close();
      fs.rmSync(tmpDir, { recursive: true, force: true });
    }
  });
});

/**
 * A stand-in soffice (it just waits) and a scripted UNO helper: how the pool tells a crash from an
 * answer, without depending on when a real soffice happens to die or on what LibreOffice then says.
 * The helper reads what to do for each job from a list of steps, one per request, across restarts.
 */
describe("LibreOfficePool crash handling (scripted helper)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-pdf-scripted-"));
  const soffice = path.join(dir, "soffice");
  fs.writeFileSync(soffice, "#!/bin/sh\nexec sleep 600\n", { mode: 0o755 });
  const helper = path.join(dir, "helper.py");
  const steps = path.join(dir, "steps.json");
  fs.writeFileSync(
    helper,
    `import json, sys
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    if job.get("quit"):
        sys.exit(0)
    with open(${JSON.stringify(steps)}) as f:
        todo = json.load(f)
    step = todo.pop(0)
    with open(${JSON.stringify(steps)}, "w") as f:
        json.dump(todo, f)
    if step == "pdf":
        with open(job["out"], "wb") as out:
            out.write(b"%PDF-1.4 scripted")
        print(json.dumps({"id": job["id"], "ok": True, "size": 17}), flush=True)
    elif step.startswith("answer:"):
        print(json.dumps({"id": job["id"], "ok": False, "input": False, "error": step[7:]}), flush=True)
    elif step == "exit":
        sys.exit(1)  # gone without a word, as when soffice takes the bridge down mid-call
    else:
        print(json.dumps({"id": job["id"], "ok": False, "input": False, "crashed": True, "error": "LibreOffice failed: " + step}), flush=True)
        sys.exit(1)
`,
  );
  const pools: LibreOfficePool[] = [];
  const scriptedPool = (...todo: string[]) => {
    fs.writeFileSync(steps, JSON.stringify(todo));
    const pool = new LibreOfficePool({
      size: 1,
      timeoutMs: 10_000,
      sofficePath: soffice,
      helperScript: helper,
      tmpDir: fs.mkdtempSync(path.join(dir, "pool-")),
    });
    pools.push(pool);
    return pool;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("retries once after a crash whatever LibreOffice's message says, on a new soffice", { timeout: 30_000 }, async () => {
    const pool = scriptedPool("Binary URP bridge already disposed", "pdf");
    const info = vi.spyOn(log, "info");
    onTestFinished(() => info.mockRestore());
    await pool.warmUp();
    const [first] = pool.stats().sofficePids;
    const pdf = await pool.convert(docx, "docx");
    expect(pdf.toString("latin1")).toBe("%PDF-1.4 scripted");
    expect(JSON.parse(fs.readFileSync(steps, "utf8"))).toEqual([]);
    expect(pool.stats().sofficePids).not.toContain(first);
    expect(info).toHaveBeenCalledWith(
      expect.objectContaining({ sofficePid: first, reason: "soffice crashed under a conversion" }),
      "LibreOffice process retired",
    );
  });

  it("retries once when the helper exits mid-call without answering", { timeout: 30_000 }, async () => {
    const pool = scriptedPool("exit", "pdf");
    const warn = vi.spyOn(log, "warn");
    onTestFinished(() => warn.mockRestore());
    expect((await pool.convert(docx, "docx")).toString("latin1")).toBe("%PDF-1.4 scripted");
    // Logged, with what an operator needs to tell a crash-prone document from a failing machine.
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ pdfConverter: "libreoffice", conversions: 0, reason: expect.stringMatching(/the UNO helper exited \(code 1\)/) }),
      "LibreOffice process stopped on its own",
    );
  });

  it("blames the document (422, not 503) when it crashes soffice twice, in any wording, and keeps converting", { timeout: 30_000 }, async () => {
    const pool = scriptedPool("com.sun.star.uno.RuntimeException", "exit", "pdf");
    const err = await pool.convert(docx, "docx").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnprocessableError);
    expect((err as UnprocessableError).code).toBe("DocumentNotConvertible");
    expect((err as Error).message).toMatch(/LibreOffice stops every time it opens it/);
    expect((await pool.convert(docx, "docx")).toString("latin1")).toBe("%PDF-1.4 scripted");
  });

  it("does not retry a failure that is not a crash: 503 at once, on the same soffice", { timeout: 30_000 }, async () => {
    const pool = scriptedPool("pdf", "answer:PDF export failed: disk full", "pdf");
    await pool.convert(docx, "docx");
    const pids = pool.stats().sofficePids;
    const err = await pool.convert(docx, "docx").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toMatch(/disk full/);
    expect(JSON.parse(fs.readFileSync(steps, "utf8"))).toEqual(["pdf"]);
    expect((await pool.convert(docx, "docx")).toString("latin1")).toBe("%PDF-1.4 scripted");
    expect(pool.stats().sofficePids).toEqual(pids);
  });
});

/**
 * A stand-in soffice that aborts while it starts (as LibreOffice 7.4 now and then does: an uncaught C++
 * exception, exit code 134) its first `crashes` times, and a helper that answers only once soffice has
 * had time to die, as the real one waits for soffice's pipe. Its abort message comes from a process it
 * started, after it has exited, as soffice.bin's may reach the pipe after the launcher's exit is seen.
 */
describe("LibreOfficePool: soffice that aborts while it starts", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-pdf-startcrash-"));
  const helper = path.join(dir, "helper.py");
  fs.writeFileSync(
    helper,
    `import json, sys, time
time.sleep(0.5)
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    if job.get("quit"):
        sys.exit(0)
    with open(job["out"], "wb") as out:
        out.write(b"%PDF-1.4 after a restart")
    print(json.dumps({"id": job["id"], "ok": True, "size": 24}), flush=True)
`,
  );
  const pools: LibreOfficePool[] = [];
  /** A pool whose soffice aborts on its first `crashes` starts; `starts()` counts every start. */
  const poolCrashingAtStart = (crashes: number) => {
    const run = fs.mkdtempSync(path.join(dir, "run-"));
    const soffice = path.join(run, "soffice");
    const started = path.join(run, "starts");
    fs.writeFileSync(
      soffice,
      `#!/bin/sh\necho start >> ${started}\nif [ "$(wc -l < ${started})" -le ${crashes} ]; then (sleep 0.05; echo "terminate called after throwing an instance of 'com::sun::star::uno::RuntimeException'" >&2) & exit 134; fi\nexec sleep 600\n`,
      { mode: 0o755 },
    );
    const pool = new LibreOfficePool({ size: 1, timeoutMs: 10_000, sofficePath: soffice, helperScript: helper, tmpDir: run });
    pools.push(pool);
    return { pool, starts: () => (fs.existsSync(started) ? fs.readFileSync(started, "utf8").split("\n").filter(Boolean).length : 0) };
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("starts another soffice when one aborts while starting: the conversion succeeds, and the abort is logged", { timeout: 30_000 }, async () => {
    const { pool, starts } = poolCrashingAtStart(1);
    const warn = vi.spyOn(log, "warn");
    onTestFinished(() => warn.mockRestore());
    expect((await pool.convert(docx, "docx")).toString("latin1")).toBe("%PDF-1.4 after a restart");
    expect(starts()).toBe(2);
    expect(warn).toHaveBeenCalledWith(
      // With its last words: the exit is seen before the pipe is read, and the pool reads the pipe first.
      expect.objectContaining({ pdfConverter: "libreoffice", reason: expect.stringMatching(/soffice exited \(code 134\): .*RuntimeException/) }),
      "LibreOffice process stopped on its own",
    );
    expect(await pool.status()).toBe("ok");
  });

  it("warmUp() too (the bench's floor and an eager start at boot)", { timeout: 30_000 }, async () => {
    const { pool, starts } = poolCrashingAtStart(1);
    await pool.warmUp();
    expect(pool.stats().running).toBe(1);
    expect(starts()).toBe(2);
  });

  it("gives up after two aborts in a row: 503 PdfConverterUnavailable with soffice's words, and no crash loop", { timeout: 30_000 }, async () => {
    const { pool, starts } = poolCrashingAtStart(100);
    const err = await pool.convert(docx, "docx").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as UnavailableError).code).toBe("PdfConverterUnavailable");
    expect((err as Error).message).toMatch(/LibreOffice stopped: soffice exited \(code 134\): .*RuntimeException/);
    expect(await pool.status()).toBe("unavailable");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(starts()).toBe(2);
  });
});

describe("LibreOfficePool: what soffice runs with", () => {
  /** The pool's soffice.bin (the launcher's child): its pid, read from /proc. */
  const sofficeBin = (pool: LibreOfficePool) => {
    const [launcher] = pool.stats().sofficePids;
    const children = fs
      .readdirSync(`/proc/${launcher}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${launcher}/task/${task}/children`, "utf8").split(" ").filter(Boolean));
    expect(children).toHaveLength(1);
    return children[0];
  };
  const environment = (pid: string) =>
    new Map(
      fs
        .readFileSync(`/proc/${pid}/environ`, "utf8")
        .split("\0")
        .filter(Boolean)
        .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
    );

  it("jemalloc by default (installed with LibreOffice), the C library's malloc when asked", { timeout: 60_000 }, async () => {
    const jemalloc = findMallocLibrary();
    expect(jemalloc, "libjemalloc2 is installed (scripts/install-system-deps.sh)").toMatch(/libjemalloc\.so\.2$/);
    const pools = [new LibreOfficePool({ size: 1, timeoutMs: 30_000 }), new LibreOfficePool({ size: 1, timeoutMs: 30_000, mallocLibrary: null })];
    try {
      for (const pool of pools) expect(pdfText(await pool.convert(docx, "docx"))).toContain("Services Agreement");
      const maps = pools.map((pool) => fs.readFileSync(`/proc/${sofficeBin(pool)}/maps`, "utf8"));
      expect(maps[0]).toContain(fs.realpathSync(jemalloc!));
      expect(maps[1]).not.toContain("jemalloc");
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });

  it("Quire's dladdr cache by default (npm run build makes it), none when asked: the same PDF either way", { timeout: 60_000 }, async () => {
    execFileSync(process.execPath, [path.join(process.cwd(), "scripts", "build-native.mjs")]);
    const cache = findDladdrCache();
    expect(cache, "built under build/native by scripts/build-native.mjs").toMatch(/libquire-dladdr-cache\.so$/);
    const pools = [new LibreOfficePool({ size: 1, timeoutMs: 30_000 }), new LibreOfficePool({ size: 1, timeoutMs: 30_000, dladdrCache: null })];
    try {
      // Twice each: the second conversion is the one the cache answers most of.
      const texts = [];
      for (const pool of pools) for (let i = 0; i < 2; i++) texts.push(pdfText(await pool.convert(docx, "docx")));
      expect(texts[0]).toContain("Services Agreement");
      expect(new Set(texts).size).toBe(1);
      const [withCache, without] = pools.map((pool) => sofficeBin(pool));
      expect(fs.readFileSync(`/proc/${withCache}/maps`, "utf8")).toContain(cache!);
      expect(environment(withCache).get("LD_PRELOAD")).toBe([findMallocLibrary(), cache].join(":"));
      expect(fs.readFileSync(`/proc/${without}/maps`, "utf8")).not.toContain("dladdr-cache");
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });

  it("convertToFile from its job directory in memory to a file on disk: copied whole (one rename tried, then straight copies), nothing left behind in memory", {
    timeout: 60_000,
  }, async () => {
    const memory = fs.mkdtempSync("/dev/shm/quire-test-moves-");
    const pool = new LibreOfficePool({ size: 1, timeoutMs: 30_000, tmpDir: memory });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-pdf-out-"));
    const renames = vi.spyOn(fsp, "rename");
    try {
      expect(fs.statSync(dir).dev, "the caller's file is on another file system than /dev/shm").not.toBe(fs.statSync("/dev/shm").dev);
      for (const name of ["first.pdf", "second.pdf"]) {
        const file = path.join(dir, name);
        const { size } = await pool.convertToFile(docx, "docx", file);
        expect(fs.statSync(file).size).toBe(size);
        expect(pdfText(fs.readFileSync(file))).toContain("Services Agreement");
      }
      // The first rename answered EXDEV; the second PDF was copied without trying again.
      expect(renames.mock.calls.filter(([, to]) => String(to).startsWith(dir))).toHaveLength(1);
      // The job directory empties: each document's input and PDF are removed once it is settled.
      const jobFiles = () =>
        fs
          .readdirSync(memory)
          .filter((name) => name.startsWith("quire-pdf-"))
          .flatMap((jobDir) => fs.readdirSync(path.join(memory, jobDir)));
      await until(() => jobFiles().length === 0, 5_000);
    } finally {
      renames.mockRestore();
      await pool.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(memory, { recursive: true, force: true });
    }
  });

  it("starts on a profile that records the installed version: soffice skips the graphics render tests it runs after an upgrade", {
    timeout: 60_000,
  }, async () => {
    const installed = /LibreOffice (\d+\.\d+)/.exec(execFileSync("soffice", ["--version"]).toString())?.[1];
    expect(installed, "soffice --version names its version").toBeDefined();
    expect(await findOfficeVersion("soffice")).toBe(installed);
    const pool = new LibreOfficePool({ size: 1, timeoutMs: 30_000 });
    try {
      expect(pdfText(await pool.convert(docx, "docx"))).toContain("Services Agreement");
      const user = path.join(environment(sofficeBin(pool)).get("TMPDIR")!, "user");
      const settings = fs.readFileSync(path.join(user, "registrymodifications.xcu"), "utf8");
      expect(settings).toMatch(new RegExp(`oor:name="ooSetupLastVersion"[^>]*>\\s*<value>${installed!.replace(".", "\\.")}</value>`));
      // What those tests leave in a profile (vcl's GraphicsRenderTests, 3.3 s of CPU at every start): nothing.
      expect(fs.readdirSync(user)).not.toContain("GraphicsRenderTests.log");
    } finally {
      await pool.close();
    }
  });

  it("in memory, a job's files are written, read and removed at once; on disk, or over 4 MiB, through Node's thread pool", { timeout: 60_000 }, async () => {
    const memory = fs.mkdtempSync("/dev/shm/quire-test-at-once-");
    const disk = fs.mkdtempSync(path.join(os.tmpdir(), "quire-test-at-once-"));
    const pools = [new LibreOfficePool({ size: 1, timeoutMs: 30_000, tmpDir: memory }), new LibreOfficePool({ size: 1, timeoutMs: 30_000, tmpDir: disk })];
    const zip = new PizZip(docx);
    // A part nothing refers to, stored uncompressed: a 5 MiB document with the contract's text.
    zip.file("customXml/padding.bin", crypto.randomBytes(5 * 1024 * 1024));
    const large = zip.generate({ type: "nodebuffer", compression: "STORE" });
    const spies = {
      writeAtOnce: vi.spyOn(fs, "writeFileSync"),
      readAtOnce: vi.spyOn(fs, "readFileSync"),
      unlinkAtOnce: vi.spyOn(fs, "unlinkSync"),
      write: vi.spyOn(fsp, "writeFile"),
      read: vi.spyOn(fsp, "readFile"),
      unlink: vi.spyOn(fsp, "unlink"),
    };
    /** Which calls touched a job file (a .docx or .pdf in the pool's job directory) under `dir`. */
    const jobCalls = (dir: string) =>
      Object.entries(spies)
        .filter(([, spy]) => spy.mock.calls.some(([file]) => String(file).startsWith(path.join(dir, "quire-pdf-"))))
        .map(([name]) => name)
        .sort();
    const convert = async (pool: LibreOfficePool, input: Buffer) => {
      for (const spy of Object.values(spies)) spy.mockClear();
      expect(pdfText(await pool.convert(input, "docx"))).toContain("Services Agreement");
      // Removed once the job is settled, just after the reply.
      await until(
        () =>
          jobCalls(memory)
            .concat(jobCalls(disk))
            .some((name) => name.startsWith("unlink")),
        5_000,
      );
    };
    try {
      await convert(pools[0], docx);
      expect(jobCalls(memory)).toEqual(["readAtOnce", "unlinkAtOnce", "writeAtOnce"]);
      await convert(pools[0], large);
      expect(jobCalls(memory)).toEqual(["read", "unlink", "write"]);
      await convert(pools[1], docx);
      expect(jobCalls(disk)).toEqual(["read", "unlink", "write"]);
    } finally {
      for (const spy of Object.values(spies)) spy.mockRestore();
      await Promise.all(pools.map((p) => p.close()));
      fs.rmSync(memory, { recursive: true, force: true });
      fs.rmSync(disk, { recursive: true, force: true });
    }
  });

  it("works in memory by default (/dev/shm is tmpfs here), its temporary files in its profile, gone even after a SIGKILL", { timeout: 60_000 }, async () => {
    expect(findMemoryTempDir(), "/dev/shm is a tmpfs with room on this machine").toBe("/dev/shm");
    const pool = new LibreOfficePool({ size: 1, timeoutMs: 30_000 });
    try {
      expect(pdfText(await pool.convert(docx, "docx"))).toContain("Services Agreement");
      const [launcher] = pool.stats().sofficePids;
      const tmp = environment(sofficeBin(pool)).get("TMPDIR")!;
      expect(tmp).toMatch(/^\/dev\/shm\/quire-soffice-/);
      // soffice made its temporary directory there (lu<pid><id>.tmp), not in /tmp.
      expect(fs.readdirSync(tmp).some((name) => /^lu.*\.tmp$/.test(name))).toBe(true);
      process.kill(-launcher, "SIGKILL");
      await until(() => !fs.existsSync(tmp), 10_000);
      expect(pdfText(await pool.convert(docx, "docx"))).toContain("Services Agreement");
    } finally {
      await pool.close();
    }
  });
});

describe("LibreOfficePool without LibreOffice", () => {
  it("reports unavailable and explains what to install", async () => {
    const pool = new LibreOfficePool({ size: 1, timeoutMs: 5_000, sofficePath: "/nonexistent/soffice" });
    expect(await pool.status()).toBe("unavailable");
    const err = await pool.convert(docx, "docx").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toMatch(/not installed.*scripts\/install-system-deps\.sh/);
    await pool.close();
  });

  it("reports unavailable when the python cannot import uno", async () => {
    const pool = new LibreOfficePool({ size: 1, timeoutMs: 5_000, pythonPath: process.execPath /* node, no uno */ });
    expect(await pool.status()).toBe("unavailable");
    await expect(pool.convert(docx, "docx")).rejects.toThrow(/python3-uno/);
    await pool.close();
  });
});

describe("pdfConverter()", () => {
  it("is one process-wide LibreOffice pool by default and reports its status without starting it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-pdf-config-"));
    vi.stubEnv("DATA_DIR", dataDir);
    vi.stubEnv("GOTENBERG_URL", undefined);
    vi.stubEnv("BASE_URL", "http://localhost:3000"); // vitest sets BASE_URL="/" (Vite's), not a URL
    const { pdfConverter, pdfConverterInfo, closePdfConverter } = await import("@/lib/pdf/converter");
    try {
      expect(pdfConverter()).toBe(pdfConverter());
      expect(pdfConverter().kind).toBe("libreoffice");
      expect(await pdfConverterInfo()).toEqual({ kind: "libreoffice", status: "ok" });
      expect((pdfConverter() as LibreOfficePool).stats().running).toBe(0);
    } finally {
      await closePdfConverter();
      vi.unstubAllEnvs();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// Local DOCX/PPTX -> PDF through a pool of warm LibreOffice instances.
//
// `soffice --convert-to` pays LibreOffice's start-up (~1.3 s) for every document. Instead each pool
// slot keeps one headless soffice running, driven by one long-lived `uno_convert.py` (the system
// python3 with python3-uno is the only UNO bridge we can use from Node). A warm slot converts a
// small DOCX in well under 100 ms. One soffice converts one document at a time, so concurrency
// comes from the number of slots; extra jobs wait in a FIFO queue.
//
// Nothing starts at import: the first conversion starts a slot (and warms the others in the
// background), so `next build` and processes that never convert spawn nothing.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { QuireError, UnavailableError, UnprocessableError } from "@/lib/errors";
import { log } from "@/lib/log";
import { withoutComments } from "@/lib/pdf/docx-comments";
import { installedFontFamilies } from "@/lib/pdf/installed-fonts";
import type { ConvertOptions, ConvertibleKind, ConverterStatus, PdfConverter } from "@/lib/pdf/converter";

const FORMATS: Record<ConvertibleKind, { importFilter: string; exportFilter: string }> = {
  docx: { importFilter: "MS Word 2007 XML", exportFilter: "writer_pdf_Export" },
  pptx: { importFilter: "Impress MS PowerPoint 2007 XML", exportFilter: "impress_pdf_Export" },
};

const INSTALL_HINT =
  "run scripts/install-system-deps.sh (Debian/Ubuntu packages libreoffice-writer-nogui, libreoffice-impress-nogui, python3-uno) " +
  "or point GOTENBERG_URL at a Gotenberg 8 service";

/** A process that dies younger than this is not restarted in the background, to avoid crash loops. */
const MIN_UPTIME_FOR_AUTO_RESTART_MS = 5_000;
/** How long close() lets soffice shut down cleanly (it then removes its own pipes) before killing it. */
const QUIT_GRACE_MS = 5_000;
/** A failed dependency check is retried after this, so installing LibreOffice needs no restart. */
const DEPENDENCY_RECHECK_MS = 30_000;
/** soffice grows with every document it opens; recycling it bounds that (JODConverter's default too). */
const DEFAULT_MAX_CONVERSIONS_PER_PROCESS = 200;

export interface LibreOfficePoolOptions {
  /** Number of soffice instances, i.e. conversions that run at the same time. */
  size: number;
  /** Default per-conversion limit, counted from when a started slot takes the job (queueing is not counted). */
  timeoutMs: number;
  /** Default "soffice", looked up on PATH. */
  sofficePath?: string;
  /** Default "/usr/bin/python3": the interpreter python3-uno installs into. */
  pythonPath?: string;
  /**
   * Default `<cwd>/lib/pdf/uno_convert.py`. Resolved from the working directory rather than this
   * module, because Next.js bundles move the module to .next/ but not the script.
   */
  helperScript?: string;
  /** Limit for starting soffice and connecting to it. Default max(timeoutMs, 30 s). */
  startTimeoutMs?: number;
  /** Where soffice profiles and per-conversion files go. Default os.tmpdir(). */
  tmpDir?: string;
  /** A slot's soffice is replaced after this many conversions. Default 200. */
  maxConversionsPerProcess?: number;
  /** What is done to a DOCX before soffice sees it. Default: Word comments removed (docx-comments.ts). */
  prepareDocx?: (docx: Buffer) => Buffer;
}

export interface LibreOfficeConvertOptions extends ConvertOptions {
  /** Overrides the pool's per-conversion limit for this job. */
  timeoutMs?: number;
}

export interface LibreOfficePoolStats {
  size: number;
  /** Slots with a started soffice. */
  running: number;
  busy: number;
  queued: number;
  /** soffice launcher pids of running slots (they change when a slot is restarted). */
  sofficePids: number[];
}

interface HelperRequest {
  in: string;
  out: string;
  import: string;
  filter: string;
}

interface HelperReply {
  id: number;
  ok: boolean;
  /** On failure: true when the document is at fault, false when LibreOffice is. */
  input?: boolean;
  error?: string;
}

/** What the helper reports when soffice dies under a call (a crash, not an answer about the file). */
const SOFFICE_DIED = /bridge disposed|DisposedException|soffice (exited|died)|connection (reset|closed)/i;

/** Where one job's document and PDF live: its own directory, removed once the job is settled and off the slot. */
interface JobFiles {
  dir: string;
  input: string;
  output: string;
}

interface Job {
  /** Written while the job waits in the queue, so a freed soffice starts on it at once. */
  files: Promise<JobFiles>;
  kind: ConvertibleKind;
  timeoutMs: number;
  signal?: AbortSignal;
  onAbort: () => void;
  resolve: (pdf: Buffer) => void;
  reject: (err: unknown) => void;
  done: boolean;
  /** A slot holds it: its files stay until the slot lets go. */
  running?: boolean;
  filesRemoved?: boolean;
  /** soffice died under this job once already: a second death blames the document. */
  crashedOnce?: boolean;
}

interface Slot {
  index: number;
  proc: OfficeProcess | null;
  starting: Promise<OfficeProcess> | null;
  busy: boolean;
}

export class LibreOfficePool implements PdfConverter {
  readonly kind = "libreoffice" as const;
  readonly fonts = installedFontFamilies;
  private readonly size: number;
  private readonly timeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly sofficePath: string;
  private readonly pythonPath: string;
  private readonly helperScript: string;
  private readonly tmpDir: string;
  private readonly prepareDocx: (docx: Buffer) => Buffer;
  private readonly maxConversionsPerProcess: number;
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  /** Every process not yet confirmed gone, including ones still starting: what the exit hook kills. */
  private readonly live = new Set<OfficeProcess>();
  private closed = false;
  private warmedOthers = false;
  private lastStartError: Error | null = null;
  private dependencyCheck: { at: number; result: Promise<string | null>; failed: boolean } | null = null;
  private exitHook: (() => void) | null = null;

  constructor(options: LibreOfficePoolOptions) {
    this.size = Math.max(1, Math.floor(options.size));
    this.timeoutMs = options.timeoutMs;
    this.startTimeoutMs = options.startTimeoutMs ?? Math.max(options.timeoutMs, 30_000);
    this.sofficePath = options.sofficePath ?? "soffice";
    this.pythonPath = options.pythonPath ?? "/usr/bin/python3";
    this.helperScript = options.helperScript ?? path.join(process.cwd(), "lib", "pdf", "uno_convert.py");
    this.tmpDir = options.tmpDir ?? os.tmpdir();
    this.prepareDocx = options.prepareDocx ?? withoutComments;
    this.maxConversionsPerProcess = options.maxConversionsPerProcess ?? DEFAULT_MAX_CONVERSIONS_PER_PROCESS;
    this.slots = Array.from({ length: this.size }, (_, index) => ({ index, proc: null, starting: null, busy: false }));
  }

  convert(input: Buffer, kind: ConvertibleKind, opts: LibreOfficeConvertOptions = {}): Promise<Buffer> {
    if (!Object.hasOwn(FORMATS, kind)) return Promise.reject(new UnprocessableError(`Cannot convert "${kind}" to PDF`, "DocumentNotConvertible"));
    // DOCX and PPTX are ZIP packages. LibreOffice would turn an empty or non-ZIP file into a blank PDF.
    if (input.subarray(0, 2).toString("latin1") !== "PK") {
      return Promise.reject(
        new UnprocessableError(`The ${kind.toUpperCase()} file could not be converted to PDF: it is not a ZIP package`, "DocumentNotConvertible"),
      );
    }
    if (this.closed) return Promise.reject(closedError());
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Buffer>((resolve, reject) => {
      const files = this.writeJobFiles(kind === "docx" ? this.prepareDocx(input) : input, kind);
      files.catch(() => {}); // reported by run() when a slot takes the job
      const job: Job = { files, kind, timeoutMs: opts.timeoutMs ?? this.timeoutMs, signal, onAbort: () => {}, resolve, reject, done: false };
      job.onAbort = () => {
        // Still queued: it never reaches LibreOffice. Running: the slot finishes (or times out) on its
        // own and the result is dropped, which is cheaper than restarting soffice.
        const queued = this.queue.indexOf(job);
        if (queued >= 0) this.queue.splice(queued, 1);
        this.settle(job, signal!.reason);
      };
      signal?.addEventListener("abort", job.onAbort, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  async status(): Promise<ConverterStatus> {
    if (this.closed) return "unavailable";
    if (await this.missingDependency()) return "unavailable";
    // Not started yet counts as ok: health checks must not be what boots LibreOffice.
    const running = this.slots.some((s) => s.proc && !s.proc.dead);
    return running || !this.lastStartError ? "ok" : "unavailable";
  }

  /** Starts every slot now instead of on demand (benchmarks, tests, eager warm-up at boot). */
  async warmUp(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.ensureStarted(slot)));
  }

  stats(): LibreOfficePoolStats {
    const running = this.slots.filter((s) => s.proc && !s.proc.dead);
    return {
      size: this.size,
      running: running.length,
      busy: this.slots.filter((s) => s.busy).length,
      queued: this.queue.length,
      sofficePids: running.map((s) => s.proc!.sofficePid),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, closedError());
    await Promise.all(this.slots.map((s) => s.starting?.catch(() => null)));
    await Promise.all([...this.live].map((p) => p.quit(QUIT_GRACE_MS)));
    if (this.exitHook) process.off("exit", this.exitHook);
    this.exitHook = null;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.pickSlot();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.busy = true;
      void this.run(slot, job);
    }
  }

  /** Prefers a warm slot, then one already starting, so a light load does not wait for cold starts. */
  private pickSlot(): Slot | undefined {
    const free = this.slots.filter((s) => !s.busy);
    return free.find((s) => s.proc && !s.proc.dead) ?? free.find((s) => s.starting) ?? free[0];
  }

  private async run(slot: Slot, job: Job): Promise<void> {
    job.running = true;
    let output: string | null = null;
    let failure: unknown = null;
    let retry = false;
    try {
      const proc = await this.ensureStarted(slot);
      if (!job.done) {
        // (job.done here means it was aborted while soffice was starting.)
        const files = await job.files;
        if (job.crashedOnce) await fsp.rm(files.output, { force: true });
        const { importFilter, exportFilter } = FORMATS[job.kind];
        const reply = await this.requestWithTimeout(
          slot,
          proc,
          { in: files.input, out: files.output, import: importFilter, filter: exportFilter },
          job.timeoutMs,
        ).catch(crashAsReply);
        if (!reply.ok && !reply.input && SOFFICE_DIED.test(reply.error ?? "")) {
          // soffice died while reading this document. Once may be soffice; twice on the same file is the
          // file (422, not 503): the document, not the converter, needs fixing.
          this.retire(slot, proc);
          if (job.crashedOnce) {
            throw new UnprocessableError(
              `The ${job.kind.toUpperCase()} file could not be converted to PDF: LibreOffice stops every time it opens it. Open it in Word or LibreOffice, save it again (as .${job.kind}) and upload the new file.`,
              "DocumentNotConvertible",
            );
          }
          job.crashedOnce = true;
          retry = true;
        } else if (!reply.ok) {
          throw reply.input
            ? new UnprocessableError(`The ${job.kind.toUpperCase()} file could not be converted to PDF: ${reply.error}`, "DocumentNotConvertible")
            : new UnavailableError(`LibreOffice could not convert the document: ${reply.error}`, "PdfConverterUnavailable");
        } else {
          output = files.output;
          if (++proc.conversions >= this.maxConversionsPerProcess) this.retire(slot, proc);
        }
      }
    } catch (err) {
      failure = conversionFailure(err);
    }
    // soffice is done with this job: the slot takes the next one (its input already on disk) while
    // this PDF is read. Freed before the caller wakes: one that converts again right away finds it free.
    slot.busy = false;
    job.running = false;
    if (retry && !job.done) this.queue.unshift(job);
    this.dispatch();
    let pdf: Buffer | undefined;
    if (output) pdf = await readPdf(output).catch((err) => ((failure = conversionFailure(err)), undefined));
    if (!retry) this.settle(job, failure, pdf);
    // Settled while soffice held it (aborted): settle() left its files to us.
    if (job.done) removeJobFiles(job);
  }

  /** The job's directory with its input written; nothing is left behind when writing fails. */
  private async writeJobFiles(input: Buffer, kind: ConvertibleKind): Promise<JobFiles> {
    const dir = await fsp.mkdtemp(path.join(this.tmpDir, "quire-pdf-"));
    const files = { dir, input: path.join(dir, `in.${kind}`), output: path.join(dir, "out.pdf") };
    try {
      await fsp.writeFile(files.input, input);
    } catch (err) {
      await fsp.rm(dir, { recursive: true, force: true }).catch(() => {});
      throw err;
    }
    return files;
  }

  private requestWithTimeout(slot: Slot, proc: OfficeProcess, request: HelperRequest, timeoutMs: number): Promise<HelperReply> {
    return new Promise<HelperReply>((resolve, reject) => {
      // A ref'd timer: pool processes are unref'd, so this is what keeps Node alive while we wait.
      const timer = setTimeout(() => {
        // soffice cannot cancel a running conversion; a stuck one holds the slot, so replace it.
        const err = new UnavailableError(`PDF conversion did not finish within ${timeoutMs} ms`, "PdfConversionTimeout");
        reject(err);
        proc.kill(err);
        if (!this.closed) this.ensureStarted(slot).catch(() => {});
      }, timeoutMs);
      proc.request(request).then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        (err) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  }

  /** Swaps in a fresh soffice; the old one shuts down cleanly in the background. */
  private retire(slot: Slot, proc: OfficeProcess): void {
    if (slot.proc === proc) slot.proc = null;
    void proc.quit(QUIT_GRACE_MS);
    if (!this.closed) this.ensureStarted(slot).catch(() => {});
  }

  private settle(job: Job, err: unknown, pdf?: Buffer): void {
    if (job.done) return;
    job.done = true;
    // A job a slot still holds is cleaned up by run() once soffice lets go of its files.
    if (!job.running) removeJobFiles(job);
    job.signal?.removeEventListener("abort", job.onAbort);
    if (err) job.reject(err);
    else job.resolve(pdf!);
  }

  private ensureStarted(slot: Slot): Promise<OfficeProcess> {
    if (slot.proc && !slot.proc.dead) return Promise.resolve(slot.proc);
    slot.starting ??= this.startSlot(slot).finally(() => {
      slot.starting = null;
    });
    return slot.starting;
  }

  private async startSlot(slot: Slot): Promise<OfficeProcess> {
    const missing = await this.missingDependency();
    if (missing) throw new UnavailableError(`PDF conversion is unavailable: ${missing}; ${INSTALL_HINT}`, "PdfConverterUnavailable");
    if (this.closed) throw closedError();
    this.installExitHook();
    const profileDir = await fsp.mkdtemp(path.join(this.tmpDir, "quire-soffice-"));
    const proc = new OfficeProcess({
      sofficePath: this.sofficePath,
      pythonPath: this.pythonPath,
      helperScript: this.helperScript,
      profileDir,
      pipeName: `quire-${process.pid}-${slot.index}-${crypto.randomBytes(6).toString("hex")}`,
      connectTimeoutMs: this.startTimeoutMs,
    });
    this.live.add(proc);
    void proc.gone.then(() => this.live.delete(proc));
    try {
      await withTimeout(
        proc.ready,
        this.startTimeoutMs,
        () => new UnavailableError(`LibreOffice did not start within ${this.startTimeoutMs} ms`, "PdfConverterUnavailable"),
      );
    } catch (err) {
      proc.kill(err as Error);
      this.lastStartError = err as Error;
      throw err;
    }
    if (this.closed) {
      await proc.quit(QUIT_GRACE_MS);
      throw closedError();
    }
    this.lastStartError = null;
    slot.proc = proc;
    proc.onDeath = () => {
      if (slot.proc === proc) slot.proc = null;
      if (!this.closed && Date.now() - proc.startedAt >= MIN_UPTIME_FOR_AUTO_RESTART_MS) this.ensureStarted(slot).catch(() => {});
    };
    if (!this.warmedOthers) {
      // The first conversion starts one slot; the rest warm up behind it so a burst finds them ready.
      this.warmedOthers = true;
      for (const other of this.slots) if (other !== slot) this.ensureStarted(other).catch(() => {});
    }
    return proc;
  }

  private missingDependency(): Promise<string | null> {
    const now = Date.now();
    const check = this.dependencyCheck;
    if (!check || (check.failed && now - check.at > DEPENDENCY_RECHECK_MS)) {
      const result = findMissingDependency(this.sofficePath, this.pythonPath, this.helperScript);
      const entry = { at: now, result, failed: false };
      this.dependencyCheck = entry;
      void result.then((missing) => {
        entry.failed = missing !== null;
      });
      return result;
    }
    return check.result;
  }

  private installExitHook(): void {
    if (this.exitHook) return;
    // 'exit' handlers must be synchronous: kill and unlink, no waiting. If Node dies without running
    // them (SIGKILL), each helper notices it was orphaned and stops its soffice itself.
    this.exitHook = () => {
      for (const proc of this.live) proc.killNow();
    };
    process.on("exit", this.exitHook);
  }
}

interface OfficeProcessOptions {
  sofficePath: string;
  pythonPath: string;
  helperScript: string;
  profileDir: string;
  pipeName: string;
  connectTimeoutMs: number;
}

/** One soffice and the helper that drives it. Never reused once dead: the slot starts a new one. */
class OfficeProcess {
  readonly startedAt = Date.now();
  readonly sofficePid: number;
  /** Resolves once the helper is connected to soffice. */
  readonly ready: Promise<void>;
  /** Resolves once both processes have exited and their files are removed. */
  readonly gone: Promise<void>;
  dead: Error | null = null;
  conversions = 0;
  onDeath: (() => void) | null = null;

  private readonly soffice: ChildProcess;
  private readonly helper: ChildProcess;
  private readonly pending = new Map<number, { resolve: (reply: HelperReply) => void; reject: (err: Error) => void }>();
  private readonly profileUrl: string;
  private nextId = 1;
  private stdoutBuffer = "";
  private stderrTail = "";
  private filesRemoved = false;
  private markReady!: () => void;
  private failReady!: (err: Error) => void;

  constructor(private readonly opts: OfficeProcessOptions) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.markReady = resolve;
      this.failReady = reject;
    });
    this.ready.catch(() => {}); // observed through die(); avoid an unhandled rejection when nobody waits
    this.profileUrl = pathToFileURL(opts.profileDir).href;

    // Own process group: soffice forks soffice.bin, and killing the group is the only way to take
    // both down. A unix pipe instead of a TCP port: nothing else on the machine can reach this UNO
    // endpoint (which can run arbitrary office code), and there is no free-port race between slots.
    this.soffice = spawn(
      opts.sofficePath,
      [
        "--headless",
        "--invisible",
        "--nologo",
        "--norestore",
        "--nodefault",
        "--nolockcheck",
        `-env:UserInstallation=${this.profileUrl}`,
        `--accept=pipe,name=${opts.pipeName};urp;StarOffice.ComponentContext`,
      ],
      { detached: true, stdio: ["ignore", "ignore", "pipe"] },
    );
    this.sofficePid = this.soffice.pid ?? -1;
    this.helper = spawn(
      opts.pythonPath,
      [
        opts.helperScript,
        "--pipe",
        opts.pipeName,
        "--soffice-pgid",
        String(this.sofficePid),
        "--profile-dir",
        opts.profileDir,
        "--connect-timeout",
        String(Math.ceil(opts.connectTimeoutMs / 1000)),
        ...officePipeFiles(opts.pipeName, this.profileUrl).flatMap((file) => ["--stale-file", file]),
      ],
      { stdio: ["pipe", "pipe", "pipe"] },
    );

    const exited = (child: ChildProcess) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) resolve();
        else child.once("close", () => resolve()).once("error", () => resolve());
      });
    this.gone = Promise.all([exited(this.soffice), exited(this.helper)]).then(() => this.removeFiles());

    this.soffice.on("error", (err) =>
      this.die(new UnavailableError(`Cannot run ${opts.sofficePath}: ${err.message}; ${INSTALL_HINT}`, "PdfConverterUnavailable")),
    );
    this.helper.on("error", (err) =>
      this.die(new UnavailableError(`Cannot run ${opts.pythonPath}: ${err.message}; ${INSTALL_HINT}`, "PdfConverterUnavailable")),
    );
    this.soffice.on("exit", (code, signal) => this.die(this.failure(`soffice exited (${signal ?? `code ${code}`})`)));
    this.helper.on("exit", (code, signal) => this.die(this.failure(`the UNO helper exited (${signal ?? `code ${code}`})`)));
    this.soffice.stderr!.on("data", (chunk: Buffer) => this.keepStderr(chunk));
    this.helper.stderr!.on("data", (chunk: Buffer) => this.keepStderr(chunk));
    this.helper.stdout!.on("data", (chunk: Buffer) => this.onStdout(chunk));
    this.helper.stdin!.on("error", () => {}); // EPIPE when the helper died; reported by its exit event

    // Idle pool processes must not keep Node alive (a CLI that converted once should still exit);
    // in-flight work is covered by its ref'd timeout timer, and the exit hook kills the processes.
    for (const handle of [this.soffice, this.helper, this.soffice.stderr, this.helper.stdin, this.helper.stdout, this.helper.stderr]) {
      (handle as unknown as { unref?: () => void } | null)?.unref?.();
    }
  }

  request(request: HelperRequest): Promise<HelperReply> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<HelperReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.helper.stdin!.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  }

  /** Immediate: SIGKILL both processes; files are removed once they are gone. */
  kill(reason: Error): void {
    this.die(reason);
  }

  /** Lets soffice shut down cleanly, then kills whatever is left. */
  async quit(graceMs: number): Promise<void> {
    if (!this.dead) {
      this.helper.stdin!.write(`${JSON.stringify({ quit: true })}\n`);
      // Ref'd on purpose: the processes are unref'd, and without it Node could exit mid-shutdown.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.gone, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      this.die(closedError());
    }
    await this.gone;
  }

  /** For the process 'exit' hook, where nothing asynchronous runs any more. */
  killNow(): void {
    this.signalAll();
    this.removeFiles();
  }

  private die(reason: Error): void {
    if (this.dead) return;
    this.dead = reason;
    this.signalAll();
    this.failReady(reason);
    for (const { reject } of this.pending.values()) reject(reason);
    this.pending.clear();
    this.onDeath?.();
  }

  private signalAll(): void {
    try {
      if (this.sofficePid > 0) process.kill(-this.sofficePid, "SIGKILL");
    } catch {
      // already gone
    }
    if (this.helper.exitCode === null && this.helper.signalCode === null) this.helper.kill("SIGKILL");
  }

  private failure(what: string): UnavailableError {
    const tail = this.stderrTail.trim();
    return new UnavailableError(`LibreOffice stopped: ${what}${tail ? `: ${tail}` : ""}`, "PdfConverterUnavailable");
  }

  private keepStderr(chunk: Buffer): void {
    this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-1000);
  }

  private onStdout(chunk: Buffer): void {
    this.stdoutBuffer += chunk.toString("utf8");
    let newline: number;
    while ((newline = this.stdoutBuffer.indexOf("\n")) >= 0) {
      const line = this.stdoutBuffer.slice(0, newline).trim();
      this.stdoutBuffer = this.stdoutBuffer.slice(newline + 1);
      if (line) this.onMessage(line);
    }
  }

  private onMessage(line: string): void {
    let message: Partial<HelperReply> & { ready?: boolean; warning?: string; fatal?: string };
    try {
      message = JSON.parse(line);
    } catch {
      this.keepStderr(Buffer.from(`${line}\n`));
      return;
    }
    if (message.ready) {
      if (message.warning) log.warn({ pdfConverter: "libreoffice" }, message.warning);
      this.markReady();
    } else if (message.fatal) this.die(new UnavailableError(`LibreOffice did not start: ${message.fatal}`, "PdfConverterUnavailable"));
    else if (typeof message.id === "number") {
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      waiter?.resolve(message as HelperReply);
    }
  }

  private removeFiles(): void {
    if (this.filesRemoved) return;
    this.filesRemoved = true;
    try {
      fs.rmSync(this.opts.profileDir, { recursive: true, force: true });
    } catch {
      // best effort
    }
    // A killed soffice leaves its unix sockets in /tmp; a clean shutdown removes them itself.
    for (const file of officePipeFiles(this.opts.pipeName, this.profileUrl)) {
      try {
        fs.rmSync(file, { force: true });
      } catch {
        // best effort
      }
    }
  }
}

/**
 * LibreOffice's sockets: the --accept pipe, and the single-instance pipe it names after the MD5 of
 * the profile URL in UTF-16LE, each byte in hex without padding (desktop/source/app/officeipcthread.cxx).
 */
function officePipeFiles(pipeName: string, profileUrl: string): string[] {
  if (typeof process.getuid !== "function") return [];
  const uid = process.getuid();
  const md5 = crypto.createHash("md5").update(Buffer.from(profileUrl, "utf16le")).digest();
  const hash = Array.from(md5, (b) => b.toString(16)).join("");
  return [`/tmp/OSL_PIPE_${uid}_${pipeName}`, `/tmp/OSL_PIPE_${uid}_SingleOfficeIPC_${hash}`];
}

/** Null when everything is installed, else what is missing. */
async function findMissingDependency(sofficePath: string, pythonPath: string, helperScript: string): Promise<string | null> {
  if (!(await findExecutable(sofficePath))) return `LibreOffice (${sofficePath}) is not installed`;
  if (!(await isFile(helperScript))) return `the UNO helper ${helperScript} is missing`;
  const importsUno = await new Promise<boolean>((resolve) => {
    const child = spawn(pythonPath, ["-c", "import uno"], { stdio: "ignore", timeout: 15_000 });
    child.once("error", () => resolve(false));
    child.once("exit", (code) => resolve(code === 0));
  });
  if (!importsUno) return `${pythonPath} cannot import uno (python3-uno is not installed)`;
  return null;
}

async function findExecutable(command: string): Promise<string | null> {
  const candidates = command.includes("/")
    ? [command]
    : (process.env.PATH ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      await fsp.access(candidate, fs.constants.X_OK);
      if (await isFile(candidate)) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

async function isFile(file: string): Promise<boolean> {
  return fsp.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(error()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/**
 * soffice dying under a call is a crash whichever arrives first: the helper's reply saying so, or
 * Node seeing soffice exit (the request then fails). The input now reaches soffice the moment it is
 * ready, which makes the second order more frequent; both are handled as the same crash.
 */
function crashAsReply(err: unknown): HelperReply {
  if (err instanceof UnavailableError && err.code !== "PdfConversionTimeout" && SOFFICE_DIED.test(err.message))
    return { id: 0, ok: false, input: false, error: err.message };
  throw err;
}

async function readPdf(file: string): Promise<Buffer> {
  const pdf = await fsp.readFile(file);
  if (pdf.subarray(0, 5).toString("latin1") !== "%PDF-")
    throw new UnavailableError("LibreOffice produced something that is not a PDF", "PdfConverterUnavailable");
  return pdf;
}

/** Temp-file errors (ENOSPC, EACCES) are the server's problem, not the document's. */
function conversionFailure(err: unknown): QuireError {
  return err instanceof QuireError
    ? err
    : new UnavailableError(`PDF conversion failed: ${err instanceof Error ? err.message : String(err)}`, "PdfConverterUnavailable");
}

function removeJobFiles(job: Job): void {
  if (job.filesRemoved) return;
  job.filesRemoved = true;
  job.files.then(removeJobDir).catch(() => {});
}

/** The two files a job has, then its directory: a recursive rm walks the directory first (a few syscalls more per document). */
async function removeJobDir(files: JobFiles): Promise<void> {
  await Promise.all([files.input, files.output].map((file) => fsp.unlink(file).catch(() => {})));
  // Anything else soffice left there (it should leave nothing) falls back to the recursive removal.
  await fsp.rmdir(files.dir).catch(() => fsp.rm(files.dir, { recursive: true, force: true }));
}

function closedError(): UnavailableError {
  return new UnavailableError("The PDF converter has been shut down", "PdfConverterUnavailable");
}

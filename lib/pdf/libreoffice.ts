// Size: the pool's queue, crash retry and recycling act on the same slots; the process and its dependency probe live beside it (office-process.ts, office-dependencies.ts).
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
// Size: the pool is one state machine (queue, slots, retries, recycling, shutdown); the process and the
// dependency probe live in office-process.ts and office-dependencies.ts.
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { QuireError, UnavailableError, UnprocessableError } from "@/lib/errors";
import { forConversion } from "@/lib/pdf/for-conversion";
import { installedFontFamilies } from "@/lib/pdf/installed-fonts";
import { findDladdrCache, findMallocLibrary, findMemoryTempDir, findMissingDependency, isInMemory } from "@/lib/pdf/office-dependencies";
import { closedError, type HelperReply, type HelperRequest, INSTALL_HINT, OfficeCrashed, OfficeProcess } from "@/lib/pdf/office-process";
import { findOfficeVersion, seedProfile } from "@/lib/pdf/office-profile";
import type { ConvertOptions, ConvertibleKind, ConverterStatus, PdfConverter } from "@/lib/pdf/converter-types";

const FORMATS: Record<ConvertibleKind, { importFilter: string; exportFilter: string }> = {
  docx: { importFilter: "MS Word 2007 XML", exportFilter: "writer_pdf_Export" },
  pptx: { importFilter: "Impress MS PowerPoint 2007 XML", exportFilter: "impress_pdf_Export" },
};

/** A process that dies younger than this is not restarted in the background, to avoid crash loops. */
const MIN_UPTIME_FOR_AUTO_RESTART_MS = 5_000;
/** How long close() lets soffice shut down cleanly (it then removes its own pipes) before killing it. */
const QUIT_GRACE_MS = 5_000;
/** A failed dependency check is retried after this, so installing LibreOffice needs no restart. */
const DEPENDENCY_RECHECK_MS = 30_000;
/**
 * soffice grows with the documents it opens, so a slot's process is replaced once it holds more than
 * this. Measured on the sample contract: ~175 MB after 250 conversions, ~200 MB after 500, 205-208 MB from
 * 1,500 to 6,000 (2026-12-01).
 */
const DEFAULT_MAX_RESIDENT_BYTES = 512 * 1024 * 1024;
/**
 * A backstop for what memory does not show; memory is the guard. A restart costs 1.2-1.8 s of CPU
 * (start-up, the slower first few dozen conversions, the old process's exit): 1.2 ms on every document
 * at the 1,000 this was, ~6 ms at JODConverter's 200. One soffice kept for 6,000 conversions of the
 * sample contract, in turns with one replaced every 1,000, held 205-208 MB from the 1,500th on and
 * converted as fast at the end as at the start: 34.6 against 35.8 ms of CPU a document (2026-12-01).
 */
const DEFAULT_MAX_CONVERSIONS_PER_PROCESS = 5000;
/** How often a slot's memory is read after its conversions (the first one included). */
const MEMORY_CHECK_INTERVAL_MS = 1000;
/**
 * Job files up to this size are written, read and removed at once (synchronously) when the job
 * directory is in memory: no disk can hold the event loop, and an asynchronous call costs far more
 * than the copy itself. Written and removed by Node's thread pool, a 25 KB document cost 207 µs of
 * CPU (120 µs on this thread, the rest waking a pool thread and back), at once 30 µs (2026-11-30);
 * and with the cores busy, each wake-up also handed this thread's core to the woken one. 4 MiB is
 * about a millisecond of copying; larger files go through the thread pool.
 */
const AT_ONCE_MAX_BYTES = 4 * 1024 * 1024;

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
  /** Where soffice profiles (its temporary files inside) and per-conversion files go. Default /dev/shm when it is memory with room (findMemoryTempDir), else os.tmpdir(). */
  tmpDir?: string;
  /** A slot's soffice is replaced after this many conversions. Default 5000. */
  maxConversionsPerProcess?: number;
  /** ...or as soon as it holds more memory than this after a conversion (Linux). Default 512 MiB. */
  maxResidentBytes?: number;
  /** What is done to a document before soffice sees it. Default: what its PDF never shows taken out (for-conversion.ts). */
  prepare?: (input: Buffer, kind: ConvertibleKind) => Buffer;
  /** A malloc library soffice runs with (LD_PRELOAD). Default: jemalloc when installed (findMallocLibrary); null: the C library's. */
  mallocLibrary?: string | null;
  /** Quire's dladdr cache, preloaded into soffice. Default: the one `npm run build` made (findDladdrCache); null: none. */
  dladdrCache?: string | null;
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

/** Where one job's document and PDF live (in the pool's job directory), removed once the job is settled and off the slot. */
interface JobFiles {
  input: string;
  output: string;
  /** In memory and small: written, read and removed at once (AT_ONCE_MAX_BYTES). */
  atOnce: boolean;
}

interface JobDirectory {
  path: string;
  /** On tmpfs (the default, /dev/shm), where small files are written and removed at once. */
  inMemory: boolean;
}

/** A job's answer: the PDF's bytes (convert), or null when it stays in the caller's file (convertToFile). */
interface JobResult {
  pdf: Buffer | null;
  size: number;
}

interface Job {
  /** Written while the job waits in the queue, so a freed soffice starts on it at once. */
  files: Promise<JobFiles>;
  /** convertToFile: where the PDF is moved once converted (nothing is put there otherwise). */
  callersFile: string | null;
  kind: ConvertibleKind;
  timeoutMs: number;
  signal?: AbortSignal;
  onAbort: () => void;
  resolve: (result: JobResult) => void;
  reject: (err: unknown) => void;
  done: boolean;
  /** A slot holds it: its files stay until the slot lets go. */
  running?: boolean;
  filesRemoved?: boolean;
  /** Its PDF was renamed to the caller's file: nothing is left at `output` to remove. */
  outputMoved?: boolean;
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
  private readonly prepare: (input: Buffer, kind: ConvertibleKind) => Buffer;
  private readonly moves: MoveState = { crossDevice: false };
  private readonly mallocLibrary: string | null;
  private readonly dladdrCache: string | null;
  private readonly maxConversionsPerProcess: number;
  private readonly maxResidentBytes: number;
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  /** Every process not yet confirmed gone, including ones still starting: what the exit hook kills. */
  private readonly live = new Set<OfficeProcess>();
  private closed = false;
  private warmedOthers = false;
  /** Every job's files, side by side under unique names: one directory for the pool, not one per job. */
  private jobDir: Promise<JobDirectory> | null = null;
  private lastStartError: Error | null = null;
  private dependencyCheck: { at: number; result: Promise<string | null>; failed: boolean } | null = null;
  /** The installation's version, read once: every profile is seeded with it (office-profile.ts). */
  private officeVersion: Promise<string | null> | null = null;
  private exitHook: (() => void) | null = null;

  constructor(options: LibreOfficePoolOptions) {
    this.size = Math.max(1, Math.floor(options.size));
    this.timeoutMs = options.timeoutMs;
    this.startTimeoutMs = options.startTimeoutMs ?? Math.max(options.timeoutMs, 30_000);
    this.sofficePath = options.sofficePath ?? "soffice";
    this.pythonPath = options.pythonPath ?? "/usr/bin/python3";
    this.helperScript = options.helperScript ?? path.join(process.cwd(), "lib", "pdf", "uno_convert.py");
    this.tmpDir = options.tmpDir ?? findMemoryTempDir() ?? os.tmpdir();
    this.mallocLibrary = options.mallocLibrary === undefined ? findMallocLibrary() : options.mallocLibrary;
    this.dladdrCache = options.dladdrCache === undefined ? findDladdrCache() : options.dladdrCache;
    this.prepare = options.prepare ?? forConversion;
    this.maxConversionsPerProcess = options.maxConversionsPerProcess ?? DEFAULT_MAX_CONVERSIONS_PER_PROCESS;
    this.maxResidentBytes = options.maxResidentBytes ?? DEFAULT_MAX_RESIDENT_BYTES;
    this.slots = Array.from({ length: this.size }, (_, index) => ({ index, proc: null, starting: null, busy: false }));
  }

  async convert(input: Buffer, kind: ConvertibleKind, opts: LibreOfficeConvertOptions = {}): Promise<Buffer> {
    return (await this.submit(input, kind, opts, null)).pdf!;
  }

  /** soffice writes the PDF at `file` itself: nothing is read back or copied. */
  async convertToFile(input: Buffer, kind: ConvertibleKind, file: string, opts: LibreOfficeConvertOptions = {}): Promise<{ size: number }> {
    return { size: (await this.submit(input, kind, opts, file)).size };
  }

  private submit(input: Buffer, kind: ConvertibleKind, opts: LibreOfficeConvertOptions, callersFile: string | null): Promise<JobResult> {
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
    return new Promise<JobResult>((resolve, reject) => {
      const files = this.writeJobFiles(this.prepare(input, kind), kind);
      files.catch(() => {}); // reported by run() when a slot takes the job
      const job: Job = {
        files,
        callersFile,
        kind,
        timeoutMs: opts.timeoutMs ?? this.timeoutMs,
        signal,
        onAbort: () => {},
        resolve,
        reject,
        done: false,
      };
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
    await Promise.all([...this.live].map((p) => p.quit(QUIT_GRACE_MS, "the pool is closing")));
    const jobDir = await this.jobDir?.catch(() => null);
    if (jobDir) await fsp.rm(jobDir.path, { recursive: true, force: true });
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
    let output: { files: JobFiles; size?: number } | null = null;
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
        if (!reply.ok && reply.crashed) {
          // soffice died while reading this document. Once may be soffice; twice on the same file is the
          // file (422, not 503): the document, not the converter, needs fixing.
          this.retire(slot, proc, "soffice crashed under a conversion");
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
          output = { files, size: reply.size };
          proc.conversions++;
          const worn = this.wornOut(proc);
          if (worn) this.retire(slot, proc, worn);
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
    let result: JobResult | undefined;
    if (output)
      result = await collectPdf(output, job, this.moves).catch((err) => {
        failure = conversionFailure(err);
        return undefined;
      });
    if (!retry) this.settle(job, failure, result);
    // Settled while soffice held it (aborted): settle() left its files to us.
    if (job.done) removeJobFiles(job);
  }

  /** The job's input written under a fresh name, its PDF to come beside it; nothing is left behind when writing fails. */
  private async writeJobFiles(input: Buffer, kind: ConvertibleKind): Promise<JobFiles> {
    const name = crypto.randomUUID();
    const write = async () => {
      const dir = await this.jobDirectory();
      const files = {
        input: path.join(dir.path, `${name}.${kind}`),
        output: path.join(dir.path, `${name}.pdf`),
        atOnce: dir.inMemory && input.length <= AT_ONCE_MAX_BYTES,
      };
      try {
        if (files.atOnce) fs.writeFileSync(files.input, input, { flag: "wx" });
        else await fsp.writeFile(files.input, input, { flag: "wx" });
      } catch (err) {
        await fsp.rm(files.input, { force: true }).catch(() => {});
        throw err;
      }
      return files;
    };
    return write().catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err;
      // The directory went (a temp-file cleaner): a new one, once.
      this.jobDir = null;
      return write();
    });
  }

  /** A directory made once (mkdtemp: private to this user) saves two directory operations per document. */
  private jobDirectory(): Promise<JobDirectory> {
    if (this.closed) return Promise.reject(closedError());
    if (!this.jobDir) {
      const made = fsp.mkdtemp(path.join(this.tmpDir, "quire-pdf-")).then(async (dir) => ({ path: dir, inMemory: await isInMemory(dir) }));
      this.jobDir = made;
      made.catch(() => {
        if (this.jobDir === made) this.jobDir = null;
      });
    }
    return this.jobDir;
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

  /** Why a slot's soffice should be replaced now, or null while it is fit. */
  private wornOut(proc: OfficeProcess): string | null {
    if (proc.conversions >= this.maxConversionsPerProcess) return `${proc.conversions} conversions`;
    // Memory grows over many documents, not one: read (a dozen /proc files, on this thread) at most once a second.
    const now = Date.now();
    if (now - proc.memoryCheckedAt < MEMORY_CHECK_INTERVAL_MS) return null;
    proc.memoryCheckedAt = now;
    const resident = proc.residentBytes() ?? 0;
    return resident > this.maxResidentBytes ? `${Math.round(resident / 2 ** 20)} MiB resident` : null;
  }

  /** Swaps in a fresh soffice; the old one shuts down cleanly in the background (`why` is logged). */
  private retire(slot: Slot, proc: OfficeProcess, why: string): void {
    if (slot.proc === proc) slot.proc = null;
    void proc.quit(QUIT_GRACE_MS, why);
    if (!this.closed) this.ensureStarted(slot).catch(() => {});
  }

  private settle(job: Job, err: unknown, result?: JobResult): void {
    if (job.done) return;
    job.done = true;
    // A job a slot still holds is cleaned up by run() once soffice lets go of its files.
    if (!job.running) removeJobFiles(job);
    job.signal?.removeEventListener("abort", job.onAbort);
    if (err) job.reject(err);
    else job.resolve(result!);
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
    let proc: OfficeProcess;
    try {
      proc = await this.launch(slot).catch((err) => {
        // soffice now and then aborts while it starts (an exception its start-up does not catch, code
        // 134: once among a bench run's thousands of starts). A new process starts instead; twice in a
        // row is the installation or the machine, and that is what the caller is told.
        if (!(err instanceof OfficeCrashed) || this.closed) throw err;
        return this.launch(slot);
      });
    } catch (err) {
      this.lastStartError = err as Error;
      throw err;
    }
    if (this.closed) {
      await proc.quit(QUIT_GRACE_MS, "the pool closed while it started");
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

  /** One soffice for `slot`, started and ready; killed when it does not get there. */
  private async launch(slot: Slot): Promise<OfficeProcess> {
    const profileDir = await fsp.mkdtemp(path.join(this.tmpDir, "quire-soffice-"));
    this.officeVersion ??= findOfficeVersion(this.sofficePath);
    try {
      await seedProfile(profileDir, await this.officeVersion);
    } catch (err) {
      await fsp.rm(profileDir, { recursive: true, force: true });
      throw err;
    }
    const proc = new OfficeProcess({
      sofficePath: this.sofficePath,
      pythonPath: this.pythonPath,
      helperScript: this.helperScript,
      profileDir,
      pipeName: `quire-${process.pid}-${slot.index}-${crypto.randomBytes(6).toString("hex")}`,
      connectTimeoutMs: this.startTimeoutMs,
      mallocLibrary: this.mallocLibrary,
      dladdrCache: this.dladdrCache,
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
      throw err;
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
  if (err instanceof OfficeCrashed) return { id: 0, ok: false, input: false, crashed: true, error: err.message };
  throw err;
}

/**
 * The PDF soffice wrote in the job directory (the helper checked its `%PDF-` header): read for convert(),
 * moved to the caller's file for convertToFile(). soffice syncs what it writes (fsync): on a disk that
 * held the slot for the sync, so it writes in the job directory (memory, when it can) and the PDF is
 * moved after, a rename or a copy. A job settled meanwhile (aborted) leaves nothing at the caller's path.
 */
async function collectPdf(output: { files: JobFiles; size?: number }, job: Job, moves: MoveState): Promise<JobResult | undefined> {
  const { files } = output;
  if (job.callersFile === null) {
    const atOnce = files.atOnce && (output.size ?? Number.POSITIVE_INFINITY) <= AT_ONCE_MAX_BYTES;
    const pdf = atOnce ? fs.readFileSync(files.output) : await fsp.readFile(files.output);
    return { pdf, size: pdf.length };
  }
  if (job.done) return undefined;
  job.outputMoved = await moveFile(files.output, job.callersFile, moves);
  if (job.done) {
    await fsp.rm(job.callersFile, { force: true });
    return undefined;
  }
  return { pdf: null, size: output.size ?? (await fsp.stat(job.callersFile)).size };
}

/** What the pool has learnt about moving a PDF out of its job directory. */
interface MoveState {
  /**
   * A rename answered EXDEV: the job directory (memory) and the caller's files are on different file
   * systems, so later PDFs are copied straight away. A failed rename cost a thread-pool round trip and
   * an Error with its stack on every document; a copy is right on any file system.
   */
  crossDevice: boolean;
}

/**
 * A rename, or across file systems a copy; true when `from` is gone (renamed). A copied `from` stays
 * for removeJobFiles(), which removes it with the input. A copy that fails leaves nothing at `to`.
 */
async function moveFile(from: string, to: string, moves: MoveState): Promise<boolean> {
  if (!moves.crossDevice) {
    try {
      await fsp.rename(from, to);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
      moves.crossDevice = true;
    }
  }
  try {
    await fsp.copyFile(from, to);
  } catch (copyErr) {
    await fsp.rm(to, { force: true });
    throw copyErr;
  }
  return false;
}

/** Temp-file errors (ENOSPC, EACCES) are the server's problem, not the document's. */
function conversionFailure(err: unknown): QuireError {
  return err instanceof QuireError
    ? err
    : new UnavailableError(`PDF conversion failed: ${err instanceof Error ? err.message : String(err)}`, "PdfConverterUnavailable");
}

/** The input and the PDF in the job directory (a PDF renamed to the caller's file is no longer there). */
function removeJobFiles(job: Job): void {
  if (job.filesRemoved) return;
  job.filesRemoved = true;
  job.files
    .then((files) => {
      const unlink = files.atOnce ? unlinkAtOnce : (file: string) => fsp.unlink(file).catch(() => {});
      return Promise.all((job.outputMoved ? [files.input] : [files.input, files.output]).map(unlink));
    })
    .catch(() => {});
}

function unlinkAtOnce(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // already gone (never written, or renamed to the caller's file)
  }
}

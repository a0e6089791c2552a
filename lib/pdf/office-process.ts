// One headless soffice and the long-lived `uno_convert.py` helper that drives it over UNO: start, one
// request at a time, quit or kill. The pool (libreoffice.ts) decides when to start, reuse and retire them.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { UnavailableError } from "@/lib/errors";
import { log } from "@/lib/log";

export const INSTALL_HINT =
  "run scripts/install-system-deps.sh (Debian/Ubuntu packages libreoffice-writer-nogui, libreoffice-impress-nogui, python3-uno) " +
  "or point GOTENBERG_URL at a Gotenberg 8 service";

export interface HelperRequest {
  in: string;
  out: string;
  import: string;
  filter: string;
}

export interface HelperReply {
  id: number;
  ok: boolean;
  /** On success: the PDF's size in bytes (the helper has checked that it is a PDF). */
  size?: number;
  /** On failure: true when the document is at fault, false when LibreOffice is. */
  input?: boolean;
  /** soffice or the UNO bridge broke under this call (the helper exits after saying so). */
  crashed?: boolean;
  error?: string;
}

/** How long an exited soffice's stderr is read before its end is reported without the rest. */
const STDERR_DRAIN_MS = 100;

/**
 * soffice or its helper exited on its own (the pool did not kill it). Under a call it is a crash the
 * document may have caused, told apart by type, not by the wording of LibreOffice's messages.
 */
export class OfficeCrashed extends UnavailableError {
  constructor(message: string) {
    super(message, "PdfConverterUnavailable");
  }
}

interface OfficeProcessOptions {
  sofficePath: string;
  pythonPath: string;
  helperScript: string;
  profileDir: string;
  pipeName: string;
  connectTimeoutMs: number;
  /** A malloc library soffice runs with (LD_PRELOAD), or null for the C library's. */
  mallocLibrary: string | null;
  /** Quire's dladdr cache (LD_PRELOAD, after the malloc library), or null. */
  dladdrCache: string | null;
}

/** One soffice and the helper that drives it. Never reused once dead: the slot starts a new one. */
export class OfficeProcess {
  readonly startedAt = Date.now();
  readonly sofficePid: number;
  /** Resolves once the helper is connected to soffice. */
  readonly ready: Promise<void>;
  /** Resolves once both processes have exited and their files are removed. */
  readonly gone: Promise<void>;
  dead: Error | null = null;
  conversions = 0;
  /** When the pool last read residentBytes() (0: never). */
  memoryCheckedAt = 0;
  onDeath: (() => void) | null = null;

  private readonly soffice: ChildProcess;
  private readonly helper: ChildProcess;
  private readonly pending = new Map<number, { resolve: (reply: HelperReply) => void; reject: (err: Error) => void }>();
  private readonly profileUrl: string;
  private nextId = 1;
  private stdoutBuffer = "";
  private stderrTail = "";
  private filesRemoved = false;
  /** quit() asked soffice to stop: its exit is expected. */
  private quitting = false;
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
      { detached: true, stdio: ["ignore", "ignore", "pipe"], env: sofficeEnvironment(process.env, opts) },
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
    this.soffice.on("exit", (code, signal) => {
      const report = () => this.die(this.failure(`soffice exited (${signal ?? `code ${code}`})`));
      // Its last words (an abort's message) may still be in the pipe when the exit is seen: read them
      // first, briefly, since another process of its group can hold the pipe open (die() stops it).
      const stderr = this.soffice.stderr!;
      if (this.quitting || stderr.readableEnded) return report();
      const timer = setTimeout(report, STDERR_DRAIN_MS);
      stderr.once("end", () => {
        clearTimeout(timer);
        report();
      });
    });
    // Asked to quit, the helper exits once soffice has agreed to terminate, while soffice.bin is still
    // shutting down: killing the group then would take its launcher before it reaps soffice.bin, which
    // init (or, in a container without one, nobody) is left to reap. quit() waits for soffice instead.
    this.helper.on("exit", (code, signal) => {
      if (!this.quitting) this.die(this.failure(`the UNO helper exited (${signal ?? `code ${code}`})`));
    });
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

  /** Immediate: SIGKILL both processes; files are removed once they are gone. Logged with the reason. */
  kill(reason: Error): void {
    if (!this.dead) log.warn(this.logFields({ reason: reason.message }), "LibreOffice process killed");
    this.die(reason);
  }

  /** Lets soffice shut down cleanly, then kills whatever is left. `why` is logged: a slot's history explains its throughput. */
  async quit(graceMs: number, why: string): Promise<void> {
    if (!this.dead) {
      log.info(this.logFields({ reason: why }), "LibreOffice process retired");
      this.quitting = true;
      this.helper.stdin!.write(`${JSON.stringify({ quit: true })}\n`);
      // Ref'd on purpose: the processes are unref'd, and without it Node could exit mid-shutdown.
      let timer: NodeJS.Timeout | undefined;
      const stopped = await Promise.race([this.gone.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)))]);
      clearTimeout(timer);
      if (!stopped) log.warn(this.logFields({ graceMs }), "LibreOffice did not stop in time; killed");
      this.die(closedError());
    }
    await this.gone;
  }

  /** For the process 'exit' hook, where nothing asynchronous runs any more. */
  killNow(): void {
    this.signalAll();
    if (!this.claimFiles()) return;
    for (const file of this.leftovers()) {
      try {
        fs.rmSync(file, { recursive: true, force: true });
      } catch {
        // best effort: the process is exiting
      }
    }
  }

  /**
   * Memory held now by soffice: the launcher and what it forked (soffice.bin), resident set, read from
   * Linux's /proc (small in-memory files, read between two conversions). Null where it cannot be read.
   */
  residentBytes(): number | null {
    if (this.sofficePid <= 0) return null;
    try {
      // A child is listed under the thread that forked it, and oosplash forks soffice.bin from another thread.
      const tasks = fs.readdirSync(`/proc/${this.sofficePid}/task`);
      const children = tasks.flatMap((task) => fs.readFileSync(`/proc/${this.sofficePid}/task/${task}/children`, "utf8").split(" ").filter(Boolean));
      let kb = 0;
      for (const pid of [String(this.sofficePid), ...children]) {
        kb += Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
      }
      return kb * 1024;
    } catch {
      return null;
    }
  }

  private die(reason: Error): void {
    if (this.dead) return;
    // An exit nobody asked for: the one event that explains a slot lost mid-load.
    if (reason instanceof OfficeCrashed && !this.quitting) log.warn(this.logFields({ reason: reason.message }), "LibreOffice process stopped on its own");
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

  private logFields(extra: Record<string, unknown>): Record<string, unknown> {
    return { pdfConverter: "libreoffice", sofficePid: this.sofficePid, conversions: this.conversions, uptimeMs: Date.now() - this.startedAt, ...extra };
  }

  private failure(what: string): OfficeCrashed {
    const tail = this.stderrTail.trim();
    return new OfficeCrashed(`LibreOffice stopped: ${what}${tail ? `: ${tail}` : ""}`);
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

  /**
   * Off the event loop: a used profile is a tree of a few hundred files, and removing it synchronously
   * held the server's main thread for ~100 ms each time a slot was recycled. Best effort.
   */
  private async removeFiles(): Promise<void> {
    if (this.claimFiles()) await Promise.all(this.leftovers().map((file) => fsp.rm(file, { recursive: true, force: true }).catch(() => {})));
  }

  /** True for the first caller only: the files are removed once, by whichever path gets there first. */
  private claimFiles(): boolean {
    if (this.filesRemoved) return false;
    this.filesRemoved = true;
    return true;
  }

  /** The profile, and the unix sockets a killed soffice leaves in /tmp (a clean shutdown removes them itself). */
  private leftovers(): string[] {
    return [this.opts.profileDir, ...officePipeFiles(this.opts.pipeName, this.profileUrl)];
  }
}

/**
 * What soffice runs with (the launcher passes it on to soffice.bin): its temporary files in its profile,
 * so they go where the pool works (memory, when it can) and are removed with the profile, even after a
 * SIGKILL (in /tmp they were left behind); the malloc library first in LD_PRELOAD, then the dladdr cache.
 */
function sofficeEnvironment(env: NodeJS.ProcessEnv, opts: OfficeProcessOptions): NodeJS.ProcessEnv {
  const preload = [opts.mallocLibrary, opts.dladdrCache, env.LD_PRELOAD].filter(Boolean).join(":");
  return { ...env, TMPDIR: opts.profileDir, ...(preload ? { LD_PRELOAD: preload } : {}) };
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

export function closedError(): UnavailableError {
  return new UnavailableError("The PDF converter has been shut down", "PdfConverterUnavailable");
}

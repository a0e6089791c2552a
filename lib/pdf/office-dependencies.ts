// Whether this machine can convert locally: LibreOffice, the UNO helper script and python3-uno.
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";

/**
 * jemalloc, where the system has it (Debian: libjemalloc2). soffice allocates and frees heavily while it
 * loads and exports a document: with jemalloc preloaded it used 10-14% less CPU per conversion and less
 * memory than with glibc's malloc (tcmalloc 10%, mimalloc 7%; LibreOffice 7.4, 2026-11-27).
 */
export function findMallocLibrary(): string | null {
  const multiarch = { x64: "x86_64-linux-gnu", arm64: "aarch64-linux-gnu" }[process.arch as string];
  const dirs = [multiarch && `/usr/lib/${multiarch}`, "/usr/lib64", "/usr/lib", "/usr/local/lib"].filter(Boolean) as string[];
  return dirs.map((dir) => path.join(dir, "libjemalloc.so.2")).find((file) => fs.existsSync(file)) ?? null;
}

/**
 * Quire's dladdr cache (native/dladdr-cache.c), built by `npm run build` (scripts/build-native.mjs) when
 * the machine has a C compiler: soffice asks dladdr() where its own code is ~45 times per document and
 * glibc scans a huge symbol table each time; with the answers kept, a conversion took 14-23% less CPU
 * (LibreOffice 7.4, 2026-11-28). Looked for under the working directory: the app's
 * directory, where Quire's server (scripts/quire-server.cjs), the Docker image and the tests run.
 */
export function findDladdrCache(): string | null {
  const file = path.join(process.cwd(), "build", "native", "libquire-dladdr-cache.so");
  return process.platform === "linux" && fs.existsSync(file) ? file : null;
}

/** statfs's f_type for tmpfs (linux/magic.h). */
const TMPFS_MAGIC = 0x01021994;
/** Room a memory file system needs to hold the pool's work: profiles, documents and soffice's temporary copies. */
const MIN_FREE_MEMORY_FS_BYTES = 1024 ** 3;

/**
 * /dev/shm, when it is memory (tmpfs) with room to spare: soffice syncs its temporary files to disk
 * (fsync, three per conversion), and on memory a conversion took 10% less CPU and a third less time
 * (2026-11-27). Docker gives containers a 64 MB /dev/shm: too small, so the system's temp directory.
 */
export function findMemoryTempDir(): string | null {
  const dir = "/dev/shm";
  try {
    const fsStat = fs.statfsSync(dir);
    if (fsStat.type !== TMPFS_MAGIC || fsStat.bavail * fsStat.bsize < MIN_FREE_MEMORY_FS_BYTES) return null;
    fs.accessSync(dir, fs.constants.W_OK);
    return dir;
  } catch {
    return null;
  }
}

/** Whether `dir` is in memory (tmpfs): its files are written and removed without waiting for a disk. */
export async function isInMemory(dir: string): Promise<boolean> {
  return fsp.statfs(dir).then(
    (fsStat) => fsStat.type === TMPFS_MAGIC,
    () => false,
  );
}

/** Null when everything is installed, else what is missing. */
export async function findMissingDependency(sofficePath: string, pythonPath: string, helperScript: string): Promise<string | null> {
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

export async function findExecutable(command: string): Promise<string | null> {
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

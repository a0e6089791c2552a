// Local-disk storage under DATA_DIR/files. Writes go to a temp file in the same directory and
// are renamed into place, so a crash never leaves a half-written file under a real key.
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { LruCache } from "@/lib/cache/lru";
import { StorageKeyError, type FileStorage, type PutOptions, type StoredFile } from "@/lib/storage/types";

/** Directories known to exist: most writes go to a few (one per organization and kind). */
const MAX_KNOWN_DIRS = 1024;

export class LocalFileStorage implements FileStorage {
  readonly kind = "local";
  private readonly knownDirs = new LruCache<string, true>(MAX_KNOWN_DIRS);
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    if (!key || key.includes("\0") || path.isAbsolute(key)) throw new StorageKeyError(`Invalid storage key: ${key}`);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new StorageKeyError(`Storage key escapes the root: ${key}`);
    return full;
  }

  async put(key: string, data: Buffer | Readable, opts: PutOptions = {}): Promise<{ size: number }> {
    const target = this.resolve(key);
    const dir = path.dirname(target);
    // A recursive mkdir per write was a few syscalls per document: skipped for a directory made
    // before, and redone if it has gone since (the write then fails with ENOENT). A stream cannot be
    // written twice, so streamed uploads always make sure first.
    if (!Buffer.isBuffer(data) || !this.knownDirs.get(dir)) await this.makeDir(dir);
    const tmp = tmpName(target);
    try {
      const size = await writeNew(tmp, data).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT" || !Buffer.isBuffer(data)) throw err;
        await this.makeDir(dir);
        return writeNew(tmp, data);
      });
      if (opts.size !== undefined && size !== opts.size) throw new Error(`Storing ${key}: got ${size} bytes, expected ${opts.size}`);
      await fsp.rename(tmp, target);
      return { size };
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  /** Its directory is made sure of every time (one syscall): whoever writes the file there cannot make it again. */
  async stagingFile(key: string): Promise<string> {
    const target = this.resolve(key);
    await this.makeDir(path.dirname(target));
    return tmpName(target);
  }

  /** Staged beside its key's file (same directory, same file system): one rename, as put() ends. */
  async putFile(key: string, file: string): Promise<void> {
    try {
      await fsp.rename(file, this.resolve(key));
    } catch (err) {
      await fsp.rm(file, { force: true });
      throw err;
    }
  }

  private async makeDir(dir: string): Promise<void> {
    await fsp.mkdir(dir, { recursive: true });
    this.knownDirs.set(dir, true);
  }

  async get(key: string): Promise<Buffer> {
    return fsp.readFile(this.resolve(key));
  }

  async stream(key: string): Promise<StoredFile> {
    const file = this.resolve(key);
    const { size } = await fsp.stat(file);
    return { body: fs.createReadStream(file), size };
  }

  async exists(key: string): Promise<boolean> {
    return fsp.access(this.resolve(key)).then(
      () => true,
      () => false,
    );
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.resolve(key), { force: true });
  }

  async check(): Promise<void> {
    await fsp.mkdir(this.root, { recursive: true });
    await fsp.access(this.root, fs.constants.W_OK);
  }
}

/** A not-yet-existing name beside `target`: same directory, so renaming it into place is atomic. */
function tmpName(target: string): string {
  return `${target}.${crypto.randomBytes(6).toString("hex")}.tmp`;
}

/** Writes a file that must not exist yet; returns its size. A Buffer in one call: a stream per document cost more than the write. */
async function writeNew(file: string, data: Buffer | Readable): Promise<number> {
  if (Buffer.isBuffer(data)) {
    await fsp.writeFile(file, data, { flag: "wx" });
    return data.length;
  }
  await pipeline(data, fs.createWriteStream(file, { flags: "wx" }));
  return (await fsp.stat(file)).size;
}

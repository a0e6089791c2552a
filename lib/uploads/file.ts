// A file handed to domain code: an upload spooled to a temp file by the multipart reader, or bytes
// already in memory (sample templates, tests). Domain code streams it to storage and reads it
// whole only where a parser needs the bytes in memory (ZIP inspection, PDF parsing), which the
// upload's size cap bounds.
import fs from "node:fs";
import fsp from "node:fs/promises";
import { Readable } from "node:stream";

export interface UploadedFile {
  /** The client's file name (no directories). */
  readonly name: string;
  readonly size: number;
  /** A fresh stream of the bytes on every call. */
  stream(): Readable;
  readAll(): Promise<Buffer>;
}

/** An upload spooled to disk; the multipart reader owns the file and removes it. */
export class SpooledFile implements UploadedFile {
  constructor(
    readonly name: string,
    readonly path: string,
    readonly size: number,
  ) {}

  stream(): Readable {
    return fs.createReadStream(this.path);
  }

  readAll(): Promise<Buffer> {
    return fsp.readFile(this.path);
  }
}

export function fileFromBuffer(name: string, data: Buffer): UploadedFile {
  return {
    name,
    size: data.length,
    stream: () => Readable.from([data]),
    readAll: async () => data,
  };
}

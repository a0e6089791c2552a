import type { Readable } from "node:stream";

/** Where Quire keeps files (templates, generated documents, PDFs). Keys are relative paths. */
export interface FileStorage {
  readonly kind: string;
  /** Writes atomically: readers see the old object or the whole new one, never a partial file. */
  put(key: string, data: Buffer | Readable): Promise<{ size: number }>;
  get(key: string): Promise<Buffer>;
  /** For downloads: the bytes as they come, never the whole file in memory. */
  stream(key: string): Promise<StoredFile>;
  exists(key: string): Promise<boolean>;
  /** Deleting a missing key is not an error (clean-up paths call it freely). */
  delete(key: string): Promise<void>;
  /** Reports whether the backend is reachable and writable. */
  check(): Promise<void>;
}

export interface StoredFile {
  body: Readable;
  size: number;
}

export class StorageKeyError extends Error {}

/** A key with no stored object. */
export class StorageNotFoundError extends Error {}

import type { Readable } from "node:stream";

/** Where Quire keeps files (templates, generated documents, PDFs). Keys are relative paths. */
export interface FileStorage {
  readonly kind: string;
  /**
   * Writes atomically: readers see the old object or the whole new one, never a partial file.
   * A stream is written as it is read. `size`, when the caller knows it (a spooled upload), is
   * checked: a stream that ends short or long stores nothing and throws.
   */
  put(key: string, data: Buffer | Readable, opts?: PutOptions): Promise<{ size: number }>;
  /**
   * A path where a file for `key` can be made on this machine (a converter's output, say), for
   * putFile() to take in: in the local store it is beside the key's own file, so taking it in is a
   * rename and nothing is copied. Nothing is there yet; whoever made the file removes it if it never
   * reaches putFile().
   */
  stagingFile(key: string): Promise<string>;
  /** Stores the file made at stagingFile(key) under `key`, atomically as put() does; the file is gone after, stored or not. */
  putFile(key: string, file: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** For downloads: the bytes as they come, never the whole file in memory. */
  stream(key: string): Promise<StoredFile>;
  exists(key: string): Promise<boolean>;
  /** Deleting a missing key is not an error (clean-up paths call it freely). */
  delete(key: string): Promise<void>;
  /** Reports whether the backend is reachable and writable. */
  check(): Promise<void>;
  /** Backends that can hand out a time-limited URL of their own (S3); others are served through Quire. */
  presignedGetUrl?(key: string, opts: PresignOptions): Promise<string>;
}

export interface PresignOptions {
  expiresInSeconds: number;
  contentType: string;
  contentDisposition: string;
}

export interface PutOptions {
  size?: number;
}

export interface StoredFile {
  body: Readable;
  size: number;
}

export class StorageKeyError extends Error {}

/** A key with no stored object. */
export class StorageNotFoundError extends Error {}

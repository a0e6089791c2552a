// S3-compatible object storage (AWS S3, MinIO, R2, …). Objects appear whole or not at all: a
// PutObject or a completed multipart upload is atomic, and an aborted upload leaves no object.
// Streams go straight through: uploads in 8 MB parts, downloads as the response body.
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { StorageKeyError, StorageNotFoundError, type FileStorage, type PresignOptions, type PutOptions, type StoredFile } from "@/lib/storage/types";

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Another S3-compatible service (https://minio.internal:9000); unset for AWS. */
  endpoint?: string;
  /** bucket in the path (MinIO and most self-hosted stores) instead of the host name. */
  forcePathStyle: boolean;
  /** Unset: the SDK's default chain (environment, instance role, …). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Prepended to every key, e.g. "quire/". */
  prefix: string;
}

const PART_SIZE = 8 * 1024 * 1024;

function isNotFound(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.name === "NoSuchKey" || err.name === "NotFound" || err.$metadata.httpStatusCode === 404);
}

export class S3FileStorage implements FileStorage {
  readonly kind = "s3";
  private readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // Default CRC checksums use aws-chunked trailers that many S3-compatible stores refuse.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  private key(key: string): string {
    if (!key || key.includes("\0") || key.startsWith("/") || key.split("/").includes("..")) throw new StorageKeyError(`Invalid storage key: ${key}`);
    return this.options.prefix + key;
  }

  async put(key: string, data: Buffer | Readable, opts: PutOptions = {}): Promise<{ size: number }> {
    const Key = this.key(key);
    const Bucket = this.options.bucket;
    if (Buffer.isBuffer(data)) {
      await this.client.send(new PutObjectCommand({ Bucket, Key, Body: data, ContentLength: data.length }));
      return { size: data.length };
    }
    if (opts.size !== undefined && opts.size <= PART_SIZE) {
      // Known and small (a spooled upload): one PutObject streaming the body, no part buffer. S3
      // stores nothing unless the whole declared length arrives.
      await this.client.send(new PutObjectCommand({ Bucket, Key, Body: data, ContentLength: opts.size }));
      return { size: opts.size };
    }
    let size = 0;
    const counted = data.on("data", (chunk: Buffer) => (size += chunk.length));
    // Small streams become one PutObject, large ones a multipart upload that is aborted on failure.
    await new Upload({ client: this.client, params: { Bucket, Key, Body: counted }, partSize: PART_SIZE, queueSize: 2, leavePartsOnError: false }).done();
    if (opts.size !== undefined && size !== opts.size) {
      await this.delete(key).catch(() => {});
      throw new Error(`Storing ${key}: got ${size} bytes, expected ${opts.size}`);
    }
    return { size };
  }

  /** Made in the machine's temp directory, uploaded from there. */
  async stagingFile(): Promise<string> {
    return path.join(os.tmpdir(), `quire-s3-${crypto.randomBytes(8).toString("hex")}.tmp`);
  }

  async putFile(key: string, file: string): Promise<void> {
    try {
      const { size } = await fsp.stat(file);
      await this.put(key, fs.createReadStream(file), { size });
    } finally {
      await fsp.rm(file, { force: true });
    }
  }

  async get(key: string): Promise<Buffer> {
    return buffer((await this.stream(key)).body);
  }

  async stream(key: string): Promise<StoredFile> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) }));
      if (!(res.Body instanceof Readable)) throw new Error("S3 returned no readable body");
      return { body: res.Body, size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) throw new StorageNotFoundError(`No stored file ${key}`);
      throw err;
    }
  }

  /** A presigned GET (SigV4 query string): the client fetches the object from S3 itself, no key needed. */
  async presignedGetUrl(key: string, opts: PresignOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.options.bucket,
      Key: this.key(key),
      ResponseContentType: opts.contentType,
      ResponseContentDisposition: opts.contentDisposition,
    });
    return getSignedUrl(this.client, command, { expiresIn: opts.expiresInSeconds });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 for a missing key too.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) }));
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
  }
}

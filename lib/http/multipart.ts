// Multipart uploads: one file (the field `file`) plus text fields, parsed as the body streams in.
// The file is spooled to a temp file under os.tmpdir(), never held in memory; the size cap is
// enforced while reading, so an oversized upload is refused as soon as the cap is crossed, with or
// without a Content-Length. The temp file is removed on every path (withMultipart).
import { unstorableText } from "@/lib/http/text-safety";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Busboy, type BusboyFileStream } from "@fastify/busboy";
import { ClientClosedError, ValidationError } from "@/lib/errors";
import { SpooledFile } from "@/lib/uploads/file";

export interface MultipartOptions {
  maxFileBytes: number;
  /** The route's own "file too large" error (TemplateTooLarge, DocumentTooLarge). */
  tooLarge: () => Error;
  /** Where the temp directory goes; os.tmpdir() unless a test says otherwise. */
  tmpDir?: string;
}

export interface MultipartUpload {
  file: SpooledFile | null;
  /** Text fields; a repeated field keeps every value. */
  fields: Map<string, string[]>;
}

/** Room for the text fields and the multipart framing beyond the file itself. */
const FORM_ALLOWANCE = 1024 * 1024;
const MAX_FIELDS = 1000;
const MAX_PARTS = MAX_FIELDS + 10;
/** Text fields are held in memory: each and all together stay under this. */
const MAX_TEXT_BYTES = 1024 * 1024;

const malformed = () => new ValidationError("The multipart body could not be read", [{ field: "(body)", message: "malformed multipart body" }]);

/** Reads the upload, runs `use` with it, and removes the spooled file whatever happens. */
export async function withMultipart<T>(req: Request, options: MultipartOptions, use: (upload: MultipartUpload) => Promise<T>): Promise<T> {
  const upload = await readMultipart(req, options);
  try {
    return await use(upload);
  } finally {
    await upload.dispose();
  }
}

/** The upload plus dispose(), which removes its temp file; withMultipart calls it for you. */
export async function readMultipart(req: Request, options: MultipartOptions): Promise<MultipartUpload & { dispose: () => Promise<void> }> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new ValidationError("Send the upload as multipart/form-data", [{ field: "(body)", message: "expected multipart/form-data" }]);
  }
  const maxBodyBytes = options.maxFileBytes + FORM_ALLOWANCE;
  // A declared length over the cap is refused without reading a byte.
  if (Number(req.headers.get("content-length") ?? 0) > maxBodyBytes) throw options.tooLarge();
  if (!req.body) throw malformed();

  const dir = await fsp.mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), "quire-upload-"));
  const dispose = () => fsp.rm(dir, { recursive: true, force: true });
  try {
    const parsed = await parse(req, type, dir, options, maxBodyBytes);
    return { ...parsed, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

interface Spool {
  name: string;
  path: string;
  /** Settles once the part is on disk, with its size. */
  written: Promise<number>;
}

async function parse(req: Request, type: string, dir: string, options: MultipartOptions, maxBodyBytes: number): Promise<MultipartUpload> {
  const fields = new Map<string, string[]>();
  const state: { spool: Spool | null; failure: Error | null; textBytes: number } = { spool: null, failure: null, textBytes: 0 };
  const parts: BusboyFileStream[] = [];
  let rejectFailed: (err: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (rejectFailed = reject));
  failed.catch(() => {});
  const fail = (err: Error) => {
    if (state.failure) return;
    state.failure = err;
    rejectFailed(err);
  };

  let busboy: ReturnType<typeof Busboy>;
  try {
    busboy = Busboy({
      headers: { "content-type": type },
      limits: { fileSize: options.maxFileBytes, fields: MAX_FIELDS, fieldSize: MAX_TEXT_BYTES, parts: MAX_PARTS },
    });
  } catch {
    throw malformed(); // no boundary
  }
  const finished = new Promise<void>((resolve) => busboy.on("finish", resolve));
  busboy.on("error", () => fail(malformed()));
  busboy.on("fieldsLimit", () =>
    fail(new ValidationError(`A form may have at most ${MAX_FIELDS} text fields`, [{ field: "(body)", message: "too many fields" }])),
  );
  busboy.on("partsLimit", () => fail(new ValidationError(`A form may have at most ${MAX_PARTS} parts`, [{ field: "(body)", message: "too many parts" }])));
  busboy.on("field", (name, value, _nameTruncated, valueTruncated) => {
    state.textBytes += Buffer.byteLength(value);
    if (valueTruncated || state.textBytes > MAX_TEXT_BYTES) {
      return fail(new ValidationError(`The form's text fields are limited to ${MAX_TEXT_BYTES / 1024 / 1024} MB`, [{ field: name, message: "too large" }]));
    }
    const why = unstorableText(name) ?? unstorableText(value);
    if (why)
      return fail(new ValidationError(`Form field ${name.replace(/[\u0000\ud800-\udfff]/g, "\ufffd")} ${why}`, [{ field: name, message: why }], "InvalidText"));
    fields.set(name, [...(fields.get(name) ?? []), value]);
  });
  busboy.on("file", (name, stream, fileName) => {
    parts.push(stream);
    stream.on("limit", () => fail(options.tooLarge()));
    const skip = () => void stream.on("error", () => {}).resume();
    // Other file parts are not ours to keep: read past them (the body cap still counts them).
    if (name !== "file" || state.failure) return skip();
    if (state.spool) {
      skip();
      return fail(new ValidationError("Attach one file as the multipart field `file`", [{ field: "file", message: "only one file is allowed" }]));
    }
    const nameProblem = unstorableText(fileName ?? "");
    if (nameProblem) {
      skip();
      return fail(new ValidationError(`The file name ${nameProblem}`, [{ field: "file", message: nameProblem }], "InvalidText"));
    }
    const target = path.join(dir, "upload");
    const out = fs.createWriteStream(target, { flags: "wx" });
    const written = pipeline(stream, out).then(() => out.bytesWritten);
    written.catch((err: Error) => fail(stream.truncated ? options.tooLarge() : /terminated early|unexpected end/i.test(err.message) ? malformed() : err));
    state.spool = { name: fileName, path: target, written };
  });

  const reader = req.body!.getReader();
  try {
    let received = 0;
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        throw new ClientClosedError(); // the body stream broke: the client went away mid-upload
      }
      if (state.failure) throw state.failure;
      if (chunk.done) break;
      received += chunk.value.byteLength;
      // Busboy parses synchronously inside write(), so a crossed cap is known right after it.
      if (received > maxBodyBytes) fail(options.tooLarge());
      else if (!busboy.write(chunk.value)) await Promise.race([new Promise((resolve) => busboy.once("drain", resolve)), failed]);
      if (state.failure) throw state.failure;
    }
    busboy.end();
    await Promise.race([finished, failed]);
    const spool = state.spool as Spool | null;
    const size = spool ? await Promise.race([spool.written, failed]) : 0;
    return { file: spool ? new SpooledFile(spool.name, spool.path, size) : null, fields };
  } catch (err) {
    fail(err as Error);
    // Stop parsing and let the spool's write stream close before the caller removes the directory.
    // With an error: a part that has ended but not yet drained would otherwise close "cleanly" and
    // leave the pipeline waiting forever for the write stream to finish.
    for (const part of parts) part.destroy(err as Error);
    busboy.destroy();
    await (state.spool as Spool | null)?.written.catch(() => {});
    // A refused upload's remaining body is left unread, not cancelled: in Node, cancelling destroys
    // the socket before the error reply is written. Clients read the early reply (browsers, fetch
    // and node:http do), and Node closes the then idle connection after its keep-alive timeout.
    if (err instanceof ClientClosedError) void reader.cancel().catch(() => {});
    throw err;
  }
}

/** A list sent either as one JSON array field or as repeated fields. */
export function listField(fields: Map<string, string[]>, name: string): unknown {
  const values = fields.get(name);
  if (!values) return undefined;
  if (values.length === 1) {
    const v = values[0].trim();
    if (v.startsWith("[")) {
      try {
        return JSON.parse(v);
      } catch {
        return v; // reported by the schema as "must be an array"
      }
    }
    return v === "" ? [] : [v];
  }
  return values;
}

export function textField(fields: Map<string, string[]>, name: string): string | undefined {
  return fields.get(name)?.[0];
}

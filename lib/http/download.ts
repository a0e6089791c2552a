// Binary downloads with a Content-Disposition that is safe for any file name (RFC 6266 / 5987).
import { Readable } from "node:stream";
import type { StoredFile } from "@/lib/storage/types";

export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_").replace(/[\r\n]/g, " ");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** A whole buffer, or a stored file streamed as it is read (large files never sit in memory). */
type Body = Buffer | StoredFile;

function fileResponse(data: Body, contentType: string, disposition: string): Response {
  const stored = !Buffer.isBuffer(data);
  return new Response(stored ? (Readable.toWeb(data.body) as ReadableStream<Uint8Array>) : new Uint8Array(data), {
    status: 200,
    headers: {
      "content-type": contentType,
      "content-length": String(stored ? data.size : data.length),
      "content-disposition": disposition,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    },
  });
}

export function attachment(data: Body, contentType: string, fileName: string): Response {
  return fileResponse(data, contentType, contentDisposition(fileName));
}

/** Shown in the browser (PDF previews), with the same safe file name for "save as". */
export function inline(data: Body, contentType: string, fileName: string): Response {
  return fileResponse(data, contentType, contentDisposition(fileName).replace(/^attachment/, "inline"));
}

// Binary downloads with a Content-Disposition that is safe for any file name (RFC 6266 / 5987).
import { Readable } from "node:stream";
import type { StoredFile } from "@/lib/storage/types";

/**
 * A name a file system accepts as one file: path separators, control characters and the characters
 * Windows refuses become "_", leading dots and spaces go (no "../../etc/passwd", no hidden files),
 * and it is cut to 200 characters keeping the extension.
 */
export function safeFileName(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  const ext = dot > 0 && fileName.length - dot <= 10 ? fileName.slice(dot) : "";
  const cleaned = fileName
    .normalize("NFC")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, "_")
    .replace(/^[.\s]+/, "")
    .trim();
  const base = cleaned.slice(0, cleaned.length - ext.length).slice(0, 200 - ext.length);
  return (base || "download") + (cleaned.endsWith(ext) ? ext : "");
}

/** RFC 5987/8187 ext-value: only attr-chars stay literal; ' ( ) * are percent-encoded too. */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function contentDisposition(fileName: string): string {
  const name = safeFileName(fileName);
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/[%;,]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
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

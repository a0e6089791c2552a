// Binary downloads with a Content-Disposition that is safe for any file name (RFC 6266 / 5987).
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_").replace(/[\r\n]/g, " ");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function fileResponse(data: Buffer, contentType: string, disposition: string): Response {
  return new Response(new Uint8Array(data), {
    status: 200,
    headers: {
      "content-type": contentType,
      "content-length": String(data.length),
      "content-disposition": disposition,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    },
  });
}

export function attachment(data: Buffer, contentType: string, fileName: string): Response {
  return fileResponse(data, contentType, contentDisposition(fileName));
}

/** Shown in the browser (PDF previews), with the same safe file name for "save as". */
export function inline(data: Buffer, contentType: string, fileName: string): Response {
  return fileResponse(data, contentType, contentDisposition(fileName).replace(/^attachment/, "inline"));
}

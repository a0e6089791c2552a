// Binary downloads with a Content-Disposition that is safe for any file name (RFC 6266 / 5987).
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_").replace(/[\r\n]/g, " ");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export function attachment(data: Buffer, contentType: string, fileName: string): Response {
  return new Response(new Uint8Array(data), {
    status: 200,
    headers: {
      "content-type": contentType,
      "content-length": String(data.length),
      "content-disposition": contentDisposition(fileName),
      "x-content-type-options": "nosniff",
    },
  });
}

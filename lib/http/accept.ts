// Content negotiation for endpoints that answer people and programs alike.

function quality(accept: string, mediaType: string): number {
  let best = -1;
  for (const part of accept.split(",")) {
    const [media, ...params] = part.trim().split(";");
    if (media.trim().toLowerCase() !== mediaType) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    best = Math.max(best, qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  return best;
}

/** Whether the Accept header asks for application/json above text/html (a browser's does not). */
export function prefersJson(req: Request): boolean {
  const accept = req.headers.get("accept") ?? "";
  const json = quality(accept, "application/json");
  return json > 0 && json > quality(accept, "text/html");
}

/**
 * Whether a GET that can answer a file or JSON should answer JSON: Accept prefers it, or the request
 * declares `Content-Type: application/json` as the hosted service's SDKs do on every call (a browser's
 * Accept, or none, gets the file).
 */
export function prefersJsonReply(req: Request): boolean {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  return type === "application/json" || prefersJson(req);
}

// Every JSON reply Quire writes, with its text kept beside the web Response. Quire's server
// (scripts/quire-server.cjs, ADR 0025) writes that text to the socket as it is, instead of reading the
// Response's body stream back into a buffer: Response.json() plus that read cost 120-170 µs for a
// 44 KB list page on Node.js 24, JSON.stringify() alone 42 µs (issue 17). Through Next.js, or once a
// wrapper has made a new Response, the body stream is read as for any Response.

/** Where the text sits on the Response; scripts/quire-server.cjs looks for the same registered symbol. */
export const JSON_TEXT = Symbol.for("quire.json-text");

/** Response.json(), with the text kept for Quire's server. */
export function jsonReply(body: unknown, init?: ResponseInit): Response {
  const text = JSON.stringify(body);
  // As Response.json(): a value JSON cannot write is a programming error, not an empty reply.
  if (text === undefined) throw new TypeError("The reply is not a JSON value");
  const headers = new Headers(init?.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  const res = new Response(text, { ...init, headers });
  Object.defineProperty(res, JSON_TEXT, { value: text });
  return res;
}

/** The text a reply jsonReply() made was written from, while its body is unread; undefined for any other reply. */
export function jsonTextOf(res: Response): string | undefined {
  const text = res.bodyUsed ? undefined : (res as Response & { [JSON_TEXT]?: unknown })[JSON_TEXT];
  return typeof text === "string" ? text : undefined;
}

/** The signer's session token: a header on API calls, `?s=` on page images (an <img> sends no headers). */
export function signerSessionOf(req: Request): string | null {
  return req.headers.get("x-signer-session") ?? new URL(req.url).searchParams.get("s");
}

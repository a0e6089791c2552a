import { isLanguage, type Language } from "@/lib/i18n";

/** The signer's session token: a header on API calls, `?s=` on page images (an <img> sends no headers). */
export function signerSessionOf(req: Request): string | null {
  return req.headers.get("x-signer-session") ?? new URL(req.url).searchParams.get("s");
}

/** The signing page's language (its x-signer-language header), for error messages the signer reads. */
export function signerLanguageOf(req: Request): Language | undefined {
  const lang = req.headers.get("x-signer-language");
  return isLanguage(lang) ? lang : undefined;
}

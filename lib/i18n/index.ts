// The signing page's, its emails' and passcode messages' languages (issue 19 item 5). One catalogue
// per language in messages/*.json; English is the reference (tests/unit/i18n-catalogues.test.ts).
// i18next (MIT) renders on the server (page, emails, SMS) and in the browser from the same catalogues.
import i18next, { type TFunction } from "i18next";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import fr from "@/messages/fr.json";

export const LANGUAGES = ["en", "de", "fr", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

export const catalogues: Record<Language, typeof en> = { en, de, fr, es };

/** The signer's own choice on the signing page (the language menu), kept for a year. */
export const LANGUAGE_COOKIE = "quire_sign_lang";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** A stored or asked-for language, or English when it is none of the four. */
export function languageOr(value: unknown, fallback: Language = DEFAULT_LANGUAGE): Language {
  return isLanguage(value) ? value : fallback;
}

const instance = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: catalogues[l] }])),
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  // Resources are inline: initialise synchronously so a translator works straight away.
  initAsync: false,
  // Emails escape their own output and React escapes the page: no double escaping here.
  interpolation: { escapeValue: false },
  showSupportNotice: false,
});

export type Translate = TFunction;

/** A translator bound to one language. */
export function translator(lang: Language): Translate {
  return instance.getFixedT(lang);
}

/**
 * A signer-facing error in the signer's language: its catalogue message (sign.errors.<key>, the key
 * defaulting to the error's code), else its own English text.
 */
export function signerErrorText(
  err: { message: string; code: string; localized?: { key?: string; params?: Record<string, string | number> } },
  lang: Language,
): string {
  const key = `sign.errors.${err.localized?.key ?? err.code}`;
  return instance.exists(key, { lng: lang }) ? translator(lang)(key, err.localized?.params ?? {}) : err.message;
}

/** A date and time as people of this language write it, in UTC (the zone the audit trail uses). */
export function formatDateTime(date: Date, lang: Language): string {
  return `${new Intl.DateTimeFormat(lang, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(date)} UTC`;
}

"use client";

import { usePathname, useRouter } from "next/navigation";
import { createContext, useContext, useMemo, useTransition } from "react";
import { LANGUAGE_COOKIE, LANGUAGES, type Language, type Translate, catalogues, translator } from "@/lib/i18n";

const LanguageContext = createContext<Language>("en");

/** The signing page's language, for the client components under it. */
export function SignerLanguage({ lang, children }: { lang: Language; children: React.ReactNode }) {
  return <LanguageContext.Provider value={lang}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): Language {
  return useContext(LanguageContext);
}

export function useT(): Translate {
  const lang = useLanguage();
  return useMemo(() => translator(lang), [lang]);
}

/**
 * The signer's language menu. The choice goes in the address (?lang=, which works in a frame that
 * cannot keep cookies) and in a cookie (a year, the signing pages only) that later visits remember;
 * the page re-renders on the server in it and what the signer already typed stays.
 */
export function LanguageMenu() {
  const lang = useLanguage();
  const t = useT();
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  return (
    <label className="inline-flex items-center gap-2 text-sm text-slate-600">
      <span>{t("sign.language")}</span>
      <select
        aria-label={t("sign.language")}
        value={lang}
        disabled={pending}
        onChange={(e) => {
          // biome-ignore lint/suspicious/noDocumentCookie: one plain cookie; the Cookie Store API is missing in Safari and Firefox.
          document.cookie = `${LANGUAGE_COOKIE}=${e.target.value}; path=/sign; max-age=31536000; samesite=lax`;
          startTransition(() => router.replace(`${pathname}?lang=${e.target.value}`, { scroll: false }));
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {catalogues[l].languageName}
          </option>
        ))}
      </select>
    </label>
  );
}

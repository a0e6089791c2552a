"use client";
// The organization's default signing language: what a send uses when it names none (issue 19 item 5).
import { useState, useTransition } from "react";
import { saveDefaultLanguageAction } from "@/lib/dashboard/actions/settings";
import { catalogues, LANGUAGES, type Language } from "@/lib/i18n";
import { FormActions, SelectField } from "@/components/fields";

export function LanguageForm({ initial, readOnly }: { initial: Language; readOnly: boolean }) {
  const [language, setLanguage] = useState<Language>(initial);
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [pending, startTransition] = useTransition();
  function submit(e: React.FormEvent) {
    e.preventDefault();
    startTransition(async () => {
      const r = await saveDefaultLanguageAction({ language });
      setError(r.ok ? undefined : r.fieldErrors?.language);
      setMessage(r.ok ? { tone: "ok", text: r.data } : { tone: "error", text: r.error });
    });
  }
  return (
    <form onSubmit={submit} aria-label="Default signing language" className="space-y-4">
      <fieldset disabled={readOnly}>
        <SelectField
          label="Default language"
          hint="Of the signing page, its emails and passcodes, when a send names no language. Signers can switch the page."
          value={language}
          onChange={(e) => setLanguage(e.target.value as Language)}
          error={error}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {catalogues[l].languageName}
            </option>
          ))}
        </SelectField>
      </fieldset>
      <FormActions readOnly={readOnly} pending={pending} message={message}>
        Save language
      </FormActions>
    </form>
  );
}

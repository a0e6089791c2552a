// The signing page's languages (issue 19 item 5): every catalogue has every English key, with the
// same placeholders, and nothing English lacks; emails and SMS come out in the document's language.
import { describe, expect, it } from "vitest";
import { SignerError } from "@/lib/esign/signer-access";
import { errorResponse } from "@/lib/http/errors";
import { catalogues, formatDateTime, LANGUAGES, languageOr, signerErrorText, translator } from "@/lib/i18n";
import { passcodeEmail, passcodeSms, signingRequestEmail } from "@/lib/mail/templates";

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const english = leaves(catalogues.en as Tree);

describe("message catalogues", () => {
  it("English has the keys the code uses", () => {
    expect(english.size).toBeGreaterThan(50);
    expect(english.get("sign.finish")).toBe("Finish signing");
  });

  for (const lang of LANGUAGES.filter((l) => l !== "en")) {
    describe(lang, () => {
      const other = leaves(catalogues[lang] as Tree);
      it("has every English key", () => {
        expect([...english.keys()].filter((k) => !other.has(k))).toEqual([]);
      });
      it("has no key English lacks", () => {
        expect([...other.keys()].filter((k) => !english.has(k))).toEqual([]);
      });
      it("keeps each message's placeholders and translates it", () => {
        for (const [key, text] of english) {
          const translated = other.get(key) ?? "";
          expect(placeholders(translated), `${lang} ${key}`).toEqual(placeholders(text));
          expect(translated.trim(), `${lang} ${key}`).not.toBe("");
        }
        // Not a copy of English: most messages differ.
        const same = [...english].filter(([k, v]) => other.get(k) === v).length;
        expect(same).toBeLessThan(english.size / 10);
      });
    });
  }
});

describe("translations in use", () => {
  it("falls back to English for an unknown language", () => {
    expect(languageOr("xx")).toBe("en");
    expect(languageOr("de")).toBe("de");
  });

  it("fills placeholders without escaping (the email layout escapes)", () => {
    expect(translator("de")("sign.asksYou", { sender: "A & B", name: "Kim" })).toBe("A & B bittet Sie, Kim, um Ihre Unterschrift.");
  });

  it("writes dates as each language does", () => {
    const d = new Date("2026-03-05T14:30:00Z");
    expect(formatDateTime(d, "de")).toBe("5. März 2026 um 14:30 UTC");
    expect(formatDateTime(d, "fr")).toContain("5 mars 2026");
    expect(formatDateTime(d, "es")).toContain("5 de marzo de 2026");
    expect(formatDateTime(d, "en")).toContain("March 5, 2026");
  });

  it("writes a signing request in the document's language, escaped", () => {
    const mail = signingRequestEmail({
      recipientName: "Jo <b>",
      senderName: "Acme",
      documentName: "Vertrag",
      signUrl: "https://x.test/sign/t",
      expiresAt: new Date("2026-03-05T14:30:00Z"),
      lang: "de",
    });
    expect(mail.subject).toBe("Acme bittet Sie, „Vertrag“ zu unterschreiben");
    expect(mail.html).toContain("Hallo Jo &lt;b&gt;,");
    expect(mail.html).toContain("Prüfen und unterschreiben");
    expect(mail.text).toContain("Bitte unterschreiben Sie bis 5. März 2026 um 14:30 UTC.");
    expect(signingRequestEmail({ recipientName: "Jo", documentName: "D", signUrl: "https://x.test" }).subject).toBe("Someone asks you to sign “D”");
  });

  it("writes passcodes in the document's language", () => {
    expect(passcodeEmail({ recipientName: "Ana", documentName: "Contrato", code: "123456", minutes: 10, lang: "es" }).subject).toBe(
      "123456 es su código de firma",
    );
    expect(passcodeSms({ documentName: "Contrat", code: "123456", minutes: 10, lang: "fr" })).toBe(
      '123456 est votre code pour signer "Contrat". Il est valable 10 minutes.',
    );
  });

  it("words signer-facing errors in the page's language, with their values, and keeps English for unknown codes", async () => {
    const wrong = new SignerError("validation", "That code is not right; 3 attempt(s) left for this code", "WrongPasscode", { params: { left: 3 } });
    expect(signerErrorText(wrong, "de")).toBe("Dieser Code ist nicht richtig; noch 3 Versuch(e) für diesen Code");
    expect(signerErrorText(wrong, "en")).toBe(wrong.message);
    expect(signerErrorText(new SignerError("conflict", "Some new problem", "SomethingNew"), "fr")).toBe("Some new problem");
    // The HTTP body keeps its shape and code; only the words follow the language, and only when one is named.
    const res = errorResponse(new SignerError("gone", "This signing request has expired", "DocumentExpired"), "signer", "es");
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual({ error: "Esta solicitud de firma ha caducado", code: "document_expired" });
    expect(await errorResponse(wrong, "signer").json()).toEqual({ error: wrong.message, code: "wrong_passcode" });
  });
});

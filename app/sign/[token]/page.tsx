import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { CompletionNotifier, DeclinedNotice, SignedNotice } from "@/components/signing/completion";
import { copyLinks } from "@/components/signing/copy-links";
import { GatedSigning } from "@/components/signing/gated-signing";
import { LanguageMenu, SignerLanguage } from "@/components/signing/i18n";
import { SigningClient } from "@/components/signing/signing-client";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { embeddingOrigin, frameAncestorsForToken } from "@/lib/esign/framing";
import { documentLanguageByToken } from "@/lib/esign/signer-access";
import { openSigningSession, SignerError } from "@/lib/esign/signing";
import { esignDeps } from "@/lib/esign/service";
import { requestMetaOf } from "@/lib/http/request-meta";
import { isLanguage, LANGUAGE_COOKIE, type Language, languageOr, signerErrorText, translator } from "@/lib/i18n";
import { type Branding, DEFAULT_BRANDING } from "@/lib/orgs/branding";

export const dynamic = "force-dynamic";

type PageProps = { params: Promise<{ token: string }>; searchParams: Promise<{ lang?: string }> };

/** The signer's choice (the menu: ?lang=, then its cookie), which wins over the document's language. */
async function chosenLanguage(searchParams: PageProps["searchParams"]): Promise<string | undefined> {
  const asked = (await searchParams).lang;
  return isLanguage(asked) ? asked : (await cookies()).get(LANGUAGE_COOKIE)?.value;
}

// The tab title in the page's language too.
export async function generateMetadata({ params, searchParams }: PageProps): Promise<Metadata> {
  const chosen = await chosenLanguage(searchParams);
  const lang = isLanguage(chosen) ? chosen : languageOr(await documentLanguageByToken(await db(), (await params).token));
  return { title: translator(lang)("sign.pageTitle"), robots: { index: false } };
}

function Shell({ lang, branding = DEFAULT_BRANDING, children }: { lang: Language; branding?: Branding; children: React.ReactNode }) {
  // The accent recolours the page's brand utilities (bg-brand-600, the focus rings) below this point;
  // --brand-text is the text colour that contrasts with it.
  const accent = branding.accent
    ? ({ "--color-brand-600": branding.accent, "--color-brand-700": branding.accent, "--brand-text": branding.accentText } as React.CSSProperties)
    : undefined;
  return (
    <SignerLanguage lang={lang}>
      <div lang={lang} style={accent}>
        <div className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-2 px-4 pt-3">
          {branding.logoPath ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img src={branding.logoPath} alt={branding.name} className="h-10 max-w-48 object-contain" />
          ) : (
            <span />
          )}
          <LanguageMenu />
        </div>
        {children}
      </div>
    </SignerLanguage>
  );
}

function Notice({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-[80vh] items-center justify-center px-4">
      <div role="status" className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 className="mb-2 text-xl font-semibold">{title}</h1>
        <div className="text-sm text-slate-600">{children}</div>
      </div>
    </main>
  );
}

export default async function SignPage({ params, searchParams }: PageProps) {
  const { token } = await params;
  const h = await headers();
  const chosen = await chosenLanguage(searchParams);
  const meta = requestMetaOf(h);
  let session: Awaited<ReturnType<typeof openSigningSession>>;
  try {
    session = await openSigningSession(await esignDeps(), token, meta);
  } catch (err) {
    if (err instanceof SignerError) {
      const lang = languageOr(chosen);
      const t = translator(lang);
      return (
        <Shell lang={lang}>
          <Notice title={t("sign.broken.title")}>
            {signerErrorText(err, lang)}. {t("sign.broken.body")}
          </Notice>
        </Shell>
      );
    }
    throw err;
  }
  const { state, document } = session;
  const lang = languageOr(chosen, document.language);
  const t = translator(lang);
  // The framing page, if the browser named it and the organization allows it (docs/contract.md "Embedded signing").
  const embedOrigin = embeddingOrigin(h.get("referer"), await frameAncestorsForToken(await db(), token), new URL(getConfig().baseUrl).origin);
  const notice = (title: string, body: string) => (
    <Shell lang={lang} branding={document.branding}>
      <Notice title={title}>{body}</Notice>
    </Shell>
  );
  if (state === "voided")
    return notice(t("sign.voided.title"), document.voidReason ? t("sign.voided.bodyReason", { reason: document.voidReason }) : t("sign.voided.body"));
  if (state === "declined")
    return (
      <Shell lang={lang} branding={document.branding}>
        <main>
          <DeclinedNotice documentName={document.name} reason={document.declineReason} />
        </main>
      </Shell>
    );
  if (state === "already_signed" || state === "completed")
    return (
      <Shell lang={lang} branding={document.branding}>
        <main>
          <CompletionNotifier origin={embedOrigin} documentId={document.id} />
          <SignedNotice
            documentName={document.name}
            everyone={document.status === "completed"}
            links={session.access.verified ? copyLinks(token, null, document.status === "completed") : null}
          />
        </main>
      </Shell>
    );
  if (state === "expired") return notice(t("sign.expired.title"), t("sign.expired.body"));
  if (state === "draft") return notice(t("sign.draft.title"), t("sign.draft.body"));
  if (state === "not_your_turn") return notice(t("sign.notYourTurn.title"), t("sign.notYourTurn.body", { doc: document.name }));

  const header = (
    <header className="mb-4">
      <p className="text-xs uppercase tracking-wide text-slate-500">{t("sign.brandLine", { brand: document.branding.name })}</p>
      <h1 className="break-words text-xl font-semibold">{document.name}</h1>
      <p className="text-sm text-slate-600">
        {document.senderName
          ? t("sign.asksYou", { sender: document.senderName, name: session.recipient.name })
          : t("sign.signingAs", { name: session.recipient.name, email: session.recipient.email })}
      </p>
    </header>
  );
  return (
    <Shell lang={lang} branding={document.branding}>
      <main className="mx-auto max-w-4xl px-4 py-4">
        {session.verification ? (
          <GatedSigning
            token={token}
            header={header}
            verification={session.verification}
            document={{ id: document.id, name: document.name }}
            signer={{ name: session.recipient.name, email: session.recipient.email }}
            embedOrigin={embedOrigin}
          />
        ) : (
          <SigningClient
            token={token}
            header={header}
            pages={session.pages}
            fields={session.fields}
            filled={session.filled}
            signer={{ name: session.recipient.name, email: session.recipient.email }}
            document={{ id: document.id, name: document.name }}
            embedOrigin={embedOrigin}
          />
        )}
      </main>
    </Shell>
  );
}

"use client";

import { useEffect } from "react";
import { useT } from "./i18n";

export type CompletionEvent = "signing_complete" | "already_signed";

/** The completion message, posted only to the embedding origin the server identified (docs/contract.md "Embedded signing"). */
export function postCompletion(origin: string | null | undefined, documentId: string, event: CompletionEvent): void {
  if (!origin || window.parent === window) return;
  window.parent.postMessage({ type: "esign:completed", documentId, status: "completed", event, scope: "recipient" }, origin);
}

/** Tells the embedding page, once, that this signer had already finished (a reopened link). */
export function CompletionNotifier({ origin, documentId }: { origin: string | null; documentId: string }) {
  useEffect(() => postCompletion(origin, documentId, "already_signed"), [origin, documentId]);
  return null;
}

/** After declining (and on a declined document's link): final, nothing is left to sign. */
export function DeclinedNotice({ documentName, reason }: { documentName: string; reason: string | null }) {
  const t = useT();
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4">
      <div role="status" className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 className="mb-2 text-xl font-semibold">{t("sign.declined.title")}</h1>
        <p className="text-sm text-slate-600">
          {reason ? t("sign.declined.bodyReason", { doc: documentName, reason }) : t("sign.declined.body", { doc: documentName })}
        </p>
      </div>
    </div>
  );
}

const BUTTON =
  "inline-flex items-center justify-center rounded-md px-4 py-2 text-sm font-medium focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/**
 * The completion screen: what was done, what happens next, and the signer's copies. `links` is null
 * where the copies cannot be offered (a reopened link whose passcode check was not passed again).
 */
export function SignedNotice({
  documentName,
  everyone,
  links,
}: {
  documentName: string;
  everyone: boolean;
  links: { mine: string; completed: string | null } | null;
}) {
  const t = useT();
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4">
      <div role="status" className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 className="mb-2 text-xl font-semibold">{t("sign.signed.title")}</h1>
        <p className="text-sm text-slate-600">{everyone ? t("sign.signed.everyone", { doc: documentName }) : t("sign.signed.mine", { doc: documentName })}</p>
        <p className="mt-2 text-sm text-slate-600">{t("sign.signed.close")}</p>
        {links ? (
          <div className="mt-4 flex flex-wrap justify-center gap-2">
            {links.completed ? (
              <a href={links.completed} download className={`${BUTTON} bg-brand-600 text-[var(--brand-text,#fff)] hover:bg-brand-700`}>
                {t("sign.signed.downloadCompleted")}
              </a>
            ) : (
              <a href={links.mine} download className={`${BUTTON} border border-slate-300 bg-white hover:bg-slate-50`}>
                {t("sign.signed.downloadMine")}
              </a>
            )}
          </div>
        ) : null}
      </div>
    </div>
  );
}

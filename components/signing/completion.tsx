"use client";

import { useEffect } from "react";

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
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4">
      <div role="status" className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 className="mb-2 text-xl font-semibold">This document was declined</h1>
        <p className="text-sm text-slate-600">
          “{documentName}” was declined{reason ? `: “${reason}”` : ""}. The signing request is closed; the sender has been told. Nothing is left to sign.
        </p>
      </div>
    </div>
  );
}

export function SignedNotice({ documentName, everyone }: { documentName: string; everyone: boolean }) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4">
      <div role="status" className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 className="mb-2 text-xl font-semibold">You have signed</h1>
        <p className="text-sm text-slate-600">
          “{documentName}” is signed.{" "}
          {everyone ? "Everyone has signed; the completed copy was emailed to you." : "We will email you the completed copy when everyone has signed."}
        </p>
      </div>
    </div>
  );
}

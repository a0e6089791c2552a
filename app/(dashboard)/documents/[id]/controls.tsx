"use client";

import { useState, useTransition } from "react";
import { resendAction, retryFinalizationAction, voidDocumentAction } from "@/lib/dashboard/actions/documents";

export function RetryFinalizationButton({ id }: { id: string }) {
  const [pending, start] = useTransition();
  const [note, setNote] = useState<string | null>(null);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const r = await retryFinalizationAction({ id });
            setNote(r.ok ? r.data : r.error);
          })
        }
        className="inline-flex items-center gap-2 rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-70"
      >
        {pending ? <span aria-hidden className="h-3 w-3 animate-spin rounded-full border-2 border-white border-t-transparent" /> : null}
        {pending ? "Retrying…" : "Retry finalization"}
      </button>
      {note ? (
        <span role="status" className="text-sm">
          {note}
        </span>
      ) : null}
    </span>
  );
}

export function VoidButton({ id }: { id: string }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="flex flex-col items-end gap-1">
      <button
        type="button"
        disabled={pending}
        onClick={() => {
          const reason = window.prompt("Why are you voiding this document? Signers will see the reason.");
          if (!reason) return;
          start(async () => {
            const r = await voidDocumentAction({ id, reason });
            if (!r.ok) setError(r.error);
          });
        }}
        className="rounded-md border border-red-200 px-4 py-2 text-sm text-red-700 hover:bg-red-50"
      >
        {pending ? "Voiding…" : "Void"}
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}

export function ResendButton({ id, recipientId, name }: { id: string; recipientId: string; name: string }) {
  const [pending, start] = useTransition();
  const [note, setNote] = useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        aria-label={`Resend the signing email to ${name}`}
        disabled={pending}
        onClick={() =>
          start(async () => {
            const r = await resendAction({ id, recipientId });
            setNote(r.ok ? (r.data ?? "Sent.") : r.error);
          })
        }
        className="rounded border border-slate-300 px-2 py-1 text-xs"
      >
        {pending ? "Sending…" : "Resend email"}
      </button>
      {note ? (
        <span role="status" className="text-xs text-slate-600">
          {note}
        </span>
      ) : null}
    </span>
  );
}

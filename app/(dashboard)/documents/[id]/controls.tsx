"use client";

import { useId, useState, useTransition } from "react";
import { ActionButton } from "@/components/action-button";
import { DialogButton, DialogFooter, FOCUS_RING } from "@/components/dialog";
import { resendAction, retryFinalizationAction, voidDocumentAction } from "@/lib/dashboard/actions/documents";

export function RetryFinalizationButton({ id }: { id: string }) {
  return (
    <ActionButton
      run={() => retryFinalizationAction({ id })}
      onDone={(note) => note}
      label="Retry finalization"
      busyLabel="Retrying…"
      spinner="light"
      className="inline-flex items-center gap-2 rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-70"
    />
  );
}

/** Void asks for the reason signers will see, in the dashboard's one dialog (not window.prompt). */
export function VoidButton({ id }: { id: string }) {
  return (
    <DialogButton
      label="Void"
      title="Void this document?"
      description="Signers can no longer sign it and see the reason."
      className="rounded-md border border-red-200 px-4 py-2 text-sm text-red-700 hover:bg-red-50"
    >
      {(close) => <VoidForm id={id} close={close} />}
    </DialogButton>
  );
}

function VoidForm({ id, close }: { id: string; close: () => void }) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const field = useId();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!reason.trim()) return setError("Please give a reason.");
        start(async () => {
          const r = await voidDocumentAction({ id, reason: reason.trim() });
          if (r.ok) close();
          else setError(r.error);
        });
      }}
    >
      <label htmlFor={field} className="text-sm font-medium">
        Reason
      </label>
      <textarea
        id={field}
        rows={3}
        maxLength={1000}
        required
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${field}-problem` : undefined}
        className={`mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm ${FOCUS_RING}`}
      />
      <DialogFooter
        problem={error}
        problemId={`${field}-problem`}
        onCancel={close}
        confirmLabel="Void document"
        pending={pending}
        pendingLabel="Voiding…"
        danger
      />
    </form>
  );
}

export function ResendButton({ id, recipientId, name }: { id: string; recipientId: string; name: string }) {
  return (
    <ActionButton
      run={() => resendAction({ id, recipientId })}
      onDone={(note) => note ?? "Sent."}
      label="Resend email"
      busyLabel="Sending…"
      aria-label={`Resend the signing email to ${name}`}
      layout="inline-flex items-center gap-2"
      noteClassName="text-xs"
      noteTone="text-slate-600"
      className="rounded border border-slate-300 px-2 py-1 text-xs"
    />
  );
}

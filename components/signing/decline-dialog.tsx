"use client";

import { useId, useRef, useState } from "react";
import { Dialog } from "@/components/dialog";
import { useT } from "./i18n";
import { useSignerPost } from "./signer-api";

const FOCUS_RING = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";
const MAX = 1000;

// Declining asks for a reason in the one modal dialog (components/dialog.tsx, not window.prompt): it
// takes focus, keeps Tab inside, closes on Escape and hands focus back to the button that opened it.
export function DeclineDialog({
  token,
  session,
  onCancel,
  onDeclined,
}: {
  token: string;
  session?: string | null;
  onCancel: () => void;
  onDeclined: (reason: string) => void;
}) {
  const t = useT();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const post = useSignerPost(token, session);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const trimmed = reason.trim();
    if (!trimmed) {
      setProblem(t("sign.declineDialog.empty"));
      box.current?.focus();
      return;
    }
    setPending(true);
    setProblem(null);
    const res = await post("decline", { reason: trimmed });
    setPending(false);
    if (!res.ok) {
      setProblem(res.body?.error ?? t("sign.declineDialog.failed", { status: res.status }));
      return;
    }
    onDeclined(trimmed);
  }

  return (
    <Dialog open title={t("sign.declineDialog.title")} description={t("sign.declineDialog.help")} onClose={onCancel}>
      <form onSubmit={submit} noValidate>
        <label htmlFor={`${id}-reason`} className="text-sm font-medium">
          {t("sign.declineDialog.reason")}
        </label>
        <textarea
          ref={box}
          id={`${id}-reason`}
          value={reason}
          maxLength={MAX}
          rows={4}
          required
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            if (problem) setProblem(null);
          }}
          className={`mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm ${FOCUS_RING}`}
        />
        <p className="mt-1 text-right text-xs text-slate-500">
          {reason.length} / {MAX}
        </p>
        {problem ? (
          <p id={`${id}-problem`} role="alert" className="mt-1 text-sm text-red-700">
            {problem}
          </p>
        ) : null}
        <div className="mt-3 flex justify-end gap-2">
          <button type="button" onClick={onCancel} className={`rounded-md px-4 py-2 text-sm text-slate-600 ${FOCUS_RING}`}>
            {t("sign.declineDialog.cancel")}
          </button>
          <button
            type="submit"
            disabled={pending}
            className={`rounded-md bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-70 ${FOCUS_RING}`}
          >
            {pending ? t("sign.declineDialog.pending") : t("sign.decline")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

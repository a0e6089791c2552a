"use client";

import { useId, useRef, useState } from "react";
import { Dialog, DialogFooter, FOCUS_RING } from "@/components/dialog";
import { useT } from "./i18n";
import { useSignerPost } from "./signer-api";

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
        <DialogFooter
          problem={problem}
          problemId={`${id}-problem`}
          onCancel={onCancel}
          cancelLabel={t("sign.declineDialog.cancel")}
          confirmLabel={t("sign.decline")}
          pending={pending}
          pendingLabel={t("sign.declineDialog.pending")}
          danger
        />
      </form>
    </Dialog>
  );
}

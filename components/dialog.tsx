"use client";

import { useEffect, useId, useRef, useState } from "react";

/**
 * An in-page modal dialog on the native <dialog>: focus moves into it and stays there, Escape closes
 * it, the page behind is inert, and it is announced by its title. Replaces window.prompt/confirm.
 */
export function Dialog({
  open,
  title,
  onClose,
  alert = false,
  description,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  /** A confirmation of something that cannot be undone: announced as an alert dialog. */
  alert?: boolean;
  /** A line under the title, announced with it. */
  description?: React.ReactNode;
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      role={alert ? "alertdialog" : undefined}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onClose}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
    >
      <h2 id={titleId} className={`${description ? "mb-1" : "mb-3"} text-lg font-semibold`}>
        {title}
      </h2>
      {description ? (
        <p id={descriptionId} className="mb-3 text-sm text-slate-600">
          {description}
        </p>
      ) : null}
      {open ? children : null}
    </dialog>
  );
}

export const FOCUS_RING = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/**
 * The foot of every dialog: its problem or refusal (announced at once), Cancel, and the act. The act
 * submits the dialog's form, or runs `onConfirm` when the dialog has no form (a plain question).
 */
export function DialogFooter({
  problem,
  problemId,
  onCancel,
  cancelLabel = "Cancel",
  confirmLabel,
  pending = false,
  pendingLabel,
  danger = false,
  onConfirm,
}: {
  problem?: string | null;
  /** For the field the problem is about (aria-describedby). */
  problemId?: string;
  onCancel: () => void;
  cancelLabel?: string;
  confirmLabel: string;
  pending?: boolean;
  pendingLabel?: string;
  /** Something that cannot be undone: a red button. */
  danger?: boolean;
  onConfirm?: () => void;
}) {
  return (
    <>
      {problem ? (
        <p id={problemId} role="alert" className="mt-2 break-words text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      <div className="mt-3 flex justify-end gap-2">
        <button type="button" onClick={onCancel} className={`rounded-md border border-slate-300 px-4 py-2 text-sm ${FOCUS_RING}`}>
          {cancelLabel}
        </button>
        <button
          type={onConfirm ? "button" : "submit"}
          onClick={onConfirm}
          disabled={pending}
          className={`rounded-md px-4 py-2 text-sm font-medium disabled:opacity-70 ${FOCUS_RING} ${
            danger ? "bg-red-700 text-white hover:bg-red-800" : "bg-brand-600 text-[var(--brand-text,#fff)] hover:bg-brand-700"
          }`}
        >
          {pending && pendingLabel ? pendingLabel : confirmLabel}
        </button>
      </div>
    </>
  );
}

/**
 * A button that opens the dialog. The body (`children`) is given `close` and is mounted only while the
 * dialog is open, so what it holds (a reason typed, a refusal shown) starts afresh each time.
 */
export function DialogButton({
  label,
  title,
  description,
  className,
  children,
}: {
  label: string;
  title: string;
  description?: React.ReactNode;
  className: string;
  children: (close: () => void) => React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <>
      <button type="button" aria-haspopup="dialog" onClick={() => setOpen(true)} className={`${className} ${FOCUS_RING}`}>
        {label}
      </button>
      <Dialog open={open} title={title} description={description} onClose={close} alert>
        {children(close)}
      </Dialog>
    </>
  );
}

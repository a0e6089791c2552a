"use client";

import { useEffect, useId, useRef } from "react";

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

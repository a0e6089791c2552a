"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, useTransition } from "react";
import { deleteDraftAction } from "@/lib/dashboard/actions/documents";

const RING = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/**
 * "Delete draft" with an in-page confirmation (role alertdialog, not window.confirm): focus goes to
 * Cancel, Tab stays inside, Escape closes and focus returns to the button.
 */
export function DeleteDraftButton({ id, name }: { id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();
  const opener = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const uid = useId();

  useEffect(() => {
    if (open) cancel.current?.focus();
  }, [open]);

  function close() {
    setOpen(false);
    setError(null);
    opener.current?.focus();
  }

  function onKey(e: React.KeyboardEvent) {
    if (e.key === "Escape") {
      e.stopPropagation();
      close();
      return;
    }
    if (e.key !== "Tab" || !dialog.current) return;
    const buttons = [...dialog.current.querySelectorAll<HTMLElement>("button:not([disabled])")];
    const [first, last] = [buttons[0], buttons[buttons.length - 1]];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first?.focus();
    }
  }

  return (
    <>
      <button
        ref={opener}
        type="button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        className={`rounded-md border border-red-200 px-4 py-2 text-sm text-red-700 hover:bg-red-50 ${RING}`}
      >
        Delete draft
      </button>
      {open ? (
        <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 p-4" onKeyDown={onKey}>
          <div
            ref={dialog}
            role="alertdialog"
            aria-modal="true"
            aria-labelledby={`${uid}-title`}
            aria-describedby={`${uid}-text`}
            className="w-full max-w-md rounded-lg bg-white p-5 shadow-xl"
          >
            <h2 id={`${uid}-title`} className="mb-2 text-lg font-semibold">
              Delete this draft?
            </h2>
            <p id={`${uid}-text`} className="mb-4 break-words text-sm text-slate-600">
              “{name}” and its PDF, signers and fields are removed for good. It was never sent, so nobody is told.
            </p>
            {error ? (
              <p role="alert" className="mb-3 text-sm text-red-700">
                {error}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              <button ref={cancel} type="button" onClick={close} className={`rounded-md border border-slate-300 px-4 py-2 text-sm ${RING}`}>
                Cancel
              </button>
              <button
                type="button"
                disabled={pending}
                onClick={() =>
                  start(async () => {
                    const r = await deleteDraftAction({ id });
                    if (!r.ok) return setError(r.error);
                    router.push("/documents");
                  })
                }
                className={`rounded-md bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-70 ${RING}`}
              >
                {pending ? "Deleting…" : "Delete draft"}
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </>
  );
}

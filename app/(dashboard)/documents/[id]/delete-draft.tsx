"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Dialog } from "@/components/dialog";
import { deleteDraftAction } from "@/lib/dashboard/actions/documents";

const RING = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/** "Delete draft" with an in-page confirmation (the dashboard's one dialog, not window.confirm). */
export function DeleteDraftButton({ id, name }: { id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();

  function close() {
    setOpen(false);
    setError(null);
  }

  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        className={`rounded-md border border-red-200 px-4 py-2 text-sm text-red-700 hover:bg-red-50 ${RING}`}
      >
        Delete draft
      </button>
      <Dialog open={open} title="Delete this draft?" onClose={close} alert>
        <p className="mb-4 break-words text-sm text-slate-600">
          “{name}” and its PDF, signers and fields are removed for good. It was never sent, so nobody is told.
        </p>
        {error ? (
          <p role="alert" className="mb-3 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <button type="button" onClick={close} className={`rounded-md border border-slate-300 px-4 py-2 text-sm ${RING}`}>
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
      </Dialog>
    </>
  );
}

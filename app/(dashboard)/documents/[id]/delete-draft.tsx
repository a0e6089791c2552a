"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { DialogButton, DialogFooter } from "@/components/dialog";
import { deleteDraftAction } from "@/lib/dashboard/actions/documents";

/** "Delete draft" with an in-page confirmation (the dashboard's one dialog, not window.confirm). */
export function DeleteDraftButton({ id, name }: { id: string; name: string }) {
  return (
    <DialogButton label="Delete draft" title="Delete this draft?" className="rounded-md border border-red-200 px-4 py-2 text-sm text-red-700 hover:bg-red-50">
      {(close) => <DeleteDraftBody id={id} name={name} close={close} />}
    </DialogButton>
  );
}

function DeleteDraftBody({ id, name, close }: { id: string; name: string; close: () => void }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();
  return (
    <>
      <p className="break-words text-sm text-slate-600">“{name}” and its PDF, signers and fields are removed for good. It was never sent, so nobody is told.</p>
      <DialogFooter
        problem={error}
        onCancel={close}
        confirmLabel="Delete draft"
        pending={pending}
        pendingLabel="Deleting…"
        danger
        onConfirm={() =>
          start(async () => {
            const r = await deleteDraftAction({ id });
            if (!r.ok) return setError(r.error);
            router.push("/documents");
          })
        }
      />
    </>
  );
}

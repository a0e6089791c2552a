"use client";

import { useState, useTransition } from "react";
import { useConfirm } from "@/components/confirm";
import { revokeKeyAction } from "@/lib/dashboard/actions/api-keys";

export function RevokeButton({ id, label }: { id: string; label: string }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const { confirm, dialog } = useConfirm();
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        disabled={pending}
        aria-label={`Revoke ${label}`}
        aria-haspopup="dialog"
        onClick={async () => {
          if (!(await confirm({ title: `Revoke ${label}?`, description: "Requests using it will fail at once.", confirmLabel: "Revoke key" }))) return;
          start(async () => {
            const result = await revokeKeyAction({ id });
            if (!result.ok) setError(result.error);
          });
        }}
        className="rounded-md border border-red-200 px-2.5 py-1 text-sm text-red-700 hover:bg-red-50 disabled:opacity-60"
      >
        {pending ? "Revoking…" : "Revoke"}
      </button>
      {error ? <span className="text-xs text-red-700">{error}</span> : null}
      {dialog}
    </span>
  );
}

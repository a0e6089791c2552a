"use client";

import { useRouter } from "next/navigation";
import { useTransition, useState } from "react";
import { type ConfirmQuestion, useConfirm } from "@/components/confirm";
import { FormMessage } from "@/components/ui";
import type { ActionResult } from "@/lib/dashboard/action";

/**
 * The edit form of one record (a deliverable, a template): its fields (`children`), Save, and Delete
 * behind a confirmation that then leaves for `remove.goTo`. Saving says "Saved." or the refusal.
 */
export function RecordEditor({
  save,
  remove,
  children,
}: {
  save: () => Promise<ActionResult<unknown>>;
  remove: { label: string; question: ConfirmQuestion; run: () => Promise<ActionResult<unknown>>; goTo: string };
  children: React.ReactNode;
}) {
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, start] = useTransition();
  const { confirm, dialog } = useConfirm();
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const result = await save();
          setMessage(result.ok ? { tone: "ok", text: "Saved." } : { tone: "error", text: result.error });
          if (result.ok) router.refresh();
        });
      }}
    >
      {children}
      <FormMessage message={message} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={pending} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white disabled:opacity-60">
          {pending ? "Saving…" : "Save"}
        </button>
        <button
          type="button"
          disabled={pending}
          aria-haspopup="dialog"
          onClick={async () => {
            if (!(await confirm(remove.question))) return;
            start(async () => {
              const result = await remove.run();
              if (result.ok) router.push(remove.goTo);
              else setMessage({ tone: "error", text: result.error });
            });
          }}
          className="rounded-md border border-red-200 px-4 py-2 text-sm text-red-700 hover:bg-red-50"
        >
          {remove.label}
        </button>
      </div>
      {dialog}
    </form>
  );
}

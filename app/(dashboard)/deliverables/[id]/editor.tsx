"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useConfirm } from "@/components/confirm";
import { FormMessage, LabeledInput } from "@/components/ui";
import { deleteDeliverableAction, saveDeliverableAction } from "@/lib/dashboard/actions/deliverables";

export function DeliverableEditor({ id, name, description, tags }: { id: string; name: string; description: string; tags: string[] }) {
  const router = useRouter();
  const [form, setForm] = useState({ name, description, tags: tags.join(", ") });
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, start] = useTransition();
  const { confirm, dialog } = useConfirm();
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const result = await saveDeliverableAction({ id, ...form });
          setMessage(result.ok ? { tone: "ok", text: "Saved." } : { tone: "error", text: result.error });
        });
      }}
    >
      <LabeledInput label="Name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      <LabeledInput label="Description" value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
      <LabeledInput label="Tags (comma-separated)" value={form.tags} onChange={(e) => setForm({ ...form, tags: e.target.value })} />
      <FormMessage message={message} />
      <div className="flex flex-wrap gap-2">
        <button disabled={pending} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white disabled:opacity-60">
          {pending ? "Saving…" : "Save"}
        </button>
        <button
          type="button"
          disabled={pending}
          aria-haspopup="dialog"
          onClick={async () => {
            const question = {
              title: "Delete this deliverable?",
              description: "It disappears from lists; its data is kept.",
              confirmLabel: "Delete deliverable",
            };
            if (!(await confirm(question))) return;
            start(async () => {
              const result = await deleteDeliverableAction({ id });
              if (result.ok) router.push("/deliverables");
              else setMessage({ tone: "error", text: result.error });
            });
          }}
          className="rounded-md border border-red-200 px-4 py-2 text-sm text-red-700 hover:bg-red-50"
        >
          Delete
        </button>
      </div>
      {dialog}
    </form>
  );
}

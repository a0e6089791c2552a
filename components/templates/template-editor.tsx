"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useConfirm } from "@/components/confirm";
import { FormMessage, LabeledInput } from "@/components/ui";
import { deleteTemplateAction, updateTemplateAction } from "@/lib/dashboard/actions/templates";

export function TemplateEditor({
  template,
  folders,
}: {
  template: { id: string; name: string; description: string; folderId: string | null; tags: string[] };
  folders: { id: string; path: string }[];
}) {
  const router = useRouter();
  const [form, setForm] = useState({
    name: template.name,
    description: template.description,
    folderId: template.folderId ?? "",
    tags: template.tags.join(", "),
  });
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, start] = useTransition();
  const { confirm, dialog } = useConfirm();
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const result = await updateTemplateAction({ id: template.id, ...form });
          setMessage(result.ok ? { tone: "ok", text: "Saved." } : { tone: "error", text: result.error });
          if (result.ok) router.refresh();
        });
      }}
    >
      <LabeledInput label="Name" required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      <label className="block">
        <span className="text-sm font-medium">Description</span>
        <textarea
          rows={2}
          value={form.description}
          onChange={(e) => setForm({ ...form, description: e.target.value })}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </label>
      <label className="block">
        <span className="text-sm font-medium">Folder</span>
        <select
          value={form.folderId}
          onChange={(e) => setForm({ ...form, folderId: e.target.value })}
          className="mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2"
        >
          <option value="">(root)</option>
          {folders.map((f) => (
            <option key={f.id} value={f.id}>
              {f.path}
            </option>
          ))}
        </select>
      </label>
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
              title: `Delete the template “${template.name}”?`,
              description: "Documents made from it keep working.",
              confirmLabel: "Delete template",
            };
            if (!(await confirm(question))) return;
            start(async () => {
              const result = await deleteTemplateAction({ id: template.id });
              if (result.ok) router.push(template.folderId ? `/templates?folder=${template.folderId}` : "/templates");
              else setMessage({ tone: "error", text: result.error });
            });
          }}
          className="rounded-md border border-red-200 px-4 py-2 text-sm text-red-700 hover:bg-red-50"
        >
          Delete template
        </button>
      </div>
      {dialog}
    </form>
  );
}

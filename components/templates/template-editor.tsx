"use client";

import { useState } from "react";
import { RecordEditor } from "@/components/record-editor";
import { LabeledInput } from "@/components/ui";
import { deleteTemplateAction, updateTemplateAction } from "@/lib/dashboard/actions/templates";

export function TemplateEditor({
  template,
  folders,
}: {
  template: { id: string; name: string; description: string; folderId: string | null; tags: string[] };
  folders: { id: string; path: string }[];
}) {
  const [form, setForm] = useState({
    name: template.name,
    description: template.description,
    folderId: template.folderId ?? "",
    tags: template.tags.join(", "),
  });
  return (
    <RecordEditor
      save={() => updateTemplateAction({ id: template.id, ...form })}
      remove={{
        label: "Delete template",
        question: { title: `Delete the template “${template.name}”?`, description: "Documents made from it keep working.", confirmLabel: "Delete template" },
        run: () => deleteTemplateAction({ id: template.id }),
        goTo: template.folderId ? `/templates?folder=${template.folderId}` : "/templates",
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
    </RecordEditor>
  );
}

"use client";

import { useState } from "react";
import { RecordEditor } from "@/components/record-editor";
import { LabeledInput } from "@/components/ui";
import { deleteDeliverableAction, saveDeliverableAction } from "@/lib/dashboard/actions/deliverables";

export function DeliverableEditor({ id, name, description, tags }: { id: string; name: string; description: string; tags: string[] }) {
  const [form, setForm] = useState({ name, description, tags: tags.join(", ") });
  return (
    <RecordEditor
      save={() => saveDeliverableAction({ id, ...form })}
      remove={{
        label: "Delete",
        question: { title: "Delete this deliverable?", description: "It disappears from lists; its data is kept.", confirmLabel: "Delete deliverable" },
        run: () => deleteDeliverableAction({ id }),
        goTo: "/deliverables",
      }}
    >
      <LabeledInput label="Name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      <LabeledInput label="Description" value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
      <LabeledInput label="Tags (comma-separated)" value={form.tags} onChange={(e) => setForm({ ...form, tags: e.target.value })} />
    </RecordEditor>
  );
}

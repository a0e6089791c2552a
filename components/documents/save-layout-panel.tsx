"use client";

import { useState } from "react";
import { FormMessage } from "@/components/ui";
import { saveLayoutFromDraftAction } from "@/lib/dashboard/actions/documents";
import type { PlacerField } from "@/components/documents/field-placer";

// "Save as layout" (issue 19 item 10): the fields placed now, each signer standing for a role the sender
// names ("Client", "Witness"), so the next send only needs names and emails.
export function SaveLayoutPanel({
  documentId,
  recipients,
  fields,
}: {
  documentId: string;
  recipients: { id: string; name: string; signingOrder: number }[];
  fields: PlacerField[];
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [roles, setRoles] = useState<Record<string, string>>(() => Object.fromEntries(recipients.map((r, i) => [r.id, `Signer ${i + 1}`])));
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setPending(true);
    setMessage(null);
    const r = await saveLayoutFromDraftAction({
      id: documentId,
      name,
      roles: recipients.map((x) => ({ recipientId: x.id, role: roles[x.id] ?? "" })),
      fields: fields.map(({ id: _id, ...f }) => f),
    });
    setPending(false);
    if (!r.ok) {
      const detail = r.fieldErrors ? Object.values(r.fieldErrors).filter((m) => m !== r.error) : [];
      return setMessage({ tone: "error", text: [r.error, ...detail].join(": ") });
    }
    setMessage({ tone: "ok", text: r.data });
  }

  if (!open)
    return (
      <div className="space-y-2">
        <button
          type="button"
          onClick={() => setOpen(true)}
          className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50"
        >
          Save as layout
        </button>
        <FormMessage message={message} />
      </div>
    );
  return (
    <form onSubmit={save} aria-label="Save as layout" className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <p className="font-medium">Save as layout</p>
      <p className="text-xs text-slate-500">These fields, for roles instead of people: next time you only fill in names and emails.</p>
      <label className="block">
        <span className="text-xs text-slate-600">Layout name</span>
        <input required value={name} onChange={(e) => setName(e.target.value)} className="mt-0.5 w-full rounded-md border border-slate-300 px-2 py-1.5" />
      </label>
      {recipients.map((r) => (
        <label key={r.id} className="block">
          <span className="text-xs text-slate-600">
            Role of {r.signingOrder}. {r.name}
          </span>
          <input
            required
            value={roles[r.id] ?? ""}
            onChange={(e) => setRoles((all) => ({ ...all, [r.id]: e.target.value }))}
            className="mt-0.5 w-full rounded-md border border-slate-300 px-2 py-1.5"
          />
        </label>
      ))}
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {pending ? "Saving…" : "Save layout"}
        </button>
        <button type="button" onClick={() => setOpen(false)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm">
          Close
        </button>
      </div>
      <FormMessage message={message} />
    </form>
  );
}

"use client";
// Pieces of the send forms (components/documents/new-document-form.tsx, bulk-send-form.tsx): the choice of
// a saved layout, and one signer's name and email.
import { SelectField } from "@/components/fields";

export interface LayoutChoice {
  id: string;
  name: string;
  roles: string[];
}

/** The saved layouts, each named with its roles in signing order. */
export function LayoutSelect({ layouts, value, onChange }: { layouts: LayoutChoice[]; value: string; onChange: (id: string) => void }) {
  return (
    <SelectField label="Saved layout" value={value} onChange={(e) => onChange(e.target.value)}>
      {layouts.map((l) => (
        <option key={l.id} value={l.id}>
          {l.name} ({l.roles.join(", ")})
        </option>
      ))}
    </SelectField>
  );
}

/**
 * One signer's line: its marker (a role, or the place in the order), name and email, each named for screen
 * readers as "<who> name" / "<who> email", and any buttons of the line (`children`).
 */
export function SignerRow({
  marker,
  markerClassName,
  who,
  value,
  onChange,
  stacked = false,
  children,
}: {
  marker: string;
  markerClassName: string;
  who: string;
  value: { name: string; email: string };
  onChange: (patch: { name?: string; email?: string }) => void;
  /** A phone stacks name, email and the buttons (put them at col-start-2) beside a narrow marker; a wider screen puts them in one row. */
  stacked?: boolean;
  children?: React.ReactNode;
}) {
  return (
    <li
      className={`items-end gap-2 rounded-md border border-slate-100 p-2 ${stacked ? "grid grid-cols-[1.5rem_minmax(0,1fr)] sm:flex" : "flex flex-wrap sm:flex-nowrap"}`}
    >
      <span className={`self-center text-sm font-medium ${markerClassName}`}>{marker}</span>
      <label className="min-w-0 flex-1 basis-40">
        <span className="text-xs font-medium text-slate-600">Name</span>
        <input
          required
          aria-label={`${who} name`}
          value={value.name}
          onChange={(e) => onChange({ name: e.target.value })}
          className="mt-0.5 w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </label>
      <label className={`min-w-0 flex-1 basis-48 ${stacked ? "col-start-2" : ""}`}>
        <span className="text-xs font-medium text-slate-600">Email</span>
        <input
          required
          type="email"
          aria-label={`${who} email`}
          value={value.email}
          onChange={(e) => onChange({ email: e.target.value })}
          className="mt-0.5 w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </label>
      {children}
    </li>
  );
}

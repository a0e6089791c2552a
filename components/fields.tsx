"use client";
// The form kit: labelled controls with their hint and validation message beside them (settings, sending).
import { useId } from "react";
import { FormMessage } from "@/components/ui";

/** The field errors of a failed dashboard action, keyed by field. */
export type { FieldErrors } from "@/lib/dashboard/action";

const INPUT = "mt-1 w-full rounded-md border px-3 py-2 disabled:bg-slate-50 disabled:text-slate-500";

function border(error?: string) {
  return error ? "border-red-500" : "border-slate-300";
}

export function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      {error}
    </p>
  );
}

interface FieldProps {
  label: string;
  error?: string;
  hint?: React.ReactNode;
}

/** Label, hint and error around one control; the control gets its id and aria attributes from `render`. */
function Field({
  label,
  error,
  hint,
  render,
}: FieldProps & { render: (a11y: { id: string; "aria-invalid"?: true; "aria-describedby"?: string; className: string }) => React.ReactNode }) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {render({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy, className: `${INPUT} ${border(error)}` })}
      {hint && !error ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

export function TextField({ label, error, hint, ...input }: FieldProps & React.InputHTMLAttributes<HTMLInputElement>) {
  return <Field label={label} error={error} hint={hint} render={(a11y) => <input {...input} {...a11y} />} />;
}

export function TextAreaField({ label, error, hint, ...input }: FieldProps & React.TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field label={label} error={error} hint={hint} render={(a11y) => <textarea {...input} {...a11y} className={`${a11y.className} font-mono text-xs`} />} />
  );
}

export function SelectField({
  label,
  error,
  hint,
  children,
  ...select
}: FieldProps & { children: React.ReactNode } & React.SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      render={(a11y) => (
        <select {...select} {...a11y} className={`${a11y.className} bg-white`}>
          {children}
        </select>
      )}
    />
  );
}

export function CheckboxField({
  label,
  hint,
  error,
  ...input
}: { label: string; hint?: React.ReactNode; error?: string } & Omit<React.InputHTMLAttributes<HTMLInputElement>, "type">) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input id={id} type="checkbox" {...input} className="mt-1 h-4 w-4 shrink-0 accent-brand-600" />
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
        <FieldError id={`${id}-error`} error={error} />
      </div>
    </div>
  );
}

/** The save row of a settings form: its button and the last result; nothing for read-only viewers. */
export function FormActions({
  readOnly = false,
  pending,
  pendingLabel = "Saving…",
  message,
  children,
}: {
  readOnly?: boolean;
  pending: boolean;
  pendingLabel?: string;
  message: { tone: "ok" | "error"; text: string } | null;
  children: React.ReactNode;
}) {
  if (readOnly) return null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <SubmitButton pending={pending} pendingLabel={pendingLabel}>
        {children}
      </SubmitButton>
      <FormMessage message={message} />
    </div>
  );
}

function SubmitButton({ pending, children, pendingLabel }: { pending: boolean; children: React.ReactNode; pendingLabel: string }) {
  return (
    <button
      type="submit"
      disabled={pending}
      className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
    >
      {pending ? <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-white border-t-transparent" /> : null}
      {pending ? pendingLabel : children}
    </button>
  );
}

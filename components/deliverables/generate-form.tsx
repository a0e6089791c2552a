"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { type DataField, DataFieldInput, dataFieldsOf, dataValue, type TemplateVariable } from "./data-fields";
import { RichTextEditor } from "./rich-text-editor";

type Mime = "text" | "html" | "markdown" | "image";
const MIMES: Mime[] = ["text", "html", "markdown", "image"];

interface FieldState {
  placeholder: string;
  name: string;
  mimeType: Mime;
  text: string;
  disabled: boolean;
  /** null: a single value; an array: repeat the paragraph (or table row) once per entry. */
  stack: string[] | null;
}

function defaultMime(placeholder: string): Mime {
  if (placeholder.startsWith("{@")) return "html";
  if (placeholder.startsWith("{%")) return "image";
  return "text";
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function ValueInput({ field, value, onChange, id }: { field: FieldState; value: string; onChange: (v: string) => void; id: string }) {
  const label = `Value for ${field.placeholder}`;
  if (field.mimeType === "html") return <RichTextEditor id={id} label={label} value={value} onChange={onChange} />;
  if (field.mimeType === "image") {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <input
          id={id}
          aria-label={label}
          type="file"
          accept="image/png,image/jpeg,image/gif"
          onChange={async (e) => e.target.files?.[0] && onChange(await readAsDataUrl(e.target.files[0]))}
          className="text-sm"
        />
        {value.startsWith("data:image/") ? <img src={value} alt="" className="h-12 w-auto rounded border border-slate-200" /> : null}
        <input
          aria-label={`${label} (or an https URL)`}
          placeholder="…or an https:// image URL"
          value={value.startsWith("data:") ? "" : value}
          onChange={(e) => onChange(e.target.value)}
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm"
        />
      </div>
    );
  }
  return (
    <textarea
      id={id}
      aria-label={label}
      rows={field.mimeType === "markdown" ? 4 : 2}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className={`w-full rounded-md border border-slate-300 px-3 py-2 text-sm ${field.mimeType === "markdown" ? "font-mono" : ""}`}
    />
  );
}

/** Placeholders filled one by one: not sections, not a loop's own fields, not paths or expressions (those read JSON data). */
function plainPlaceholders(variables: TemplateVariable[]): TemplateVariable[] {
  return variables.filter(
    (v) => !/^\{[#^/]/.test(v.placeholder) && !v.loop && (v.kind === undefined || v.kind === "text" || v.kind === "html" || v.kind === "image"),
  );
}

export function GenerateForm({ template }: { template: { id: string; name: string; variables: TemplateVariable[] } }) {
  const router = useRouter();
  const [name, setName] = useState(`${template.name} ${new Date().toISOString().slice(0, 10)}`);
  const [description, setDescription] = useState("");
  const [tags, setTags] = useState("");
  const [fields, setFields] = useState<FieldState[]>(
    plainPlaceholders(template.variables).map((v) => ({
      placeholder: v.placeholder,
      name: v.name,
      mimeType: defaultMime(v.placeholder),
      text: "",
      disabled: false,
      stack: null,
    })),
  );
  const [data, setData] = useState<DataField[]>(() => dataFieldsOf(template.variables));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const update = (i: number, patch: Partial<FieldState>) => setFields((all) => all.map((f, j) => (j === i ? { ...f, ...patch } : f)));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setPending(true);
    setError(null);
    const variables = fields.map((f) =>
      f.disabled
        ? { placeholder: f.placeholder, mimeType: f.mimeType, isDisabled: true }
        : f.stack
          ? { placeholder: f.placeholder, mimeType: f.mimeType, variableStack: f.stack.map((text) => ({ text, mimeType: f.mimeType })) }
          : { placeholder: f.placeholder, mimeType: f.mimeType, text: f.text },
    );
    const values = data.map(dataValue);
    const invalid = values.find((v) => !v.ok);
    if (invalid && !invalid.ok) {
      setError(invalid.error);
      setPending(false);
      return;
    }
    data.forEach((d, i) => {
      const v = values[i];
      if (v.ok) variables.push({ placeholder: `{${d.name}}`, mimeType: "text", text: v.value });
    });
    try {
      const res = await fetch("/api/dashboard/deliverables", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name,
          description: description || undefined,
          templateId: template.id,
          variables,
          tags: tags
            .split(",")
            .map((t) => t.trim())
            .filter(Boolean),
        }),
      });
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new Error(body?.message ?? `Generation failed (HTTP ${res.status})`);
      router.push(`/deliverables/${body.data.results.deliverable.id}`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block">
          <span className="text-sm font-medium">Document name</span>
          <input
            required
            minLength={3}
            maxLength={255}
            value={name}
            onChange={(e) => setName(e.target.value)}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
          />
        </label>
        <label className="block">
          <span className="text-sm font-medium">Tags (comma-separated)</span>
          <input value={tags} onChange={(e) => setTags(e.target.value)} className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
        </label>
        <label className="block sm:col-span-2">
          <span className="text-sm font-medium">Description</span>
          <input value={description} onChange={(e) => setDescription(e.target.value)} className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
        </label>
      </div>
      <ul className="space-y-3">
        {fields.map((f, i) => (
          <li key={f.placeholder} className="rounded-lg border border-slate-200 bg-white p-3">
            <div className="mb-2 flex flex-wrap items-center gap-2">
              <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs">{f.placeholder}</code>
              <select
                aria-label={`Kind of ${f.placeholder}`}
                value={f.mimeType}
                onChange={(e) => update(i, { mimeType: e.target.value as Mime, text: "", stack: f.stack ? [""] : null })}
                className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
              >
                {MIMES.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
              <label className="flex items-center gap-1 text-sm">
                <input type="checkbox" checked={f.stack !== null} onChange={(e) => update(i, { stack: e.target.checked ? [f.text] : null })} /> repeat
              </label>
              <label className="flex items-center gap-1 text-sm">
                <input type="checkbox" checked={f.disabled} onChange={(e) => update(i, { disabled: e.target.checked })} /> skip
              </label>
            </div>
            {f.disabled ? null : f.stack ? (
              <div className="space-y-2">
                {f.stack.map((entry, k) => (
                  <div key={k} className="flex items-start gap-2">
                    <div className="min-w-0 flex-1">
                      <ValueInput
                        id={`${f.name}-${k}`}
                        field={f}
                        value={entry}
                        onChange={(v) => update(i, { stack: f.stack!.map((x, j) => (j === k ? v : x)) })}
                      />
                    </div>
                    <button
                      type="button"
                      aria-label={`Remove entry ${k + 1} of ${f.placeholder}`}
                      onClick={() => update(i, { stack: f.stack!.filter((_, j) => j !== k) })}
                      className="rounded border border-slate-300 px-2 py-1 text-sm"
                    >
                      ×
                    </button>
                  </div>
                ))}
                <button
                  type="button"
                  onClick={() => update(i, { stack: [...f.stack!, ""] })}
                  className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm"
                >
                  Add entry
                </button>
              </div>
            ) : (
              <ValueInput id={f.name} field={f} value={f.text} onChange={(v) => update(i, { text: v })} />
            )}
          </li>
        ))}
      </ul>
      {data.length ? (
        <section aria-labelledby="data-heading" className="space-y-3">
          <h2 id="data-heading" className="font-medium">
            Data for loops, conditions and calculations
          </h2>
          <ul className="space-y-3">
            {data.map((d, i) => (
              <li key={d.name} className="rounded-lg border border-slate-200 bg-white p-3">
                <div className="mb-2 flex flex-wrap items-center gap-2">
                  <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs">{`{${d.name}}`}</code>
                  <span className="text-xs text-slate-500">
                    {d.kind === "rows" ? "a list: the template repeats a row or paragraph for each item" : "JSON: an object, a list, true/false or a number"}
                  </span>
                </div>
                <DataFieldInput field={d} onChange={(next) => setData((all) => all.map((x, j) => (j === i ? next : x)))} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-5 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-70"
      >
        {pending ? <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-white border-t-transparent" /> : null}
        {pending ? "Generating document and PDF…" : "Generate"}
      </button>
    </form>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { type DataField, DataFieldInput, dataFieldsOf, dataValue, type TemplateVariable } from "./data-fields";
import { TableRowField } from "./table-row-field";
import { defaultMime, type FieldState, KIND_HINTS, readableName, ValueInput } from "./value-input";

/** Placeholders filled one by one: not sections, not a loop's own fields, not paths or expressions (those read JSON data). */
function plainPlaceholders(variables: TemplateVariable[]): TemplateVariable[] {
  return variables.filter(
    (v) => !/^\{[#^/]/.test(v.placeholder) && !v.loop && (v.kind === undefined || v.kind === "text" || v.kind === "html" || v.kind === "image"),
  );
}

/** The form's blocks in template order: a placeholder alone, or the placeholders of one table row together. */
function blocksOf(fields: FieldState[], rowGroups: string[][]): number[][] {
  const blocks: number[][] = [];
  const placed = new Set<number>();
  fields.forEach((f, i) => {
    if (placed.has(i)) return;
    const group = rowGroups.find((g) => g.includes(f.placeholder));
    const members = group ? fields.flatMap((x, j) => (group.includes(x.placeholder) && !placed.has(j) ? [j] : [])) : [i];
    for (const j of members) placed.add(j);
    blocks.push(members);
  });
  return blocks;
}

/** `rowGroups`: placeholders that share a table row (lib/templates/table-rows.ts), offered as one repeatable row. */
export function GenerateForm({ template, rowGroups = [] }: { template: { id: string; name: string; variables: TemplateVariable[] }; rowGroups?: string[][] }) {
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
  // Set when Generate was pressed with every field blank: the next press generates anyway.
  const [blankWarned, setBlankWarned] = useState(false);
  // Any edit answers the question: the warning goes until the next all-blank press.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs because fields or data changed, which it does not read
  useEffect(() => setBlankWarned(false), [fields, data]);

  const update = (i: number, patch: Partial<FieldState>) => setFields((all) => all.map((f, j) => (j === i ? { ...f, ...patch } : f)));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    const blank = (text: string) => text.replace(/<[^>]*>|&nbsp;/g, "").trim() === "";
    const allBlank =
      fields.every((f) => f.disabled || (f.stack ? f.stack.every(blank) : blank(f.text))) &&
      data.every((d) =>
        d.kind === "rows" ? d.rows.every((row) => Object.values(row).every(blank)) : blank(d.text.replace(/[{}[\]":,]|false|true|null/g, "")),
      );
    if (allBlank && !blankWarned) {
      setBlankWarned(true);
      return;
    }
    setPending(true);
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
        {blocksOf(fields, rowGroups).map((block) => {
          if (block.length > 1) {
            return (
              <li key={fields[block[0]].placeholder} className="rounded-lg border border-slate-200 bg-white p-3">
                <TableRowField
                  fields={block.map((j) => fields[j])}
                  onChange={(next) => setFields((all) => all.map((f, j) => (block.includes(j) ? next[block.indexOf(j)] : f)))}
                />
              </li>
            );
          }
          const i = block[0];
          const f = fields[i];
          return (
            <li key={f.placeholder} className="rounded-lg border border-slate-200 bg-white p-3">
              <div className="mb-2 flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <label htmlFor={f.stack ? `${f.name}-0` : f.name} className="text-sm font-medium">
                  {readableName(f.name)}
                </label>
                <span className="text-xs text-slate-500">
                  <code className="font-mono">{f.placeholder}</code> · {KIND_HINTS[f.mimeType]}
                </span>
                <span className="ml-auto flex flex-wrap gap-3">
                  <label className="flex items-center gap-1 text-sm">
                    <input type="checkbox" checked={f.stack !== null} onChange={(e) => update(i, { stack: e.target.checked ? [f.text] : null })} /> Repeat
                  </label>
                  <label className="flex items-center gap-1 text-sm">
                    <input type="checkbox" checked={f.disabled} onChange={(e) => update(i, { disabled: e.target.checked })} /> Leave out
                  </label>
                </span>
              </div>
              {f.disabled ? null : f.stack ? (
                <div className="space-y-2">
                  {f.stack.map((entry, k) => (
                    <div key={k} className="flex items-start gap-2">
                      <div className="min-w-0 flex-1">
                        <ValueInput
                          id={`${f.name}-${k}`}
                          label={`${readableName(f.name)}, entry ${k + 1}`}
                          field={f}
                          value={entry}
                          onChange={(v) => update(i, { stack: f.stack!.map((x, j) => (j === k ? v : x)) })}
                        />
                      </div>
                      <button
                        type="button"
                        aria-label={`Remove entry ${k + 1} of ${readableName(f.name)}`}
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
                <ValueInput id={f.name} label={readableName(f.name)} field={f} value={f.text} onChange={(v) => update(i, { text: v })} />
              )}
            </li>
          );
        })}
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
      {blankWarned && !error ? (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          Every field is blank, so the document will have empty gaps where its placeholders are. Fill some in, or press Generate anyway.
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-5 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-70"
      >
        {pending ? <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-white border-t-transparent" /> : null}
        {pending ? "Generating document and PDF…" : blankWarned ? "Generate anyway" : "Generate"}
      </button>
    </form>
  );
}

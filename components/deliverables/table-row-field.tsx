"use client";
// Placeholders that share one table row of the template (an item's name, quantity and price): one
// block with one "Repeat row" choice; repeated, each entry is a whole row with an input per column,
// sent as equally long variableStacks so the row is copied once per entry.
import { type FieldState, KIND_HINTS, readableName, ValueInput } from "./value-input";

export function TableRowField({ fields, onChange }: { fields: FieldState[]; onChange: (fields: FieldState[]) => void }) {
  const repeated = fields[0].stack !== null;
  const rows = repeated ? Math.max(...fields.map((f) => f.stack?.length ?? 0)) : 0;
  const names = fields.map((f) => readableName(f.name)).join(", ");
  const setCell = (i: number, k: number, value: string) =>
    onChange(fields.map((f, j) => (j === i ? { ...f, stack: (f.stack ?? []).map((x, n) => (n === k ? value : x)) } : f)));
  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-medium">Table row: {names}</legend>
      <div className="mt-1 flex flex-wrap items-center gap-3">
        <span className="text-xs text-slate-500">These placeholders sit in one row of a table.</span>
        <label className="ml-auto flex items-center gap-1 text-sm">
          <input type="checkbox" checked={repeated} onChange={(e) => onChange(fields.map((f) => ({ ...f, stack: e.target.checked ? [f.text] : null })))} />{" "}
          Repeat row
        </label>
      </div>
      {repeated ? (
        <ol className="mt-2 space-y-2" aria-label={`Rows of ${names}`}>
          {Array.from({ length: rows }, (_, k) => (
            <li key={k} className="flex flex-wrap items-end gap-2 rounded-md border border-slate-200 p-2">
              {fields.map((f, i) => (
                <div key={f.placeholder} className="min-w-0 flex-1 basis-40">
                  <ValueInput
                    id={`${f.name}-${k}`}
                    label={`${readableName(f.name)}, row ${k + 1}`}
                    field={f}
                    value={f.stack?.[k] ?? ""}
                    onChange={(v) => setCell(i, k, v)}
                  />
                </div>
              ))}
              <button
                type="button"
                aria-label={`Remove row ${k + 1}`}
                onClick={() => onChange(fields.map((f) => ({ ...f, stack: (f.stack ?? []).filter((_, n) => n !== k) })))}
                className="rounded border border-slate-300 px-2 py-1 text-sm"
              >
                ×
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              onClick={() => onChange(fields.map((f) => ({ ...f, stack: [...(f.stack ?? []), ""] })))}
              className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm"
            >
              Add row
            </button>
          </li>
        </ol>
      ) : (
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {fields.map((f, i) => (
            <div key={f.placeholder} className="min-w-0">
              <p className="mb-1 text-xs text-slate-500">
                <code className="font-mono">{f.placeholder}</code> · {KIND_HINTS[f.mimeType]}
              </p>
              <ValueInput
                id={f.name}
                label={readableName(f.name)}
                field={f}
                value={f.text}
                onChange={(v) => onChange(fields.map((x, j) => (j === i ? { ...x, text: v } : x)))}
              />
            </div>
          ))}
        </div>
      )}
    </fieldset>
  );
}

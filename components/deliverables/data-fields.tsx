"use client";
// Inputs for the JSON data of advanced placeholders (docs/contract.md "Advanced templating"): a loop
// whose fields are plain names gets repeatable rows, one input per field; any other data (an object
// read by dot paths, a flag read by a condition, a number in an expression) gets a JSON editor
// checked as you type.
import { useId } from "react";

export interface TemplateVariable {
  placeholder: string;
  name: string;
  kind?: string;
  data?: string[];
  fields?: string[];
  loop?: string;
}

export type DataField = { kind: "rows"; name: string; columns: string[]; rows: Record<string, string>[] } | { kind: "json"; name: string; text: string };

const IDENT = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;
const KEYWORDS = new Set(["true", "false", "null", "undefined", "this"]);
const PATHS = /[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*/gu;

/** Top-level data names the form must ask for, in the template's order (as the server decides them). */
export function dataFieldsOf(variables: TemplateVariable[]): DataField[] {
  const plain = new Set(variables.filter((v) => v.kind === "text" && !v.loop).map((v) => v.placeholder));
  const names = [...new Set(variables.flatMap((v) => (v.loop ? [] : (v.data ?? []))))].filter((n) => !plain.has(`{${n}}`));
  return names.map((name) => {
    const loop = variables.find((v) => v.kind === "loop" && v.name === name && !v.loop);
    // The names the loop's tags read from each item: {description}, and quantity and unitPrice in {quantity * unitPrice | fixed:2}.
    const columns = [...new Set((loop?.fields ?? []).flatMap((f) => (f.split("|")[0].match(PATHS) ?? []).map((p) => p.split(".")[0])))].filter(
      (c) => IDENT.test(c) && !KEYWORDS.has(c),
    );
    if (loop && columns.length) return { kind: "rows", name, columns, rows: [Object.fromEntries(columns.map((c) => [c, ""]))] };
    return { kind: "json", name, text: JSON.stringify(skeleton(name, variables), null, 2) };
  });
}

/** An example value with every path the template reads, so people fill in blanks instead of guessing. */
function skeleton(name: string, variables: TemplateVariable[]): unknown {
  const reads = variables.filter((v) => !v.loop && v.data?.includes(name));
  if (reads.every((v) => v.kind === "condition")) return false;
  const paths = reads.flatMap((v) =>
    (v.name.split("|")[0].match(PATHS) ?? []).filter((p) => p.startsWith(`${name}.`)).map((p) => p.slice(name.length + 1).split(".")),
  );
  if (!paths.length) return "";
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    let node = root;
    path.forEach((key, i) => {
      if (i === path.length - 1) node[key] ??= "";
      else node = (node[key] = typeof node[key] === "object" && node[key] !== null ? node[key] : {}) as Record<string, unknown>;
    });
  }
  return root;
}

/** A cell's text as JSON: numbers and true/false as such, everything else as text. */
function cellValue(text: string): unknown {
  const t = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t === "true" || t === "false") return t === "true";
  return text;
}

/** The JSON a field sends, or the reason it cannot be sent. */
export function dataValue(field: DataField): { ok: true; value: string } | { ok: false; error: string } {
  if (field.kind === "rows")
    return { ok: true, value: JSON.stringify(field.rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, cellValue(v)])))) };
  try {
    return { ok: true, value: JSON.stringify(JSON.parse(field.text)) };
  } catch (err) {
    return { ok: false, error: `{${field.name}} is not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function DataFieldInput({ field, onChange }: { field: DataField; onChange: (field: DataField) => void }) {
  const id = useId();
  if (field.kind === "json") {
    const check = dataValue(field);
    return (
      <div>
        <textarea
          id={id}
          aria-label={`JSON for {${field.name}}`}
          aria-invalid={!check.ok}
          aria-describedby={`${id}-status`}
          rows={Math.min(12, Math.max(2, field.text.split("\n").length))}
          spellCheck={false}
          value={field.text}
          onChange={(e) => onChange({ ...field, text: e.target.value })}
          className={`w-full rounded-md border px-3 py-2 font-mono text-sm ${check.ok ? "border-slate-300" : "border-red-400"}`}
        />
        <p id={`${id}-status`} role="status" className={`mt-1 text-xs ${check.ok ? "text-slate-500" : "text-red-700"}`}>
          {check.ok ? "Valid JSON" : check.error}
        </p>
      </div>
    );
  }
  const setCell = (r: number, column: string, value: string) =>
    onChange({ ...field, rows: field.rows.map((row, i) => (i === r ? { ...row, [column]: value } : row)) });
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-500">One row per item; numbers are sent as numbers.</p>
      <ol className="space-y-2" aria-label={`Rows of {${field.name}}`}>
        {field.rows.map((row, r) => (
          <li key={r} className="flex flex-wrap items-end gap-2 rounded-md border border-slate-200 p-2">
            {field.columns.map((column) => (
              <label key={column} className="min-w-0 flex-1 basis-28">
                <span className="block text-xs text-slate-600">{column}</span>
                <input
                  aria-label={`${column} of ${field.name} row ${r + 1}`}
                  value={row[column] ?? ""}
                  onChange={(e) => setCell(r, column, e.target.value)}
                  className="w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
                />
              </label>
            ))}
            <button
              type="button"
              aria-label={`Remove row ${r + 1} of ${field.name}`}
              onClick={() => onChange({ ...field, rows: field.rows.filter((_, i) => i !== r) })}
              className="rounded border border-slate-300 px-2 py-1 text-sm"
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        onClick={() => onChange({ ...field, rows: [...field.rows, Object.fromEntries(field.columns.map((c) => [c, ""]))] })}
        className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm"
      >
        Add row to {field.name}
      </button>
    </div>
  );
}

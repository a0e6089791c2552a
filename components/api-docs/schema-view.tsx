// Renders a JSON Schema of the OpenAPI document as a compact, phone-friendly list of fields:
// inline objects are flattened into dotted names, components show as links to their own section.
import type { oas31 } from "zod-openapi";

type Schema = oas31.SchemaObject | oas31.ReferenceObject;

const REF = "#/components/schemas/";

export function refName(schema: Schema): string | null {
  return "$ref" in schema && typeof schema.$ref === "string" && schema.$ref.startsWith(REF) ? schema.$ref.slice(REF.length) : null;
}

export const schemaAnchor = (name: string) => `schema-${name}`;

function SchemaLink({ name }: { name: string }) {
  return (
    <a href={`#${schemaAnchor(name)}`} className="font-mono text-brand-700 hover:underline">
      {name}
    </a>
  );
}

/** A short type label: string (uuid), integer ≥ 1, "a" | "b", array of Tag, Tag | null … */
export function TypeLabel({ schema }: { schema: Schema }) {
  const ref = refName(schema);
  if (ref) return <SchemaLink name={ref} />;
  const s = schema as oas31.SchemaObject;
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    return (
      <>
        {variants.map((v, i) => (
          <span key={i}>
            {i > 0 ? " | " : null}
            <TypeLabel schema={v} />
          </span>
        ))}
      </>
    );
  }
  if (s.const !== undefined) return <span className="font-mono">{JSON.stringify(s.const)}</span>;
  if (s.enum) return <span className="font-mono">{s.enum.map((e) => JSON.stringify(e)).join(" | ")}</span>;
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.includes("array") && s.items) {
    return (
      <>
        array of <TypeLabel schema={s.items as Schema} />
      </>
    );
  }
  if (types.includes("object") && !s.properties && s.additionalProperties && typeof s.additionalProperties === "object") {
    return (
      <>
        map of <TypeLabel schema={s.additionalProperties as Schema} />
      </>
    );
  }
  if (!types.length) return <span>any</span>;
  const format = s.format ?? (s.contentMediaType ? `file: ${s.contentMediaType}` : undefined);
  const limits = [
    s.minimum !== undefined && s.minimum > Number.MIN_SAFE_INTEGER ? `≥ ${s.minimum}` : null,
    s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER ? `≤ ${s.maximum}` : null,
    s.minLength ? `${s.minLength}+ chars` : null,
    s.maxLength !== undefined ? `≤ ${s.maxLength} chars` : null,
  ].filter(Boolean);
  return (
    <span>
      {types.join(" | ")}
      {format ? ` (${format})` : ""}
      {limits.length ? <span className="text-slate-500"> {limits.join(", ")}</span> : null}
    </span>
  );
}

interface Row {
  name: string;
  schema: Schema;
  required: boolean;
  depth: number;
}

/** Inline objects become dotted rows (data.results); a component stays one row, linked. */
function rows(schema: Schema, prefix: string, depth: number, out: Row[]): Row[] {
  if (refName(schema) || depth > 4) return out;
  const s = schema as oas31.SchemaObject;
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const full = prefix ? `${prefix}.${name}` : name;
    out.push({ name: full, schema: prop, required: s.required?.includes(name) ?? false, depth });
    const inner = prop as oas31.SchemaObject;
    if (!refName(prop) && inner.properties) rows(prop, full, depth + 1, out);
    else if (!refName(prop) && inner.items && !refName(inner.items as Schema) && (inner.items as oas31.SchemaObject).properties)
      rows(inner.items as Schema, `${full}[]`, depth + 1, out);
  }
  return out;
}

function description(schema: Schema): string | undefined {
  return (schema as oas31.SchemaObject).description;
}

/** The fields of a schema; a schema with no fields of its own shows its type. */
export function SchemaView({ schema }: { schema: Schema }) {
  const list = rows(schema, "", 0, []);
  if (!list.length) {
    return (
      <p className="text-sm">
        <TypeLabel schema={schema} />
        {description(schema) ? <span className="text-slate-600"> — {description(schema)}</span> : null}
      </p>
    );
  }
  return (
    <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm">
      {list.map((r) => (
        <li key={r.name} className="px-3 py-1.5" style={{ paddingLeft: `${0.75 + r.depth * 0.75}rem` }}>
          <div className="flex flex-wrap items-baseline gap-x-2">
            <code className="break-all font-mono text-slate-900">{r.name}</code>
            <span className="text-xs text-slate-600">
              <TypeLabel schema={r.schema} />
            </span>
            {r.required ? <span className="text-xs font-medium text-red-700">required</span> : null}
          </div>
          {description(r.schema) ? <p className="text-xs text-slate-500">{description(r.schema)}</p> : null}
        </li>
      ))}
    </ul>
  );
}

/** The schema as JSON, folded away. */
export function RawSchema({ schema }: { schema: unknown }) {
  return (
    <details className="mt-2">
      <summary className="cursor-pointer text-xs text-slate-500">JSON Schema</summary>
      <pre className="mt-1 max-h-80 overflow-auto rounded bg-slate-900 p-3 font-mono text-xs text-slate-100">{JSON.stringify(schema, null, 2)}</pre>
    </details>
  );
}

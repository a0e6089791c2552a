// One operation of the OpenAPI document: a folded <details> whose summary line is the method,
// path and summary; unfolded, its parameters, request body and responses.
import type { oas31 } from "zod-openapi";
import { Badge } from "@/components/ui";
import { RawSchema, SchemaView, TypeLabel } from "@/components/api-docs/schema-view";
import { TryIt } from "@/components/api-docs/try-it";
import { CopyButton } from "@/components/copy-button";
import type { OperationExample } from "@/lib/openapi/examples";

const METHOD_TONES: Record<string, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-emerald-100 text-emerald-800",
  put: "bg-amber-100 text-amber-800",
  patch: "bg-amber-100 text-amber-800",
  delete: "bg-red-100 text-red-800",
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={`inline-flex w-16 shrink-0 justify-center rounded px-1.5 py-0.5 font-mono text-xs font-semibold uppercase ${METHOD_TONES[method] ?? "bg-slate-100 text-slate-700"}`}
    >
      {method}
    </span>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="mt-4">
      <h4 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h4>
      {children}
    </div>
  );
}

function Content({ content }: { content: Record<string, oas31.MediaTypeObject> }) {
  return (
    <>
      {Object.entries(content).map(([type, media]) => (
        <div key={type} className="mt-2">
          <p className="mb-1 font-mono text-xs text-slate-500">{type}</p>
          {media.schema ? (
            <>
              <SchemaView schema={media.schema} />
              <RawSchema schema={media.schema} />
            </>
          ) : null}
        </div>
      ))}
    </>
  );
}

function statusTone(status: string): "green" | "red" | "slate" {
  return status.startsWith("2") ? "green" : status.startsWith("4") || status.startsWith("5") ? "red" : "slate";
}

export function OperationView({
  method,
  path,
  op,
  example,
  orgId,
}: {
  method: string;
  path: string;
  op: oas31.OperationObject;
  example: OperationExample;
  orgId: string;
}) {
  const params = (op.parameters ?? []) as oas31.ParameterObject[];
  const body = op.requestBody as oas31.RequestBodyObject | undefined;
  const responses = Object.entries(op.responses ?? {}) as [string, oas31.ResponseObject][];
  return (
    <details id={op.operationId} data-testid="operation" className="group rounded-lg border border-slate-200 bg-white shadow-sm">
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2.5 sm:px-4">
        <MethodBadge method={method} />
        <code className="min-w-0 break-all font-mono text-sm font-medium text-slate-900">{path}</code>
        <span className="basis-full text-sm text-slate-600 sm:basis-auto">{op.summary}</span>
        {op.deprecated ? <Badge tone="red">deprecated</Badge> : null}
      </summary>
      <div className="border-t border-slate-100 px-3 pb-4 sm:px-4">
        {op.description
          ? op.description.split("\n\n").map((p, i) => (
              <p key={i} className="mt-3 text-sm text-slate-700">
                {p}
              </p>
            ))
          : null}
        {params.length ? (
          <Section title="Parameters">
            <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm">
              {params.map((p) => (
                <li key={`${p.in}-${p.name}`} className="px-3 py-1.5">
                  <div className="flex flex-wrap items-baseline gap-x-2">
                    <code className="font-mono text-slate-900">{p.name}</code>
                    <span className="text-xs text-slate-500">{p.in}</span>
                    {p.schema ? (
                      <span className="text-xs text-slate-600">
                        <TypeLabel schema={p.schema} />
                      </span>
                    ) : null}
                    {p.required ? <span className="text-xs font-medium text-red-700">required</span> : null}
                    {p.schema && "default" in p.schema && p.schema.default !== undefined ? (
                      <span className="text-xs text-slate-500">default {JSON.stringify(p.schema.default)}</span>
                    ) : null}
                  </div>
                  {p.description ? <p className="text-xs text-slate-500">{p.description}</p> : null}
                </li>
              ))}
            </ul>
          </Section>
        ) : null}
        {body ? (
          <Section title={`Request body${body.required ? "" : " (optional)"}`}>
            <Content content={body.content} />
          </Section>
        ) : null}
        <Section title="Example">
          <div className="flex items-start gap-2">
            <pre className="min-w-0 flex-1 overflow-x-auto rounded bg-slate-900 p-3 font-mono text-xs text-slate-100">{example.curl}</pre>
            <CopyButton value={example.curl} small name={`Copy the example of ${method.toUpperCase()} ${path}`} />
          </div>
        </Section>
        <Section title="Try it">
          <TryIt
            method={method}
            path={path}
            orgId={orgId}
            params={params
              .filter((p) => p.in === "path" || p.in === "query")
              .map((p) => ({ name: p.name, in: p.in as "path" | "query", required: Boolean(p.required) }))}
            jsonBody={example.jsonBody}
            upload={example.formFields.length > 0}
          />
        </Section>
        <Section title="Responses">
          <div className="space-y-3">
            {responses.map(([status, res]) => (
              <div key={status}>
                <p className="flex flex-wrap items-center gap-2 text-sm">
                  <Badge tone={statusTone(status)}>{status}</Badge>
                  <span className="text-slate-700">{res.description}</span>
                </p>
                {res.headers ? (
                  <p className="mt-1 text-xs text-slate-500">
                    Headers:{" "}
                    {Object.keys(res.headers).map((h, i) => (
                      <code key={h} className="font-mono">
                        {i ? `, ${h}` : h}
                      </code>
                    ))}
                  </p>
                ) : null}
                {res.content ? <Content content={res.content} /> : null}
              </div>
            ))}
          </div>
        </Section>
      </div>
    </details>
  );
}

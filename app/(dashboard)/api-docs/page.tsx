import type { Metadata } from "next";
import type { oas31 } from "zod-openapi";
import { MethodBadge, OperationView } from "@/components/api-docs/operation-view";
import { RawSchema, SchemaView, schemaAnchor } from "@/components/api-docs/schema-view";
import { Card, PageHeader } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { getConfig } from "@/lib/config";
import { openApiDocument } from "@/lib/openapi/document";
import { operationExample } from "@/lib/openapi/examples";

export const metadata: Metadata = { title: "API reference" };

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

// The same document GET /api/openapi.json serves, rendered for reading: operations by tag, each
// folded until opened, then the shared schemas.
export default async function ApiDocsPage() {
  const { org } = await requireDashboard();
  const { baseUrl } = getConfig();
  const doc = openApiDocument(baseUrl) as oas31.OpenAPIObject;
  const ops = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as oas31.OperationObject })),
  );
  const schemas = Object.entries(doc.components?.schemas ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <>
      <PageHeader
        title="API reference"
        description={`${doc.info.title} ${doc.info.version}: every REST operation, generated from the schemas the server validates with.`}
      >
        <a
          href="/api/openapi.json"
          target="_blank"
          rel="noopener"
          className="inline-flex w-fit items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-brand-700 hover:bg-slate-50"
        >
          OpenAPI JSON
        </a>
      </PageHeader>
      <Card className="mb-6">
        <h2 className="font-medium">Calling the API</h2>
        <p className="mt-1 text-sm text-slate-600">
          Base URL <code className="break-all font-mono">{baseUrl}</code>. Send <code className="font-mono">Authorization: Bearer &lt;API key&gt;</code> and{" "}
          <code className="break-all font-mono">x-service-org-id: {org.id}</code> with every request but the public ones. Import{" "}
          <a href="/api/openapi.json" className="text-brand-700 hover:underline">
            /api/openapi.json
          </a>{" "}
          into an HTTP client or a code generator.
        </p>
        <nav aria-label="API sections" className="mt-3 flex flex-wrap gap-2 text-sm">
          {(doc.tags ?? []).map((t) => (
            <a key={t.name} href={`#tag-${t.name}`} className="rounded-md bg-slate-100 px-2.5 py-1 text-slate-700 hover:bg-slate-200">
              {t.name}
            </a>
          ))}
          <a href="#schemas" className="rounded-md bg-slate-100 px-2.5 py-1 text-slate-700 hover:bg-slate-200">
            Schemas
          </a>
        </nav>
      </Card>
      {(doc.tags ?? []).map((tag) => (
        <section key={tag.name} id={`tag-${tag.name}`} aria-labelledby={`tag-${tag.name}-title`} className="mb-8">
          <h2 id={`tag-${tag.name}-title`} className="text-lg font-semibold">
            {tag.name}
          </h2>
          {tag.description ? <p className="mb-3 text-sm text-slate-600">{tag.description}</p> : null}
          <div className="space-y-2">
            {ops
              .filter(({ op }) => op.tags?.includes(tag.name))
              .map(({ path, method, op }) => (
                <OperationView
                  key={`${method} ${path}`}
                  method={method}
                  path={path}
                  op={op}
                  orgId={org.id}
                  example={operationExample(doc, baseUrl, org.id, method, path, op)}
                />
              ))}
          </div>
        </section>
      ))}
      {doc.webhooks ? (
        <section id="webhook-calls" className="mb-8">
          <h2 className="text-lg font-semibold">Webhook calls</h2>
          <p className="mb-3 text-sm text-slate-600">What Quire posts to your receivers.</p>
          <div className="space-y-2">
            {Object.entries(doc.webhooks).map(([event, item]) => (
              <div key={event} className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2.5 text-sm shadow-sm sm:px-4">
                <MethodBadge method="post" />
                <code className="break-all font-mono">{event}</code>
                <span className="text-slate-600">{(item as oas31.PathItemObject).post?.summary}</span>
              </div>
            ))}
          </div>
        </section>
      ) : null}
      <section id="schemas" className="mb-8">
        <h2 className="text-lg font-semibold">Schemas</h2>
        <div className="mt-3 space-y-2">
          {schemas.map(([name, schema]) => (
            <details key={name} id={schemaAnchor(name)} className="rounded-lg border border-slate-200 bg-white px-3 py-2.5 shadow-sm sm:px-4">
              <summary className="cursor-pointer font-mono text-sm font-medium">{name}</summary>
              <div className="mt-2">
                <SchemaView schema={schema} />
                <RawSchema schema={schema} />
              </div>
            </details>
          ))}
        </div>
      </section>
    </>
  );
}

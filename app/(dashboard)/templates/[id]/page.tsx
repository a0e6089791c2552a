import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { TemplateDoctor } from "@/components/templates/template-doctor";
import { TemplateEditor } from "@/components/templates/template-editor";
import { TemplatePages } from "@/components/templates/template-pages";
import { Badge, Card, PageHeader, formatDate } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { SENDERS, WRITERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { folderPath, listFolderPaths } from "@/lib/templates/folders";
import { getTemplate } from "@/lib/templates/templates";

export const metadata: Metadata = { title: "Template" };

export default async function TemplatePage({ params }: { params: Promise<{ id: string }> }) {
  const { org, role } = await requireDashboard();
  const { id } = await params;
  const client = await db();
  const template = await getTemplate(client, org.id, id).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  const [path, folders] = await Promise.all([
    template.templateFolderId ? folderPath(client, org.id, template.templateFolderId) : [],
    listFolderPaths(client, org.id),
  ]);
  const kind = template.fileType.includes("presentation") ? "PowerPoint (PPTX)" : "Word (DOCX)";
  return (
    <>
      <nav aria-label="Breadcrumbs" className="mb-2 flex flex-wrap gap-1 text-sm">
        <Link href="/templates" className="text-brand-700 hover:underline">
          All templates
        </Link>
        {path.map((p) => (
          <span key={p.id} className="flex gap-1">
            <span className="text-slate-400">/</span>
            <Link href={`/templates?folder=${p.id}`} className="text-brand-700 hover:underline">
              {p.name}
            </Link>
          </span>
        ))}
      </nav>
      <PageHeader title={template.name} description={template.description || undefined}>
        {WRITERS.includes(role) ? (
          <Link
            href={`/deliverables/new?templateId=${template.id}`}
            className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
          >
            Generate
          </Link>
        ) : null}
      </PageHeader>
      <div className="grid gap-4 lg:grid-cols-[1fr_22rem]">
        <Card>
          <h2 className="mb-1 font-medium">Placeholders ({template.variables.length})</h2>
          <p className="mb-3 text-sm text-slate-600">Each becomes a variable when you generate a document.</p>
          {template.variables.length ? (
            <ul className="flex flex-wrap gap-2" aria-label="Placeholders">
              {template.variables.map((v) => (
                <li key={v.placeholder} className="flex items-center gap-1">
                  <code className="rounded bg-slate-100 px-2 py-1 font-mono text-sm">{v.placeholder}</code>
                  {v.kind !== "text" ? <span className="text-xs text-slate-500">{v.kind}</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">No placeholders: documents made from it are copies.</p>
          )}
          <TemplateDoctor templateId={template.id} />
          <h2 className="mt-6 mb-2 font-medium">Preview</h2>
          <TemplatePages templateId={template.id} name={template.name} />
          <dl className="mt-6 grid grid-cols-2 gap-2 text-sm">
            <dt className="text-slate-500">Kind</dt>
            <dd>{kind}</dd>
            <dt className="text-slate-500">Size</dt>
            <dd>{Math.max(1, Math.round(template.fileSize / 1024))} KB</dd>
            <dt className="text-slate-500">Created</dt>
            <dd>
              {formatDate(new Date(template.createdOn))} by {template.email}
            </dd>
            <dt className="text-slate-500">Documents made</dt>
            <dd>{template.deliverableCount}</dd>
            <dt className="text-slate-500">Tags</dt>
            <dd className="flex flex-wrap gap-1">
              {template.tags.length
                ? template.tags.map((t) => (
                    <Badge key={t.id} tone="blue">
                      {t.label}
                    </Badge>
                  ))
                : "none"}
            </dd>
          </dl>
        </Card>
        {SENDERS.includes(role) ? (
          // Its own height, not the preview column's (a tall empty box beside the preview otherwise).
          <Card className="lg:self-start">
            <TemplateEditor
              template={{
                id: template.id,
                name: template.name,
                description: template.description,
                folderId: template.templateFolderId,
                tags: template.tags.map((t) => t.label),
              }}
              folders={folders}
            />
          </Card>
        ) : null}
      </div>
    </>
  );
}

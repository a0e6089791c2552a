import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { GenerateForm } from "@/components/deliverables/generate-form";
import { Card, PageHeader } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { db } from "@/lib/db/client";
import { sql } from "@/lib/db/sql";
import { listTemplateItems } from "@/lib/templates/listing";
import { storedTemplateRowGroups } from "@/lib/templates/table-rows";
import { getTemplate } from "@/lib/templates/templates";
import { fileStorage } from "@/lib/storage";
import { NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

export const metadata: Metadata = { title: "Generate a document" };

export default async function NewDeliverablePage({ searchParams }: { searchParams: Promise<{ templateId?: string; q?: string }> }) {
  const { org } = await requireDashboard();
  const { templateId, q } = await searchParams;
  const client = await db();
  if (templateId) {
    // An unknown, deleted or malformed id is a missing page, as for the other detail pages.
    if (!isUuid(templateId)) notFound();
    const template = await getTemplate(client, org.id, templateId).catch((err) => {
      if (err instanceof NotFoundError) notFound();
      throw err;
    });
    const rowGroups = await storedTemplateRowGroups(client, fileStorage(), org.id, template.id);
    return (
      <>
        <PageHeader title={`Generate from “${template.name}”`} description="Fill in the placeholders. The PDF is made at the same time." />
        <Card>
          <GenerateForm template={{ id: template.id, name: template.name, variables: template.variables }} rowGroups={rowGroups} />
        </Card>
      </>
    );
  }
  const { results } = await listTemplateItems(await sql(), org.id, {
    limit: 50,
    offset: 0,
    query: q || undefined,
    selectedTags: [],
    showTags: false,
    type: "template",
    column0: "updatedOn",
    order0: "desc",
  });
  return (
    <>
      <PageHeader title="Generate a document" description="Choose a template." />
      <search className="mb-4 block">
        <form className="flex gap-2">
          <input
            name="q"
            defaultValue={q}
            aria-label="Search templates"
            placeholder="Search templates"
            className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2"
          />
          <button type="submit" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium">
            Search
          </button>
        </form>
      </search>
      <ul className="grid gap-3 sm:grid-cols-2">
        {results.map((t) => (
          <li key={t.id}>
            <Link href={`/deliverables/new?templateId=${t.id}`} className="block rounded-lg border border-slate-200 bg-white p-4 hover:border-brand-600">
              <span className="font-medium">{t.name}</span>
              <span className="mt-1 block text-xs text-slate-500">{t.fileType?.includes("presentation") ? "PowerPoint" : "Word"}</span>
            </Link>
          </li>
        ))}
        {results.length === 0 ? <li className="text-slate-500">No templates found.</li> : null}
      </ul>
    </>
  );
}

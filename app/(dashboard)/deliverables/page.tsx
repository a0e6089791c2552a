import type { Metadata } from "next";
import Link from "next/link";
import { Pager } from "@/components/pager";
import { TagFilter } from "@/components/templates/tag-filter";
import { DataTable, PageHeader, SearchForm, formatDate } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { db } from "@/lib/db/client";
import { listDeliverables } from "@/lib/deliverables/list";
import { sql } from "@/lib/db/sql";
import { listTags } from "@/lib/tags/tags";
import { pageLinks, pageOf, tagIdsOf } from "@/lib/dashboard/list-params";

export const metadata: Metadata = { title: "Deliverables" };

const PAGE_SIZE = 12;

type Search = { q?: string; tag?: string | string[]; page?: string };

export default async function DeliverablesPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { org } = await requireDashboard();
  const params = await searchParams;
  const page = pageOf(params.page);
  const selectedTags = tagIdsOf(params.tag);
  const client = await db();
  const [{ results, totalRecords }, tags] = await Promise.all([
    listDeliverables(await sql(), org.id, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, query: params.q || undefined, showTags: true, selectedTags }),
    listTags(client, org.id),
  ]);
  const pageLink = pageLinks("/deliverables", { q: params.q, tag: selectedTags });
  return (
    <>
      <PageHeader title="Deliverables" description="Documents generated from your templates, each with its PDF.">
        <Link href="/deliverables/new" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
          Generate a document
        </Link>
      </PageHeader>
      <SearchForm
        label="Search by name"
        defaultValue={params.q}
        placeholder="e.g. contract"
        after={tags.length ? <TagFilter tags={tags} selected={selectedTags} /> : null}
      />
      <DataTable
        minWidth="34rem"
        columns={["Name", "Tags", "Size", "Created"]}
        empty={results.length ? null : params.q || selectedTags.length ? "Nothing matches." : "No deliverables yet: generate one from a template."}
      >
        {results.map((d) => (
          <tr key={d.id} className="border-b border-slate-100 last:border-0">
            <td className="px-4 py-2">
              <Link href={`/deliverables/${d.id}`} className="font-medium text-brand-700 hover:underline">
                {d.name}
              </Link>
            </td>
            <td className="px-4 py-2 text-slate-600">{d.tags?.map((t) => t.label).join(", ")}</td>
            <td className="px-4 py-2 text-slate-600">{Math.max(1, Math.round(d.fileSize / 1024))} KB</td>
            <td className="px-4 py-2 text-slate-600">{formatDate(new Date(d.createdOn))}</td>
          </tr>
        ))}
      </DataTable>
      <Pager page={page} pageSize={PAGE_SIZE} total={totalRecords} href={pageLink} />
    </>
  );
}

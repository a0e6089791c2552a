import type { Metadata } from "next";
import Link from "next/link";
import { Pager } from "@/components/pager";
import { TagFilter } from "@/components/templates/tag-filter";
import { Card, DataTable, PageHeader, formatDate } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { db } from "@/lib/db/client";
import { listDeliverables } from "@/lib/deliverables/list";
import { sql } from "@/lib/db/sql";
import { listTags } from "@/lib/tags/tags";
import { isUuid } from "@/lib/ids";

export const metadata: Metadata = { title: "Deliverables" };

const PAGE_SIZE = 12;

type Search = { q?: string; tag?: string | string[]; page?: string };

export default async function DeliverablesPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { org } = await requireDashboard();
  const params = await searchParams;
  const page = Math.max(1, Number(params.page) || 1);
  const selectedTags = (Array.isArray(params.tag) ? params.tag : params.tag ? [params.tag] : []).filter((t) => isUuid(t));
  const client = await db();
  const [{ results, totalRecords }, tags] = await Promise.all([
    listDeliverables(await sql(), org.id, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, query: params.q || undefined, showTags: true, selectedTags }),
    listTags(client, org.id),
  ]);
  const pageLink = (p: number) => {
    const q = new URLSearchParams();
    if (params.q) q.set("q", params.q);
    for (const t of selectedTags) q.append("tag", t);
    q.set("page", String(p));
    return `/deliverables?${q}`;
  };
  return (
    <>
      <PageHeader title="Deliverables" description="Documents generated from your templates, each with its PDF.">
        <Link href="/deliverables/new" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
          Generate a document
        </Link>
      </PageHeader>
      <form className="mb-4 flex flex-wrap items-end gap-3" role="search">
        <label className="min-w-[12rem] flex-1">
          <span className="text-sm font-medium">Search by name</span>
          <input name="q" defaultValue={params.q} placeholder="e.g. contract" className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
        </label>
        <button className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50">Apply</button>
        {tags.length ? <TagFilter tags={tags} selected={selectedTags} /> : null}
      </form>
      <DataTable minWidth="34rem" columns={["Name", "Tags", "Size", "Created"]}>
        {results.length === 0 ? (
          <tr>
            <td colSpan={4} className="px-4 py-8 text-center text-slate-500">
              {params.q || selectedTags.length ? "Nothing matches." : "No deliverables yet: generate one from a template."}
            </td>
          </tr>
        ) : null}
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

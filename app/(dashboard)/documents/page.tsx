import type { Metadata } from "next";
import Link from "next/link";
import { Pager } from "@/components/pager";
import { Badge, DataTable, FilterSelect, PageHeader, SearchForm, formatDate } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { SENDERS } from "@/lib/auth/roles";
import { listDocuments } from "@/lib/esign/list";
import { DOCUMENT_STATUSES } from "@/lib/esign/responses";
import { sql } from "@/lib/db/sql";
import { pageLinks, pageOf } from "@/lib/dashboard/list-params";

export const metadata: Metadata = { title: "Documents" };

const PAGE_SIZE = 20;
const TONE = { draft: "slate", sent: "blue", completed: "green", voided: "red", declined: "red" } as const;

export default async function DocumentsPage({ searchParams }: { searchParams: Promise<{ status?: string; q?: string; page?: string }> }) {
  const { org, role } = await requireDashboard();
  const params = await searchParams;
  const status = DOCUMENT_STATUSES.find((s) => s === params.status);
  const page = pageOf(params.page);
  const { results, totalRecords } = await listDocuments(await sql(), org.id, {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    status,
    query: params.q || undefined,
  });
  const href = pageLinks("/documents", { status, q: params.q });
  return (
    <>
      <PageHeader title="Documents" description="Documents out for signature, signed, voided or declined.">
        {SENDERS.includes(role) ? (
          <span className="flex flex-wrap gap-2">
            <Link href="/documents/bulk" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50">
              Bulk send
            </Link>
            <Link href="/documents/new" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
              Send for signing
            </Link>
          </span>
        ) : null}
      </PageHeader>
      <SearchForm label="Search by name" defaultValue={params.q}>
        <FilterSelect label="Status" name="status" options={DOCUMENT_STATUSES} value={status} anyLabel="All" />
      </SearchForm>
      <DataTable columns={["Name", "Status", "Signers", "Created"]} empty={results.length ? null : "No documents yet."}>
        {results.map((d) => (
          <tr key={d.id} className="border-b border-slate-100 last:border-0">
            <td className="px-4 py-2">
              <Link href={`/documents/${d.id}`} className="font-medium text-brand-700 hover:underline">
                {d.name}
              </Link>
            </td>
            <td className="px-4 py-2">
              <Badge tone={TONE[d.status]}>{d.status}</Badge>
            </td>
            <td className="px-4 py-2 text-slate-600">
              {d.recipients.filter((r) => r.status === "completed").length} / {d.recipients.length}
            </td>
            <td className="px-4 py-2 text-slate-600">{formatDate(new Date(d.createdOn))}</td>
          </tr>
        ))}
      </DataTable>
      <Pager page={page} pageSize={PAGE_SIZE} total={totalRecords} href={href} />
    </>
  );
}

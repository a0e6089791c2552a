import type { Metadata } from "next";
import Link from "next/link";
import { Pager } from "@/components/pager";
import { Badge, DataTable, PageHeader, SearchForm, formatDate } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { pageLinks, pageOf } from "@/lib/dashboard/list-params";
import { db } from "@/lib/db/client";
import { listOutbox } from "@/lib/mail/outbox";
import { AdminOnly, TransportBanner } from "./parts";

export const metadata: Metadata = { title: "Outbox" };

const PAGE_SIZE = 25;

export default async function OutboxPage({ searchParams }: { searchParams: Promise<{ q?: string; page?: string }> }) {
  const { org, role } = await requireDashboard();
  if (role !== "administrator") return <AdminOnly />;
  const params = await searchParams;
  const search = params.q?.trim().slice(0, 320) || undefined;
  const page = pageOf(params.page);
  const { results, totalRecords } = await listOutbox(await db(), { orgId: org.id, search, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const href = pageLinks("/outbox", { q: search });
  return (
    <>
      <PageHeader title="Outbox" description="Every email Quire sent for this workspace, newest first." />
      <TransportBanner />
      <SearchForm label="Search by recipient" type="search" defaultValue={search} placeholder="name@example.com" submitLabel="Search" />
      <DataTable
        minWidth="40rem"
        columns={["To", "Subject", "Kind", "Time", "Transport"]}
        empty={results.length ? null : search ? `No emails to “${search}”.` : "No emails yet."}
      >
        {results.map((m) => (
          <tr key={m.id} className="border-b border-slate-100 last:border-0">
            <td className="max-w-[14rem] truncate px-4 py-2" title={m.to}>
              {m.to}
            </td>
            <td className="px-4 py-2">
              <Link href={`/outbox/${m.id}`} className="font-medium text-brand-700 hover:underline">
                {m.subject}
              </Link>
            </td>
            <td className="px-4 py-2 text-slate-600">{m.kind.replaceAll("_", " ")}</td>
            <td className="whitespace-nowrap px-4 py-2 text-slate-600">{formatDate(new Date(m.createdOn))}</td>
            <td className="px-4 py-2">
              <span className="flex flex-wrap gap-1">
                <Badge>{m.transport}</Badge>
                {m.error ? <Badge tone="red">failed</Badge> : null}
              </span>
            </td>
          </tr>
        ))}
      </DataTable>
      <Pager page={page} pageSize={PAGE_SIZE} total={totalRecords} href={href} />
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { Pager } from "@/components/pager";
import { Badge, Card, DataTable, FilterSelect, PageHeader, formatDate } from "@/components/ui";
import { NewWebhookCard } from "@/components/webhooks/new-webhook-card";
import { StatusBadge, WebhookPanel } from "@/components/webhooks/webhook-panel";
import { requireDashboard } from "@/lib/auth/dashboard";
import { pageLinks, pageOf } from "@/lib/dashboard/list-params";
import { db } from "@/lib/db/client";
import { sql } from "@/lib/db/sql";
import { listDeliveries } from "@/lib/webhooks/delivery-admin";
import { AVAILABLE_EVENTS, getWebhook, listWebhooks } from "@/lib/webhooks/webhooks";
import { AdminOnly } from "./parts";

export const metadata: Metadata = { title: "Webhooks" };

const PAGE_SIZE = 20;
const STATUSES = ["delivered", "retrying", "failed"] as const;

type Search = { webhook?: string; status?: string; event?: string; page?: string };

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { org, role } = await requireDashboard();
  if (role !== "administrator") return <AdminOnly />;
  const params = await searchParams;
  const client = await db();
  const hooks = await listWebhooks(await sql(), org.id);
  const selectedId = hooks.find((h) => h.id === params.webhook)?.id ?? hooks[0]?.id;
  const selected = selectedId ? await getWebhook(client, org.id, { id: selectedId }) : null;
  const status = STATUSES.find((s) => s === params.status);
  const event = AVAILABLE_EVENTS.find((e) => e === params.event);
  const page = pageOf(params.page);
  const log = selected
    ? await listDeliveries(client, org.id, { id: selected.id }, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, status, eventType: event })
    : null;
  const href = pageLinks("/webhooks", { webhook: selected?.id, status, event });
  const events = [...AVAILABLE_EVENTS];

  return (
    <>
      <PageHeader title="Webhooks" description="Quire posts signed events to your systems when a document is completed or voided." />
      <div className="grid gap-4">
        <NewWebhookCard key="new" availableEvents={events} hasWebhooks={hooks.length > 0} />
        {hooks.length > 1 ? (
          <nav aria-label="Webhooks" className="flex flex-wrap gap-2">
            {hooks.map((h) => (
              <Link
                key={h.id}
                href={`/webhooks?webhook=${h.id}`}
                aria-current={h.id === selected?.id ? "page" : undefined}
                className={`inline-flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm ${h.id === selected?.id ? "border-brand-300 bg-brand-50 text-brand-800" : "border-slate-300 bg-white"}`}
              >
                <span className="break-all">{h.name}</span>
                {h.isActive ? null : <Badge>paused</Badge>}
              </Link>
            ))}
          </nav>
        ) : null}
        {selected ? <WebhookPanel key={selected.id} webhook={selected} availableEvents={events} /> : null}
        {selected && log ? (
          <section aria-labelledby="log-heading" className="grid gap-3">
            <div className="flex flex-wrap items-end justify-between gap-3">
              <h2 id="log-heading" className="text-lg font-medium">
                Delivery log
              </h2>
              <form className="flex flex-wrap items-end gap-2" aria-label="Filter deliveries">
                <input type="hidden" name="webhook" value={selected.id} />
                <FilterSelect label="Status" name="status" options={STATUSES} value={status} />
                <FilterSelect label="Event" name="event" options={events} value={event} />
                <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium">
                  Filter
                </button>
              </form>
            </div>
            <DataTable
              minWidth="44rem"
              columns={["Time", "Event", "URL", "Status", "Attempts", "HTTP"]}
              empty={log.results.length ? null : status || event ? "No deliveries match." : "No deliveries yet. Send a test to see one here."}
            >
              {log.results.map((d) => (
                <tr key={d.id} data-testid="delivery-row" className="border-b border-slate-100 last:border-0">
                  <td className="whitespace-nowrap px-4 py-2">
                    <Link href={`/webhooks/deliveries/${d.id}`} className="font-medium text-brand-700 hover:underline">
                      {formatDate(new Date(d.createdOn))}
                    </Link>
                  </td>
                  <td className="px-4 py-2 font-mono text-xs">{d.eventType}</td>
                  <td className="max-w-[14rem] truncate px-4 py-2 font-mono text-xs" title={d.url}>
                    {d.url}
                  </td>
                  <td className="px-4 py-2">
                    <StatusBadge status={d.status} />
                  </td>
                  <td className="px-4 py-2 text-slate-600">
                    {d.attemptCount}/{d.maxAttempts}
                  </td>
                  <td className="px-4 py-2 text-slate-600">{d.httpStatus ?? "—"}</td>
                </tr>
              ))}
            </DataTable>
            <Pager page={page} pageSize={PAGE_SIZE} total={log.totalRecords} href={href} />
          </section>
        ) : null}
        {!selected ? (
          <Card>
            <p className="text-sm text-slate-600">
              Each event is posted to every URL with an <code>X-Service-Signature</code> header (HMAC-SHA256 with the webhook’s secret). Failed deliveries are
              retried for about 11 hours.
            </p>
          </Card>
        ) : null}
      </div>
    </>
  );
}

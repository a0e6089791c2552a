import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Card, PageHeader, formatDate } from "@/components/ui";
import { ReplayButton } from "@/components/webhooks/replay-button";
import { StatusBadge } from "@/components/webhooks/webhook-panel";
import { requireDashboard } from "@/lib/auth/dashboard";
import { db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { deliveryDetail } from "@/lib/webhooks/delivery-admin";
import { AdminOnly } from "../../parts";

export const metadata: Metadata = { title: "Webhook delivery" };

function Row({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[9rem_1fr] sm:gap-3">
      <dt className="text-slate-500">{name}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function Block({ label, children }: { label: string; children: string }) {
  return (
    <div className="min-w-0">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <pre className="mt-1 max-h-72 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono text-xs">{children || "(empty)"}</pre>
    </div>
  );
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export default async function DeliveryPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ replayOf?: string }> }) {
  const { org, role } = await requireDashboard();
  if (role !== "administrator") return <AdminOnly />;
  const { id } = await params;
  const { replayOf } = await searchParams;
  const {
    delivery: d,
    webhook,
    attempts,
  } = await deliveryDetail(await db(), org.id, id).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={`/webhooks?webhook=${webhook.id}`} className="text-brand-700 hover:underline">
          ← Webhooks
        </Link>
      </p>
      <PageHeader title="Webhook delivery" description={d.eventType}>
        <ReplayButton deliveryId={d.id} />
      </PageHeader>
      <div className="grid gap-4">
        {replayOf ? (
          <p role="status" className="rounded-md border border-brand-100 bg-brand-50 p-3 text-sm text-brand-900">
            Replayed as this new delivery.{" "}
            <Link href={`/webhooks/deliveries/${replayOf}`} className="underline">
              See the original
            </Link>
          </p>
        ) : null}
        <Card>
          <dl className="grid gap-2 text-sm" aria-label="Delivery">
            <Row name="Status">
              <span className="flex flex-wrap items-center gap-2">
                <StatusBadge status={d.status} />
                {d.httpStatus ? <span className="text-slate-600">HTTP {d.httpStatus}</span> : null}
              </span>
            </Row>
            <Row name="Webhook">{webhook.name}</Row>
            <Row name="URL">
              <span className="break-all font-mono text-xs">{d.url}</span>
            </Row>
            <Row name="Attempts">
              {d.attemptCount} of {d.maxAttempts}
            </Row>
            {d.nextAttemptAt ? <Row name="Next attempt">{formatDate(new Date(d.nextAttemptAt))}</Row> : null}
            {d.errorMessage ? (
              <Row name="Error">
                <span className="text-red-700">{d.errorMessage}</span>
              </Row>
            ) : null}
            <Row name="Created">{formatDate(new Date(d.createdOn))}</Row>
            <Row name="Delivery id">
              <code className="break-all text-xs">{d.id}</code>
            </Row>
          </dl>
        </Card>
        <section aria-labelledby="attempts-heading" className="grid gap-3">
          <h2 id="attempts-heading" className="text-lg font-medium">
            Attempts
          </h2>
          {attempts.length === 0 ? (
            <Card>
              <p className="text-sm text-slate-500">Not attempted yet: it is queued and goes out shortly.</p>
            </Card>
          ) : null}
          {attempts.map((a) => (
            <Card key={a.number}>
              <article aria-label={`Attempt ${a.number}`} className="grid gap-3">
                <h3 className="flex flex-wrap items-center gap-2 font-medium">
                  Attempt {a.number}
                  <span className="text-sm font-normal text-slate-600">
                    {formatDate(new Date(a.createdOn))} · {a.durationMs} ms · {a.httpStatus ? `HTTP ${a.httpStatus}` : "no HTTP answer"}
                  </span>
                </h3>
                {a.errorMessage ? <p className="break-words text-sm text-red-700">{a.errorMessage}</p> : null}
                <div className="grid gap-3 lg:grid-cols-2">
                  <Block label="Request headers">
                    {Object.entries(a.requestHeaders)
                      .map(([k, v]) => `${k}: ${v}`)
                      .join("\n")}
                  </Block>
                  <Block label="Request body">{pretty(a.requestBody)}</Block>
                </div>
                <Block label="Response body">{a.responseBody ?? ""}</Block>
              </article>
            </Card>
          ))}
        </section>
      </div>
    </>
  );
}

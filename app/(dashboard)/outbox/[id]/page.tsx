import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge, Card, PageHeader, formatDate } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import { emailLinks, getOutboxMessage, previewHtml } from "@/lib/mail/outbox";
import { AdminOnly } from "../parts";
import { MessageBody } from "./message-body";

export const metadata: Metadata = { title: "Outbox message" };

function Header({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[7rem_1fr] sm:gap-3">
      <dt className="text-slate-500">{name}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

export default async function OutboxMessagePage({ params }: { params: Promise<{ id: string }> }) {
  const { org, role } = await requireDashboard();
  if (role !== "administrator") return <AdminOnly />;
  const { id } = await params;
  const m = await getOutboxMessage(await db(), { orgId: org.id, id }).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  const links = emailLinks(m.html, m.text);
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/outbox" className="text-brand-700 hover:underline">
          ← Outbox
        </Link>
      </p>
      <PageHeader title={m.subject} />
      <div className="grid gap-4">
        <Card>
          <dl className="grid gap-2 text-sm" aria-label="Headers">
            <Header name="From">{m.from}</Header>
            <Header name="To">{m.to}</Header>
            {m.cc.length ? <Header name="Cc">{m.cc.join(", ")}</Header> : null}
            {m.replyTo ? <Header name="Reply-To">{m.replyTo}</Header> : null}
            <Header name="Subject">{m.subject}</Header>
            <Header name="Date">{formatDate(new Date(m.createdOn))}</Header>
            <Header name="Kind">{m.kind.replaceAll("_", " ")}</Header>
            <Header name="Transport">
              <span className="flex flex-wrap items-center gap-2">
                <Badge>{m.transport}</Badge>
                {m.transport === "outbox" ? (
                  <span className="text-slate-500">recorded only, not delivered</span>
                ) : m.sentAt ? (
                  <span className="text-slate-500">delivered {formatDate(new Date(m.sentAt))}</span>
                ) : null}
                {m.error ? <Badge tone="red">failed</Badge> : null}
              </span>
            </Header>
            {m.error ? (
              <Header name="Error">
                <span className="text-red-700">{m.error}</span>
              </Header>
            ) : null}
          </dl>
        </Card>
        <Card>
          <h2 id="links-heading" className="mb-2 font-medium">
            Links in this email
          </h2>
          {links.length === 0 ? (
            <p className="text-sm text-slate-500">This email has no links.</p>
          ) : (
            <ul aria-labelledby="links-heading" className="grid gap-2 text-sm">
              {links.map((l) => (
                <li key={l.url} className="min-w-0">
                  {l.label && l.label !== l.url ? <span className="block text-slate-600">{l.label}</span> : null}
                  <a href={l.url} className="break-all font-mono text-xs text-brand-700 underline">
                    {l.url}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <MessageBody html={previewHtml(m.html)} text={m.text} />
      </div>
    </>
  );
}

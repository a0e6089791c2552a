"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { FormMessage } from "@/components/ui";
import { type LayoutChoice, LayoutSelect } from "./send-parts";

interface Row {
  rowNumber: number;
  status: "invalid" | "queued" | "sending" | "sent" | "failed";
  error: string | null;
  documentId: string | null;
  recipients: { name: string; email: string }[];
}
interface Batch {
  id: string;
  total: number;
  counts: Record<string, number>;
  done: boolean;
  rows: Row[];
}

// Bulk send (issue 19 item 11): a CSV against a saved layout; the rows with a problem are shown at
// once, the others' progress is followed until every row is sent or failed.
export function BulkSendForm({ layouts }: { layouts: LayoutChoice[] }) {
  const [layoutId, setLayoutId] = useState(layouts[0]?.id ?? "");
  const [file, setFile] = useState<File | null>(null);
  const [sendEmail, setSendEmail] = useState(true);
  const [pending, setPending] = useState(false);
  const [batch, setBatch] = useState<Batch | null>(null);
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const layout = layouts.find((l) => l.id === layoutId);

  useEffect(() => {
    if (!batch || batch.done) return;
    const timer = setTimeout(async () => {
      const res = await fetch(`/api/dashboard/bulk-sends/${batch.id}`);
      if (res.ok) setBatch((await res.json()).data);
    }, 500);
    return () => clearTimeout(timer);
  }, [batch]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setMessage(null);
    if (!file) return setMessage({ tone: "error", text: "Choose a CSV file." });
    setPending(true);
    const res = await fetch("/api/dashboard/bulk-sends", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ layoutId, csv: await file.text(), sendEmail }),
    });
    setPending(false);
    const body = await res.json().catch(() => null);
    if (res.status !== 201) return setMessage({ tone: "error", text: body?.message ?? `Failed (HTTP ${res.status})` });
    setBatch(body.data);
  }

  if (!layouts.length)
    return <p className="text-sm text-slate-600">No saved layouts yet: place fields on a document, then choose Save as layout in the field placer.</p>;

  const sent = batch?.counts.sent ?? 0;
  const toSend = batch ? batch.total - (batch.counts.invalid ?? 0) : 0;
  const problems = batch?.rows.filter((r) => r.status === "invalid" || r.status === "failed") ?? [];
  return (
    <div className="space-y-6">
      <form onSubmit={submit} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <LayoutSelect layouts={layouts} value={layoutId} onChange={setLayoutId} />
        {layout ? (
          <p className="text-xs break-words text-slate-600">
            The CSV&apos;s first row names the columns: <code>{layout.roles.flatMap((r) => [`${r} name`, `${r} email`]).join(",")}</code>
          </p>
        ) : null}
        <label className="block">
          <span className="text-sm font-medium">CSV file</span>
          <input
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:text-brand-700"
          />
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={sendEmail} onChange={(e) => setSendEmail(e.target.checked)} />
          Email the signing links
        </label>
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="submit"
            disabled={pending || Boolean(batch && !batch.done)}
            className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
          >
            {pending ? "Checking the rows…" : "Send to every row"}
          </button>
          <FormMessage message={message} />
        </div>
      </form>

      {batch ? (
        <section aria-label="Bulk send progress" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
          <p role="status" className="text-sm font-medium">
            {batch.done ? `Done: ${sent} of ${toSend} sent` : `Sending… ${sent} of ${toSend} sent`}
            {batch.counts.invalid ? `; ${batch.counts.invalid} row(s) not sent` : ""}
            {batch.counts.failed ? `; ${batch.counts.failed} failed` : ""}
          </p>
          <div
            role="progressbar"
            aria-label="Sent"
            aria-valuemin={0}
            aria-valuemax={toSend}
            aria-valuenow={sent}
            className="h-2 w-full overflow-hidden rounded-full bg-slate-100"
          >
            <div className="h-full bg-brand-600 transition-all" style={{ width: `${toSend ? (sent / toSend) * 100 : 0}%` }} />
          </div>
          {problems.length ? (
            <div>
              <h2 className="mb-1 text-sm font-medium">Rows not sent</h2>
              <ul className="space-y-1 text-sm text-red-700">
                {problems.map((r) => (
                  <li key={r.rowNumber} className="break-words">
                    {r.error}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {batch.done && sent ? (
            <Link href="/documents" className="inline-block text-sm font-medium text-brand-700 underline">
              See the documents
            </Link>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}

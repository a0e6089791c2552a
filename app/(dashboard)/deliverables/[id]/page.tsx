import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Card, PageHeader, formatDate } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { SENDERS, WRITERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { getDeliverable } from "@/lib/deliverables/deliverables";
import { valueAsPlainText } from "@/lib/deliverables/render/content";
import { NotFoundError } from "@/lib/errors";
import { loadPlan } from "@/lib/orgs/plan";
import { DeliverableEditor } from "./editor";

export const metadata: Metadata = { title: "Deliverable" };

type StoredVariable = { placeholder: string; mimeType: string; text?: string; isDisabled?: boolean; variableStack?: unknown };

function summary(v: StoredVariable): string {
  if (v.isDisabled) return "(skipped)";
  if (v.variableStack) return `${Object.keys(v.variableStack as object).length} repeated entries`;
  if (v.mimeType === "image") return "(image)";
  const text = valueAsPlainText(v.mimeType, v.text ?? "");
  return text.length > 120 ? `${text.slice(0, 120)}…` : text || "(empty)";
}

export default async function DeliverablePage({ params }: { params: Promise<{ id: string }> }) {
  const { org, role } = await requireDashboard();
  const { id } = await params;
  const client = await db();
  const d = await getDeliverable(client, org.id, id, true).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  const plan = await loadPlan(client, org.id);
  const canWrite = WRITERS.includes(role);
  return (
    <>
      <PageHeader
        title={d.name}
        description={`From template “${d.templateName}”${d.templateNotDeleted ? "" : " (deleted)"} · ${formatDate(new Date(d.createdOn))}`}
      >
        {canWrite ? (
          <div className="flex flex-wrap gap-2">
            <a
              href={`/api/dashboard/deliverables/${d.id}/pdf?download=1`}
              className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
            >
              Download PDF
            </a>
            {SENDERS.includes(role) ? (
              <a
                href={`/documents/new?deliverableId=${d.id}`}
                className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50"
              >
                Send for signing
              </a>
            ) : null}
            {plan.hasFileDownload ? (
              <a
                href={`/api/dashboard/deliverables/${d.id}/source`}
                className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50"
              >
                Download {d.fileType.includes("presentation") ? "PPTX" : "DOCX"}
              </a>
            ) : null}
          </div>
        ) : null}
      </PageHeader>
      <div className="grid gap-4 lg:grid-cols-[1fr_20rem]">
        {canWrite ? (
          <Card className="p-0 sm:p-0">
            <iframe title="PDF preview" src={`/api/dashboard/deliverables/${d.id}/pdf`} className="h-[70vh] w-full rounded-lg" />
          </Card>
        ) : (
          <Card>
            <p className="text-sm text-slate-600">Viewers can read a deliverable&apos;s details but not its files.</p>
          </Card>
        )}
        <div className="space-y-4">
          {canWrite ? (
            <Card>
              <DeliverableEditor id={d.id} name={d.name} description={d.description} tags={(d.tags ?? []).map((t) => t.label)} />
            </Card>
          ) : null}
          <Card>
            <h2 className="mb-2 font-medium">Variables used</h2>
            <ul className="space-y-2 text-sm">
              {(d.variables as StoredVariable[]).map((v) => (
                <li key={v.placeholder}>
                  <code className="rounded bg-slate-100 px-1 font-mono text-xs">{v.placeholder}</code>{" "}
                  <span className="text-xs text-slate-500">{v.mimeType}</span>
                  <p className="break-words text-slate-700">{summary(v)}</p>
                </li>
              ))}
            </ul>
          </Card>
        </div>
      </div>
    </>
  );
}

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CopyButton } from "@/components/copy-button";
import { LocalTime } from "@/components/local-time";
import { Badge, Card, PageHeader, formatDate } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { SENDERS, WRITERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { auditTrail, verifyAuditChain } from "@/lib/esign/audit";
import { finalizationOf } from "@/lib/esign/completion";
import { getDocument } from "@/lib/esign/documents";
import { NotFoundError } from "@/lib/errors";
import { displayIp } from "@/lib/net/ip-display";
import { ResendButton, RetryFinalizationButton, VoidButton } from "./controls";
import { DeleteDraftButton } from "./delete-draft";

export const metadata: Metadata = { title: "Document" };

const TONE = { ready: "blue", pending: "slate", completed: "green" } as const;

/** What the sender chose for this send's emails and deadline. */
function sendOptions(doc: Awaited<ReturnType<typeof getDocument>>): [string, string][] {
  const cc = doc.ccEmails as string[];
  return [
    ["Signing emails", doc.sendEmail ? (doc.emailSubject ? `“${doc.emailSubject}”` : "default subject") : "not sent (links handed out)"],
    ["Reminders", doc.sendEmail && doc.reminderDays > 0 ? `every ${doc.reminderDays} day(s)` : "none"],
    ["Expires", doc.expiresAt ? formatDate(new Date(doc.expiresAt)) : "never"],
    ["Cc", cc.length ? cc.join(", ") : "none"],
  ];
}

export default async function DocumentPage({ params }: { params: Promise<{ id: string }> }) {
  const { org, role } = await requireDashboard();
  const { id } = await params;
  const client = await db();
  const doc = await getDocument(client, org.id, id).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  const [trail, finalization] = await Promise.all([auditTrail(client, doc.id), finalizationOf(client, doc.id)]);
  const finalizing = doc.status === "sent" && finalization?.status === "pending";
  const finalizationFailed = doc.status === "sent" && finalization?.status === "failed";
  const intact = verifyAuditChain(trail) === -1;
  const canSend = SENDERS.includes(role);
  const declinedBy = trail.find((e) => e.actionType === "declined")?.recipientId;
  const decliner = doc.recipients.find((r) => r.id === declinedBy);
  return (
    <>
      <PageHeader
        title={doc.name}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge tone={doc.status === "completed" ? "green" : doc.status === "voided" || doc.status === "declined" ? "red" : "blue"}>{doc.status}</Badge>
            {doc.pageCount} page(s) · created {formatDate(new Date(doc.createdOn))}
          </span>
        }
      >
        {/* One row of actions beside the title on a wide screen (the title wraps instead); they wrap below it on a phone. */}
        <div className="flex flex-wrap items-start gap-2 sm:justify-end lg:shrink-0 lg:flex-nowrap">
          {WRITERS.includes(role) ? (
            <a
              href={`/api/dashboard/documents/${doc.id}/pdf`}
              className="whitespace-nowrap rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
            >
              Download {doc.status === "completed" ? "signed PDF" : "PDF"}
            </a>
          ) : null}
          {canSend && doc.status === "draft" ? (
            <a
              href={`/documents/${doc.id}/prepare`}
              className="whitespace-nowrap rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50"
            >
              Place fields and send
            </a>
          ) : null}
          {canSend && (doc.status === "draft" || (doc.status === "sent" && !finalization)) ? <VoidButton id={doc.id} /> : null}
          {canSend && doc.status === "draft" ? <DeleteDraftButton id={doc.id} name={doc.name} /> : null}
        </div>
      </PageHeader>
      {finalizing ? (
        <p role="status" className="mb-4 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
          Everyone has signed. Quire is sealing the signed PDF and will email every party
          {finalization.attempts > 1 ? ` (attempt ${finalization.attempts}; last error: ${finalization.lastError ?? "none"})` : ""}.
        </p>
      ) : null}
      {finalizationFailed ? (
        <div role="alert" className="mb-4 space-y-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <p>
            Everyone has signed, but sealing the signed PDF failed {finalization.attempts} times: {finalization.lastError}. Nothing was sent to the signers yet.
          </p>
          {canSend ? <RetryFinalizationButton id={doc.id} /> : null}
        </div>
      ) : null}
      {doc.status === "voided" ? <p className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">Voided: {doc.voidReason}</p> : null}
      {doc.status === "declined" ? (
        <p className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          Declined by {decliner ? `${decliner.name} (${decliner.email})` : "a signer"}
          {doc.declinedAt ? ` on ${formatDate(new Date(doc.declinedAt))}` : ""}: {doc.declineReason}
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <h2 className="mb-3 font-medium">Signers</h2>
          <ol className="space-y-3 text-sm">
            {doc.recipients.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  <span className="font-medium">
                    {r.signingOrder}. {r.name}
                  </span>{" "}
                  <span className="text-slate-500">{r.email}</span>
                  <span className="block text-xs text-slate-500">
                    {r.signedAt ? (
                      <>
                        signed <LocalTime iso={new Date(r.signedAt).toISOString()} />
                      </>
                    ) : r.viewedAt ? (
                      <>
                        viewed <LocalTime iso={new Date(r.viewedAt).toISOString()} />
                      </>
                    ) : (
                      "not opened"
                    )}
                  </span>
                </span>
                <span className="flex items-center gap-2">
                  <Badge tone={TONE[r.status]}>{r.status}</Badge>
                  {canSend && doc.status === "sent" && r.status !== "completed" ? <ResendButton id={doc.id} recipientId={r.id} name={r.name} /> : null}
                </span>
              </li>
            ))}
          </ol>
          <dl aria-label="Email and deadline" className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 border-t border-slate-100 pt-3 text-sm">
            {sendOptions(doc).map(([term, value]) => (
              <div key={term} className="contents">
                <dt className="text-slate-500">{term}</dt>
                <dd className="min-w-0 break-words">{value}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <Card>
          <h2 className="mb-1 font-medium">Audit trail</h2>
          <p className={`mb-3 text-xs ${intact ? "text-emerald-700" : "text-red-700"}`}>
            {intact ? "Hash chain intact" : "Hash chain broken: the trail was altered"}
          </p>
          <ol className="space-y-2 text-sm">
            {trail.map((e) => (
              <li key={e.id}>
                <span className="font-medium">{e.actionType}</span>{" "}
                <span className="text-slate-500">
                  <LocalTime iso={new Date(e.timestamp).toISOString()} />
                </span>
                {e.user || e.recipient ? <span className="text-xs text-slate-600"> · by {(e.user ?? e.recipient)!.name}</span> : null}
                {e.ip ? <span className="text-xs text-slate-500"> · {displayIp(e.ip)}</span> : null}
                {/* The chain hash, short; in full on hover and by the copy button. */}
                <span className="mt-0.5 flex items-center gap-2">
                  <code className="font-mono text-[11px] text-slate-500" title={e.currentHash}>
                    {e.currentHash.slice(0, 12)}…
                  </code>
                  <CopyButton value={e.currentHash} small name={`Copy the hash of the ${e.actionType} entry`} />
                </span>
              </li>
            ))}
          </ol>
        </Card>
      </div>
    </>
  );
}

"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import {
  deleteWebhookAction,
  regenerateSecretAction,
  setWebhookActiveAction,
  testWebhookAction,
  updateWebhookAction,
  type TestOutcome,
} from "@/lib/dashboard/actions/webhooks";
import type { ActionFailure, ActionResult } from "@/lib/dashboard/action";
import { useConfirm } from "@/components/confirm";
import { Badge, Card, Spinner } from "@/components/ui";
import { ErrorList, SecretReveal, WebhookFields } from "./shared";

export interface PanelWebhook {
  id: string;
  name: string;
  urls: string[];
  events: string[];
  isActive: boolean;
  pausedReason: string | null;
  maskedSecret: string;
  deliveryStats: { total: number; delivered: number; retrying: number; failed: number; lastDeliveryAt: string | null };
}

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={status === "delivered" ? "green" : status === "failed" ? "red" : "blue"}>{status}</Badge>;
}

export function WebhookPanel({ webhook, availableEvents }: { webhook: PanelWebhook; availableEvents: string[] }) {
  const [pending, start] = useTransition();
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<ActionFailure | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [testEvent, setTestEvent] = useState(webhook.events[0] ?? availableEvents[0]);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const { confirm, dialog } = useConfirm();

  function run(label: string, fn: () => Promise<ActionResult<unknown>>, after?: () => void) {
    setProblem(null);
    setNotice(null);
    setBusy(label);
    start(async () => {
      const result = await fn();
      setBusy(null);
      if (!result.ok) setProblem(result);
      else after?.();
    });
  }

  const stats = webhook.deliveryStats;
  const button =
    "inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50 disabled:opacity-60";

  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="flex flex-wrap items-center gap-2 text-lg font-medium">
            <span className="break-all">{webhook.name}</span>
            {webhook.isActive ? <Badge tone="green">active</Badge> : <Badge>paused</Badge>}
          </h2>
          {webhook.pausedReason ? (
            <p role="status" className="mt-1 text-sm text-amber-800">
              Paused by Quire: {webhook.pausedReason}. Resume it once the receiver accepts deliveries again.
            </p>
          ) : null}
          <p className="mt-1 text-sm text-slate-600">
            Secret{" "}
            <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs" data-testid="masked-secret">
              {webhook.maskedSecret}
            </code>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={button} disabled={pending} onClick={() => setEditing((e) => !e)}>
            {editing ? "Cancel edit" : "Edit"}
          </button>
          <button
            type="button"
            className={button}
            disabled={pending}
            onClick={() =>
              run(
                "active",
                () => setWebhookActiveAction({ id: webhook.id, isActive: !webhook.isActive }),
                () => setNotice(webhook.isActive ? "Paused: no events are sent until you resume." : "Resumed."),
              )
            }
          >
            {busy === "active" ? <Spinner /> : null}
            {webhook.isActive ? "Pause" : "Resume"}
          </button>
          <button
            type="button"
            className={button}
            disabled={pending}
            aria-haspopup="dialog"
            onClick={async () => {
              const question = {
                title: "Regenerate the secret?",
                description: "Deliveries are signed with the new one at once; update your receiver.",
                confirmLabel: "Regenerate secret",
              };
              if (!(await confirm(question))) return;
              run("regenerate", async () => {
                const r = await regenerateSecretAction({ id: webhook.id });
                if (r.ok) setSecret(r.data.secret);
                return r;
              });
            }}
          >
            {busy === "regenerate" ? <Spinner /> : null}
            Regenerate secret
          </button>
          <button
            type="button"
            className={`${button} border-red-200 text-red-700 hover:bg-red-50`}
            disabled={pending}
            aria-haspopup="dialog"
            onClick={async () => {
              if (!(await confirm({ title: `Delete the webhook “${webhook.name}” and its delivery history?`, confirmLabel: "Delete webhook" }))) return;
              run("delete", () => deleteWebhookAction({ id: webhook.id }));
            }}
          >
            Delete
          </button>
        </div>
      </div>

      {secret ? (
        <div className="mt-4">
          <SecretReveal title="New secret made." secret={secret} />
        </div>
      ) : null}

      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-slate-500">Receiver URLs</dt>
          <dd>
            <ul className="mt-1 grid gap-1">
              {webhook.urls.map((u) => (
                <li key={u} className="break-all font-mono text-xs">
                  {u}
                </li>
              ))}
            </ul>
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-slate-500">Events</dt>
          <dd className="mt-1 flex flex-wrap gap-1">
            {webhook.events.map((e) => (
              <Badge key={e}>{e}</Badge>
            ))}
          </dd>
          <dt className="mt-3 text-slate-500">Deliveries</dt>
          <dd className="mt-1" data-testid="delivery-stats">
            {stats.total} total · {stats.delivered} delivered · {stats.retrying} retrying · {stats.failed} failed
          </dd>
        </div>
      </dl>

      {editing ? (
        <form
          className="mt-4 grid gap-4 border-t border-slate-200 pt-4"
          aria-label="Edit webhook"
          onSubmit={(e) => {
            e.preventDefault();
            const form = new FormData(e.currentTarget);
            form.set("id", webhook.id);
            run(
              "save",
              () => updateWebhookAction(null, form),
              () => {
                setEditing(false);
                setNotice("Saved.");
              },
            );
          }}
        >
          <WebhookFields
            availableEvents={availableEvents}
            name={webhook.name}
            urls={webhook.urls}
            events={webhook.events}
            idPrefix={`edit-${webhook.id}`}
            errors={problem?.fieldErrors}
          />
          <div>
            <button
              type="submit"
              disabled={pending}
              className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60"
            >
              {busy === "save" ? <Spinner light /> : null}
              Save changes
            </button>
          </div>
        </form>
      ) : null}

      <div className="mt-4 border-t border-slate-200 pt-4">
        <h3 className="text-sm font-medium">Send a test</h3>
        <p className="text-xs text-slate-500">A sample event to every URL, recorded in the delivery log like a real one.</p>
        <div className="mt-2 flex flex-wrap items-end gap-2">
          <label className="min-w-0 flex-1 basis-56">
            <span className="sr-only">Test event</span>
            <select
              aria-label="Test event"
              value={testEvent}
              onChange={(e) => setTestEvent(e.target.value)}
              className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
            >
              {availableEvents.map((e) => (
                <option key={e} value={e}>
                  {e}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className={button}
            disabled={pending || !webhook.isActive}
            title={webhook.isActive ? undefined : "Resume the webhook to test it"}
            onClick={() =>
              run("test", async () => {
                setOutcome(null);
                const r = await testWebhookAction({ id: webhook.id, eventType: testEvent });
                if (r.ok) setOutcome(r.data);
                return r;
              })
            }
          >
            {busy === "test" ? <Spinner /> : null}
            {busy === "test" ? "Sending…" : "Send test"}
          </button>
        </div>
        {!webhook.isActive ? <p className="mt-2 text-xs text-slate-500">A paused webhook cannot be tested.</p> : null}
        {outcome ? (
          <div role="status" aria-label="Test result" className="mt-3 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
            <p>
              Sent to {outcome.summary.total} URL(s){outcome.summary.failed ? `; ${outcome.summary.failed} could not be recorded` : ""}.
            </p>
            <ul className="mt-2 grid gap-2">
              {outcome.deliveries.map((d) => (
                <li key={d.id} className="flex min-w-0 flex-wrap items-center gap-2">
                  <StatusBadge status={d.status} />
                  <span className="text-slate-600">{d.httpStatus ? `HTTP ${d.httpStatus}` : "no answer"}</span>
                  <Link href={`/webhooks/deliveries/${d.id}`} className="min-w-0 break-all font-mono text-xs text-brand-700 hover:underline">
                    {d.url}
                  </Link>
                  {d.errorMessage ? <span className="w-full break-words text-xs text-red-700">{d.errorMessage}</span> : null}
                </li>
              ))}
            </ul>
            {outcome.summary.errors.map((e) => (
              <p key={e} className="mt-1 text-xs text-red-700">
                {e}
              </p>
            ))}
          </div>
        ) : null}
      </div>

      <div className="mt-3 grid gap-2">
        {notice ? (
          <p role="status" className="text-sm text-emerald-700">
            {notice}
          </p>
        ) : null}
        {problem ? <ErrorList {...problem} /> : null}
      </div>
      {dialog}
    </Card>
  );
}

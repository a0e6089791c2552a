"use client";

import { CopyButton } from "@/components/copy-button";
import type { ActionFailure } from "@/lib/dashboard/action";

export const EVENT_LABELS: Record<string, string> = {
  "signature.document.completed": "Document completed (every signer signed)",
  "signature.document.voided": "Document voided",
  "signature.document.declined": "Document declined (a signer refused)",
};

export function Spinner({ light = false }: { light?: boolean }) {
  return (
    <span
      aria-hidden
      className={`h-4 w-4 animate-spin rounded-full border-2 ${light ? "border-white border-t-transparent" : "border-slate-300 border-t-brand-600"}`}
    />
  );
}

/** A secret shown once, right after it was made, with a copy button. */
export function SecretReveal({ secret, title }: { secret: string; title: string }) {
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4">
      <p className="text-sm font-medium">{title} Copy the secret now: it is not shown again.</p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <code data-testid="webhook-secret" className="min-w-0 break-all rounded bg-white px-2 py-1 font-mono text-sm">
          {secret}
        </code>
        <CopyButton value={secret} />
      </div>
      <p className="mt-2 text-xs text-slate-600">Verify each request’s X-Service-Signature with it (HMAC-SHA256 of “timestamp.body”).</p>
    </div>
  );
}

/** A failed action: its message, then one line per field problem. */
export function ErrorList({ error, fieldErrors }: ActionFailure) {
  const errors = Object.entries(fieldErrors ?? {}).map(([field, message]) => `${field}: ${message}`);
  return (
    <div role="alert" className="text-sm text-red-700">
      <p>{error}</p>
      {errors?.length ? (
        <ul className="mt-1 list-disc pl-5">
          {errors.map((e) => (
            <li key={e} className="break-words">
              {e}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Name, URLs (one per line) and event checkboxes: the create and edit forms share them. */
export function WebhookFields({
  availableEvents,
  name = "signature",
  urls = [],
  events,
  idPrefix,
}: {
  availableEvents: string[];
  name?: string;
  urls?: string[];
  events?: string[];
  idPrefix: string;
}) {
  const chosen = new Set(events ?? availableEvents);
  return (
    <div className="grid gap-3">
      <label className="block">
        <span className="text-sm font-medium">Name</span>
        <input
          name="name"
          required
          maxLength={100}
          defaultValue={name}
          pattern="[A-Za-z0-9._\-]+"
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        />
        <span className="mt-1 block text-xs text-slate-500">Client libraries use “signature”. Letters, digits, dot, dash, underscore.</span>
      </label>
      <label className="block">
        <span className="text-sm font-medium">Receiver URLs</span>
        <textarea
          name="urls"
          required
          rows={3}
          defaultValue={urls.join("\n")}
          placeholder="https://hooks.example.com/quire"
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
        />
        <span className="mt-1 block text-xs text-slate-500">One per line, up to 10, each https://.</span>
      </label>
      <fieldset>
        <legend className="text-sm font-medium">Events</legend>
        <div className="mt-1 grid gap-1">
          {availableEvents.map((event) => (
            <label key={event} htmlFor={`${idPrefix}-${event}`} className="flex items-start gap-2 text-sm">
              <input id={`${idPrefix}-${event}`} type="checkbox" name="events" value={event} defaultChecked={chosen.has(event)} className="mt-1" />
              <span className="min-w-0">
                <code className="break-all text-xs">{event}</code>
                <span className="block text-xs text-slate-500">{EVENT_LABELS[event] ?? ""}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}

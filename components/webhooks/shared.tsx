"use client";

import { CopyButton } from "@/components/copy-button";
import type { ActionFailure, FieldErrors } from "@/lib/dashboard/action";

export const EVENT_LABELS: Record<string, string> = {
  "signature.document.completed": "Document completed (every signer signed)",
  "signature.document.voided": "Document voided",
  "signature.document.declined": "Document declined (a signer refused)",
};

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

/** The boxes of WebhookFields; a field error whose path starts with one is shown under it. */
const FIELDS = ["name", "urls", "events"] as const;
type Field = (typeof FIELDS)[number];

/** A failed save's problems per box: URL problems as "Line N: …" (the form has one URL per line). */
function problemsByField(fieldErrors: FieldErrors | undefined): Partial<Record<Field, string[]>> {
  const out: Partial<Record<Field, string[]>> = {};
  for (const [path, message] of Object.entries(fieldErrors ?? {})) {
    const [head, index] = path.split(".");
    if (!(FIELDS as readonly string[]).includes(head)) continue;
    const line = head === "urls" && index !== undefined ? `Line ${Number(index) + 1}: ${message}` : message;
    (out[head as Field] ??= []).push(line);
  }
  return out;
}

/** A failed action: its message, then the problems that belong to no box of the form. */
export function ErrorList({ error, fieldErrors }: ActionFailure) {
  const loose = Object.entries(fieldErrors ?? {})
    .filter(([path]) => !(FIELDS as readonly string[]).includes(path.split(".")[0]))
    .map(([, message]) => message);
  return (
    <div role="alert" className="text-sm text-red-700">
      <p>{error}</p>
      {loose.length ? (
        <ul className="mt-1 list-disc pl-5">
          {loose.map((e) => (
            <li key={e} className="break-words">
              {e}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The message under one box, its id named by the box's aria-describedby. */
function Problems({ id, lines }: { id: string; lines?: string[] }) {
  if (!lines?.length) return null;
  return (
    <span id={id} className="mt-1 block text-sm text-red-700">
      {lines.map((line) => (
        <span key={line} className="block break-words">
          {line}
        </span>
      ))}
    </span>
  );
}

/** Name, URLs (one per line) and event checkboxes: the create and edit forms share them. `errors`: a failed save's field errors, shown under their boxes. */
export function WebhookFields({
  availableEvents,
  name = "signature",
  urls = [],
  events,
  idPrefix,
  errors,
}: {
  availableEvents: string[];
  name?: string;
  urls?: string[];
  events?: string[];
  idPrefix: string;
  errors?: FieldErrors;
}) {
  const chosen = new Set(events ?? availableEvents);
  const problems = problemsByField(errors);
  const invalid = (field: Field) => (problems[field] ? { "aria-invalid": true as const, "aria-describedby": `${idPrefix}-${field}-error` } : {});
  const border = (field: Field) => (problems[field] ? "border-red-500" : "border-slate-300");
  return (
    <div className="grid gap-3">
      <div>
        <label htmlFor={`${idPrefix}-name`} className="block text-sm font-medium">
          Name
        </label>
        <input
          id={`${idPrefix}-name`}
          name="name"
          required
          maxLength={100}
          defaultValue={name}
          pattern="[A-Za-z0-9._\-]+"
          {...invalid("name")}
          className={`mt-1 w-full rounded-md border px-3 py-2 ${border("name")}`}
        />
        <Problems id={`${idPrefix}-name-error`} lines={problems.name} />
        <span className="mt-1 block text-xs text-slate-500">Client libraries use “signature”. Letters, digits, dot, dash, underscore.</span>
      </div>
      <div>
        <label htmlFor={`${idPrefix}-urls`} className="block text-sm font-medium">
          Receiver URLs
        </label>
        <textarea
          id={`${idPrefix}-urls`}
          name="urls"
          required
          rows={3}
          defaultValue={urls.join("\n")}
          placeholder="https://hooks.example.com/quire"
          {...invalid("urls")}
          className={`mt-1 w-full rounded-md border px-3 py-2 font-mono text-sm ${border("urls")}`}
        />
        <Problems id={`${idPrefix}-urls-error`} lines={problems.urls} />
        <span className="mt-1 block text-xs text-slate-500">One per line, up to 10, each https://.</span>
      </div>
      <fieldset {...invalid("events")}>
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
        <Problems id={`${idPrefix}-events-error`} lines={problems.events} />
      </fieldset>
    </div>
  );
}

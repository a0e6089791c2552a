"use client";

import { startTransition, useActionState } from "react";
import { createWebhookAction } from "@/lib/dashboard/actions/webhooks";
import { Spinner } from "@/components/ui";
import { ErrorList, SecretReveal, WebhookFields } from "./shared";

export function CreateWebhookForm({ availableEvents, defaultName = "signature" }: { availableEvents: string[]; defaultName?: string }) {
  const [state, action, pending] = useActionState(createWebhookAction, null);
  return (
    <div className="grid gap-4">
      {state?.ok ? (
        <SecretReveal title={`Webhook “${state.data.name}” created.`} secret={state.data.secret} />
      ) : (
        <form
          className="grid gap-4"
          aria-label="Create webhook"
          // Not <form action>: React clears a form after its action runs, which would empty the boxes the user must fix.
          onSubmit={(e) => {
            e.preventDefault();
            const form = new FormData(e.currentTarget);
            startTransition(() => action(form));
          }}
        >
          <WebhookFields availableEvents={availableEvents} name={defaultName} idPrefix="create" errors={state?.ok === false ? state.fieldErrors : undefined} />
          <div>
            <button
              type="submit"
              disabled={pending}
              className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60"
            >
              {pending ? <Spinner light /> : null}
              {pending ? "Creating…" : "Create webhook"}
            </button>
          </div>
          {state?.ok === false ? <ErrorList {...state} /> : null}
        </form>
      )}
    </div>
  );
}

"use client";

import { useState } from "react";
import { Card } from "@/components/ui";
import { CreateWebhookForm } from "./create-webhook-form";

/** Open from the start when the organization has no webhook; otherwise behind a button. Stays open after
 * creating, so the one-time secret does not vanish when the page refreshes. */
export function NewWebhookCard({ availableEvents, hasWebhooks }: { availableEvents: string[]; hasWebhooks: boolean }) {
  const [open, setOpen] = useState(!hasWebhooks);
  const [round, setRound] = useState(0);
  if (!open) {
    return (
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600">Send events to another system with its own secret and URLs.</p>
          <button
            type="button"
            onClick={() => {
              setRound((r) => r + 1);
              setOpen(true);
            }}
            className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50"
          >
            New webhook
          </button>
        </div>
      </Card>
    );
  }
  return (
    <Card>
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 className="font-medium">{hasWebhooks ? "New webhook" : "Create the webhook"}</h2>
        {hasWebhooks ? (
          <button type="button" onClick={() => setOpen(false)} className="text-sm text-slate-600 hover:underline">
            Close
          </button>
        ) : null}
      </div>
      <CreateWebhookForm key={round} availableEvents={availableEvents} defaultName={hasWebhooks ? "" : "signature"} />
    </Card>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { replayDeliveryAction } from "@/lib/dashboard/actions/webhooks";
import { Spinner } from "./shared";

/** Sends the same event again as a new delivery, then opens that delivery. */
export function ReplayButton({ deliveryId }: { deliveryId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          start(async () => {
            setError(null);
            const r = await replayDeliveryAction({ deliveryId });
            if (!r.ok) setError(r.error);
            else router.push(`/webhooks/deliveries/${r.data.id}?replayOf=${deliveryId}`);
          })
        }
        className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? <Spinner light /> : null}
        {pending ? "Replaying…" : "Replay"}
      </button>
      {error ? (
        <span role="alert" className="text-sm text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}

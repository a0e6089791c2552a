"use client";

import { useRouter } from "next/navigation";
import { ActionButton } from "@/components/action-button";
import { replayDeliveryAction } from "@/lib/dashboard/actions/webhooks";

/** Sends the same event again as a new delivery, then opens that delivery. */
export function ReplayButton({ deliveryId }: { deliveryId: string }) {
  const router = useRouter();
  return (
    <ActionButton
      run={() => replayDeliveryAction({ deliveryId })}
      onDone={(d) => void router.push(`/webhooks/deliveries/${d.id}?replayOf=${deliveryId}`)}
      label="Replay"
      busyLabel="Replaying…"
      spinner="light"
      className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
    />
  );
}

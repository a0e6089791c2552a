// The signing events webhooks deliver (docs/contract.md "Webhooks"), recorded in the transaction of
// the change they report, so each is emitted exactly when that change commits, once.
import type { Prisma } from "@/lib/generated/prisma/client";
import { kickPoller } from "@/lib/server/poller";
import type { AVAILABLE_EVENTS } from "@/lib/webhooks/webhooks";

/** The event types are declared once, as the events a webhook may subscribe to. */
export type SigningEventType = (typeof AVAILABLE_EVENTS)[number];

export async function recordSigningEvent(
  tx: Prisma.TransactionClient,
  doc: { id: string; orgId: string; name: string },
  type: SigningEventType,
  data: Record<string, unknown> = {},
): Promise<void> {
  await tx.domainEvent.create({ data: { orgId: doc.orgId, type, payload: { documentId: doc.id, name: doc.name, ...data } as Prisma.InputJsonValue } });
  // Deliver it promptly even while the idle worker looks only every few seconds.
  kickPoller("webhook deliveries");
}

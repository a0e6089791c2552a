// What a person or an integration does with deliveries: list them, read one with its attempts, replay
// one, and send a test event (Test Webhook). The worker that sends them is lib/webhooks/delivery.ts.
import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import { BadRequestError, NotFoundError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { attemptDelivery, type DeliveryDeps, type DeliveryRow, type Envelope, leaseMs, MAX_ATTEMPTS } from "@/lib/webhooks/delivery";
import { findWebhook, type WebhookRef } from "@/lib/webhooks/webhooks";

/** 2.8 plus the list's extra fields; a queued, never-tried delivery reads as retrying. */
export function deliveryJson(d: DeliveryRow) {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventType: d.eventType,
    url: d.url,
    httpStatus: d.httpStatus,
    attemptCount: d.attemptCount,
    maxAttempts: d.maxAttempts,
    isDelivered: d.status === "delivered",
    status: d.status === "pending" ? "retrying" : d.status,
    ...(d.errorMessage ? { errorMessage: d.errorMessage } : {}),
    payload: d.payload,
    responseBody: d.responseBody,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    createdOn: d.createdOn.toISOString(),
    updatedOn: d.updatedOn.toISOString(),
  };
}

export async function listDeliveries(
  db: Db,
  orgId: string,
  webhookName: WebhookRef,
  q: { limit: number; offset: number; status?: string; eventType?: string },
) {
  const hook = await findWebhook(db, orgId, webhookName);
  const statuses = q.status === "retrying" ? ["retrying", "pending"] : q.status ? [q.status] : undefined;
  const where: Prisma.WebhookDeliveryWhereInput = {
    webhookId: hook.id,
    ...(statuses ? { status: { in: statuses } } : {}),
    ...(q.eventType ? { eventType: q.eventType } : {}),
  };
  const [rows, totalRecords] = await Promise.all([
    db.webhookDelivery.findMany({ where, orderBy: [{ createdOn: "desc" }, { id: "desc" }], take: q.limit, skip: q.offset }),
    db.webhookDelivery.count({ where }),
  ]);
  return { results: rows.map(deliveryJson), totalRecords };
}

/** One delivery with every attempt (what was sent, what came back), for the dashboard's log. */
export async function deliveryDetail(db: Db, orgId: string, deliveryId: string) {
  const d = /^[0-9a-f-]{36}$/i.test(deliveryId)
    ? await db.webhookDelivery.findFirst({
        where: { id: deliveryId, orgId },
        include: { attempts: { orderBy: { number: "asc" } }, webhook: { select: { id: true, name: true, isActive: true } } },
      })
    : null;
  if (!d) throw new NotFoundError("Delivery not found", "DeliveryNotFound");
  return {
    delivery: deliveryJson(d),
    webhook: d.webhook,
    attempts: d.attempts.map((a) => ({
      number: a.number,
      requestHeaders: a.requestHeaders as Record<string, string>,
      requestBody: a.requestBody,
      httpStatus: a.httpStatus,
      responseBody: a.responseBody,
      errorMessage: a.errorMessage,
      durationMs: a.durationMs,
      createdOn: a.createdOn.toISOString(),
    })),
  };
}

/** The same event again, as a new delivery to the same URL, sent now. */
export async function replayDelivery(deps: DeliveryDeps, orgId: string, webhookName: WebhookRef, deliveryId: string) {
  const hook = await findWebhook(deps.db, orgId, webhookName);
  const old = /^[0-9a-f-]{36}$/i.test(deliveryId) ? await deps.db.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId: hook.id } }) : null;
  if (!old) throw new NotFoundError("Delivery not found", "DeliveryNotFound");
  const copy = await deps.db.webhookDelivery.create({
    data: {
      webhookId: hook.id,
      orgId,
      eventId: old.eventId,
      eventType: old.eventType,
      url: old.url,
      payload: old.payload as Prisma.InputJsonValue,
      maxAttempts: MAX_ATTEMPTS,
      nextAttemptAt: new Date(),
      leaseUntil: new Date(Date.now() + leaseMs(deps)),
    },
  });
  return deliveryJson(await attemptDelivery(deps, copy.id));
}

const DEFAULT_TEST_EVENT = "signature.document.completed";

/** The default Test Webhook data, shaped like the real event of that type (marked test: true). */
function samplePayload(eventType: string, now: Date): Record<string, unknown> {
  const base = { test: true, documentId: "00000000-0000-0000-0000-000000000000", name: "Sample document" };
  if (eventType === "signature.document.voided") return { ...base, reason: "Sample void reason", voidedAt: now.toISOString() };
  if (eventType === "signature.document.finalization_failed") return { ...base, attempts: 5, error: "Sample sealing error" };
  const signer = { recipientId: "00000000-0000-0000-0000-000000000001", email: "signer@example.com" };
  if (eventType === "signature.document.declined") return { ...base, ...signer, reason: "Sample decline reason", declinedAt: now.toISOString() };
  if (eventType === "signature.document.sent")
    return { ...base, recipients: [{ id: signer.recipientId, email: signer.email, name: "Sample Signer", signingOrder: 1 }] };
  if (eventType === "signature.document.viewed") return { ...base, ...signer, viewedAt: now.toISOString() };
  if (eventType === "signature.document.recipient_signed") return { ...base, ...signer, signedAt: now.toISOString(), isFinalSigner: true, remainingSigners: 0 };
  return {
    ...base,
    completedAt: now.toISOString(),
    documentHash: "0".repeat(64),
    recipients: [{ id: "00000000-0000-0000-0000-000000000001", name: "Sample Signer", email: "signer@example.com", signedAt: now.toISOString() }],
  };
}

/** Test Webhook (4.4): a real delivery per URL, sent now; the summary counts record errors only. */
export async function testWebhook(
  deps: DeliveryDeps,
  orgId: string,
  webhookName: WebhookRef,
  input: { eventType?: string; payload?: Record<string, unknown> },
) {
  const hook = await findWebhook(deps.db, orgId, webhookName);
  if (!hook.isActive) throw new BadRequestError("Cannot test inactive webhook", "WebhookInactive");
  const eventType = input.eventType ?? DEFAULT_TEST_EVENT;
  const now = new Date();
  const envelope: Envelope = {
    id: crypto.randomUUID(),
    event: eventType,
    createdOn: now.toISOString(),
    orgId,
    data: input.payload ?? samplePayload(eventType, now),
  };
  // Record every delivery first (a failure here is what the summary counts), then send them all at once.
  const ids: string[] = [];
  const errors: string[] = [];
  for (const url of hook.urls) {
    try {
      const { id } = await deps.db.webhookDelivery.create({
        data: {
          webhookId: hook.id,
          orgId,
          eventId: envelope.id,
          eventType,
          url,
          payload: envelope as unknown as Prisma.InputJsonValue,
          maxAttempts: MAX_ATTEMPTS,
          nextAttemptAt: new Date(),
          leaseUntil: new Date(Date.now() + leaseMs(deps)),
        },
      });
      ids.push(id);
    } catch (err) {
      errors.push(`${url}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  // The record exists: whatever happens while sending shows on the delivery, not in the summary.
  const deliveries = await Promise.all(
    ids.map(async (id) =>
      deliveryJson(
        await attemptDelivery(deps, id).catch(async (err) => {
          log.error({ deliveryId: id, err: err instanceof Error ? err.message : String(err) }, "test delivery attempt failed");
          return deps.db.webhookDelivery.findUniqueOrThrow({ where: { id } });
        }),
      ),
    ),
  );
  return { deliveries, summary: { total: hook.urls.length, successful: deliveries.length, failed: errors.length, errors } };
}

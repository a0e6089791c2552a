// Webhook delivery: domain events fan out into one delivery per (webhook, URL); a worker claims due
// deliveries from the database (FOR UPDATE SKIP LOCKED plus a lease) and sends them, signed, with
// retries on a back-off. Durable across restarts; two instances never send the same attempt.
import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import { BadRequestError, NotFoundError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { safeRequest } from "@/lib/net/safe-fetch";
import { standardHeaders } from "@/lib/webhooks/standard";
import { findWebhook, webhookSecret, type WebhookDeps, type WebhookRef } from "@/lib/webhooks/webhooks";

export const MAX_ATTEMPTS = 6;
/** Wait after attempt 1, 2, … (decisions.md), before scaling. */
export const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 8 * 3600_000];
const RESPONSE_BYTES = 2048;
/** Slack on top of the time the claimed attempts may take (database writes, a busy event loop). */
const LEASE_SLACK_MS = 60_000;
/** Deliveries a worker pass claims per concurrent sender. */
const CLAIM_PER_SENDER = 4;

/**
 * How long a claim holds: long enough for every attempt the holder may still be working through (a
 * sender goes through its share one after another, each up to the time-out), so another instance never
 * takes over a delivery that is still being sent.
 */
function leaseMs(deps: DeliveryDeps, attemptsInSeries = 1): number {
  return deps.timeoutMs * attemptsInSeries + LEASE_SLACK_MS;
}

export interface DeliveryDeps extends WebhookDeps {
  retryScale: number;
  /** Receiver time-out per attempt (decisions.md: 10 s; WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
}

export interface Envelope {
  id: string;
  event: string;
  createdOn: string;
  orgId: string;
  data: unknown;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (decisions.md). */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

type DeliveryRow = Awaited<ReturnType<Db["webhookDelivery"]["findFirstOrThrow"]>>;

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

/** Turns unprocessed domain events into deliveries, once each, even with several instances. */
export async function fanOutEvents(db: Db, limit = 100): Promise<number> {
  return db.$transaction(async (tx) => {
    const events = await tx.$queryRaw<{ id: string; orgId: string; type: string; payload: unknown; createdOn: Date }[]>`
      SELECT "id", "orgId", "type", "payload", "createdOn" FROM "domain_event"
      WHERE "processedAt" IS NULL ORDER BY "createdOn" LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
    let created = 0;
    for (const e of events) {
      const hooks = await tx.webhook.findMany({ where: { orgId: e.orgId, isActive: true, events: { has: e.type } } });
      const envelope: Envelope = { id: e.id, event: e.type, createdOn: new Date(e.createdOn).toISOString(), orgId: e.orgId, data: e.payload };
      const rows = hooks.flatMap((h) => h.urls.map((url) => ({ webhookId: h.id, orgId: e.orgId, eventId: e.id, eventType: e.type, url, payload: envelope as unknown as Prisma.InputJsonValue, maxAttempts: MAX_ATTEMPTS, nextAttemptAt: new Date() })));
      if (rows.length) await tx.webhookDelivery.createMany({ data: rows });
      created += rows.length;
      await tx.domainEvent.update({ where: { id: e.id }, data: { processedAt: new Date() } });
    }
    return created;
  });
}

/** Claims due deliveries under a lease; a crashed sender's lease runs out and another picks it up. */
async function claimDue(db: Db, limit: number, lease: number): Promise<string[]> {
  const now = new Date();
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE "webhook_delivery" SET "leaseUntil" = ${new Date(now.getTime() + lease)}
    WHERE "id" IN (
      SELECT "id" FROM "webhook_delivery"
      WHERE "status" IN ('pending', 'retrying') AND "nextAttemptAt" <= ${now} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
      ORDER BY "nextAttemptAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING "id"`;
  return rows.map((r) => r.id);
}

/** One attempt of one delivery (already claimed): send, record, and schedule the next or finish. */
export async function attemptDelivery(deps: DeliveryDeps, deliveryId: string): Promise<DeliveryRow> {
  const d = await deps.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, include: { webhook: true } });
  if (d.status === "delivered" || d.status === "failed") return d;
  const body = JSON.stringify(d.payload);
  const timestamp = Math.floor(Date.now() / 1000);
  const secret = webhookSecret(deps.instanceSecret, d.webhook);
  const headers = {
    "content-type": "application/json",
    "x-service-event": d.eventType,
    "x-service-delivery": d.id,
    "x-service-timestamp": String(timestamp),
    "x-service-signature": signatureHeader(secret, timestamp, body),
    // The event id, the same on every retry and replay: receivers deduplicate on it.
    ...standardHeaders(secret, d.eventId, timestamp, body),
  };
  const started = Date.now();
  let httpStatus: number | null = null;
  let responseBody: string | null = null;
  let errorMessage: string | null = null;
  try {
    const res = await safeRequest(d.url, { method: "POST", headers, body, truncate: true }, { field: "url", maxBytes: RESPONSE_BYTES, timeoutMs: deps.timeoutMs, allowPrivate: deps.allowPrivate });
    httpStatus = res.status;
    responseBody = res.body.toString("utf8");
    if (res.status < 200 || res.status >= 300) errorMessage = res.status >= 300 && res.status < 400 ? `Receiver answered ${res.status} (redirects are not followed)` : `Receiver answered ${res.status}`;
  } catch (err) {
    errorMessage = err instanceof Error ? err.message : String(err);
  }
  const attemptCount = d.attemptCount + 1;
  const delivered = errorMessage === null;
  // 410 Gone: the receiver says it will never want these again. Stop retrying and pause the webhook.
  const gone = httpStatus === 410;
  if (gone) errorMessage = "Receiver answered 410 Gone: the webhook is paused";
  const status = delivered ? "delivered" : gone || attemptCount >= d.maxAttempts ? "failed" : "retrying";
  const wait = BACKOFF_MS[Math.min(attemptCount - 1, BACKOFF_MS.length - 1)] * deps.retryScale;
  const [updated] = await deps.db.$transaction([
    deps.db.webhookDelivery.update({
      where: { id: d.id },
      data: { attemptCount, status, httpStatus, responseBody, errorMessage, leaseUntil: null, deliveredAt: delivered ? new Date() : null, nextAttemptAt: status === "retrying" ? new Date(Date.now() + wait) : null },
    }),
    deps.db.webhookAttempt.create({ data: { deliveryId: d.id, number: attemptCount, requestHeaders: { ...headers, "x-service-signature": "t=…,v1=…", "webhook-signature": "v1,…" }, requestBody: body, httpStatus, responseBody, errorMessage, durationMs: Date.now() - started } }),
    ...(gone ? [deps.db.webhook.updateMany({ where: { id: d.webhookId, isActive: true }, data: { isActive: false, pausedReason: `${d.url} answered 410 Gone on ${new Date().toISOString()}` } })] : []),
  ]);
  return updated;
}

/** One pass of the worker: fan out new events, then send what is due (a few at a time). */
export async function runDeliveryPass(deps: DeliveryDeps, concurrency = 8, options: { stopping?: () => boolean } = {}): Promise<number> {
  await fanOutEvents(deps.db);
  if (options.stopping?.()) return 0;
  const ids = await claimDue(deps.db, concurrency * CLAIM_PER_SENDER, leaseMs(deps, CLAIM_PER_SENDER));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, ids.length) }, async () => {
      // Stopping (shutdown): the attempts under way finish; no sender starts another.
      while (next < ids.length && !options.stopping?.()) {
        const id = ids[next++];
        await attemptDelivery(deps, id).catch((err) => log.error({ deliveryId: id, err: err instanceof Error ? err.message : String(err) }, "webhook delivery attempt failed"));
      }
    }),
  );
  // Claimed but not tried: give them back now rather than leave them to wait for the lease to run out.
  if (next < ids.length) await releaseClaims(deps.db, ids.slice(next));
  return next;
}

/** Ends the lease on deliveries this process claimed and did not try (nobody else may hold them). */
async function releaseClaims(db: Db, ids: string[]): Promise<void> {
  await db.webhookDelivery.updateMany({ where: { id: { in: ids } }, data: { leaseUntil: null } });
}

/** Passes until nothing is due or the time budget is spent (a cron call); returns attempts made. */
export async function drainDeliveries(deps: DeliveryDeps, options: { budgetMs: number }): Promise<number> {
  const deadline = Date.now() + options.budgetMs;
  let attempted = 0;
  while (Date.now() < deadline) {
    const n = await runDeliveryPass(deps);
    if (n === 0) break;
    attempted += n;
  }
  return attempted;
}

const worker = globalThis as unknown as { __quireWebhookWorker?: { stop: () => Promise<void> } };

/** Polls for work while the server runs; several instances may each run one. */
export function startDeliveryWorker(getDeps: () => Promise<DeliveryDeps>, intervalMs = 500): void {
  if (worker.__quireWebhookWorker) return;
  let pass: Promise<void> | null = null;
  let stopped = false;
  const stopping = () => stopped;
  const tick = () => {
    if (pass || stopped) return;
    pass = (async () => {
      try {
        // Keep going while there is a backlog; then wait for the next tick.
        while (!stopped && (await runDeliveryPass(await getDeps(), undefined, { stopping })) > 0);
      } catch (err) {
        log.error({ err: err instanceof Error ? err.message : String(err) }, "webhook worker pass failed");
      } finally {
        pass = null;
      }
    })();
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  worker.__quireWebhookWorker = {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await pass;
    },
  };
}

/**
 * Graceful shutdown: claims nothing more, waits for the attempts under way (each bounded by the
 * receiver time-out) and releases what was claimed but not tried, so nothing is lost or sent twice.
 */
export async function stopDeliveryWorker(): Promise<void> {
  await worker.__quireWebhookWorker?.stop();
}

export async function listDeliveries(db: Db, orgId: string, webhookName: WebhookRef, q: { limit: number; offset: number; status?: string; eventType?: string }) {
  const hook = await findWebhook(db, orgId, webhookName);
  const statuses = q.status === "retrying" ? ["retrying", "pending"] : q.status ? [q.status] : undefined;
  const where: Prisma.WebhookDeliveryWhereInput = { webhookId: hook.id, ...(statuses ? { status: { in: statuses } } : {}), ...(q.eventType ? { eventType: q.eventType } : {}) };
  const [rows, totalRecords] = await Promise.all([
    db.webhookDelivery.findMany({ where, orderBy: [{ createdOn: "desc" }, { id: "desc" }], take: q.limit, skip: q.offset }),
    db.webhookDelivery.count({ where }),
  ]);
  return { results: rows.map(deliveryJson), totalRecords };
}

/** One delivery with every attempt (what was sent, what came back), for the dashboard's log. */
export async function deliveryDetail(db: Db, orgId: string, deliveryId: string) {
  const d = /^[0-9a-f-]{36}$/i.test(deliveryId) ? await db.webhookDelivery.findFirst({ where: { id: deliveryId, orgId }, include: { attempts: { orderBy: { number: "asc" } }, webhook: { select: { id: true, name: true, isActive: true } } } }) : null;
  if (!d) throw new NotFoundError("Delivery not found", "DeliveryNotFound");
  return {
    delivery: deliveryJson(d),
    webhook: d.webhook,
    attempts: d.attempts.map((a) => ({ number: a.number, requestHeaders: a.requestHeaders as Record<string, string>, requestBody: a.requestBody, httpStatus: a.httpStatus, responseBody: a.responseBody, errorMessage: a.errorMessage, durationMs: a.durationMs, createdOn: a.createdOn.toISOString() })),
  };
}

/** The same event again, as a new delivery to the same URL, sent now. */
export async function replayDelivery(deps: DeliveryDeps, orgId: string, webhookName: WebhookRef, deliveryId: string) {
  const hook = await findWebhook(deps.db, orgId, webhookName);
  const old = /^[0-9a-f-]{36}$/i.test(deliveryId) ? await deps.db.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId: hook.id } }) : null;
  if (!old) throw new NotFoundError("Delivery not found", "DeliveryNotFound");
  const copy = await deps.db.webhookDelivery.create({ data: { webhookId: hook.id, orgId, eventId: old.eventId, eventType: old.eventType, url: old.url, payload: old.payload as Prisma.InputJsonValue, maxAttempts: MAX_ATTEMPTS, nextAttemptAt: new Date(), leaseUntil: new Date(Date.now() + leaseMs(deps)) } });
  return deliveryJson(await attemptDelivery(deps, copy.id));
}

const DEFAULT_TEST_EVENT = "signature.document.completed";

/** The default Test Webhook data, shaped like the real event of that type (marked test: true). */
function samplePayload(eventType: string, now: Date): Record<string, unknown> {
  const base = { test: true, documentId: "00000000-0000-0000-0000-000000000000", name: "Sample document" };
  if (eventType === "signature.document.voided") return { ...base, reason: "Sample void reason", voidedAt: now.toISOString() };
  if (eventType === "signature.document.finalization_failed") return { ...base, attempts: 5, error: "Sample sealing error" };
  const signer = { recipientId: "00000000-0000-0000-0000-000000000001", email: "signer@example.com" };
  if (eventType === "signature.document.sent") return { ...base, recipients: [{ id: signer.recipientId, email: signer.email, name: "Sample Signer", signingOrder: 1 }] };
  if (eventType === "signature.document.viewed") return { ...base, ...signer, viewedAt: now.toISOString() };
  if (eventType === "signature.document.recipient_signed") return { ...base, ...signer, signedAt: now.toISOString(), isFinalSigner: true, remainingSigners: 0 };
  return { ...base, completedAt: now.toISOString(), documentHash: "0".repeat(64), recipients: [{ id: "00000000-0000-0000-0000-000000000001", name: "Sample Signer", email: "signer@example.com", signedAt: now.toISOString() }] };
}

/** Test Webhook (4.4): a real delivery per URL, sent now; the summary counts record errors only. */
export async function testWebhook(deps: DeliveryDeps, orgId: string, webhookName: WebhookRef, input: { eventType?: string; payload?: Record<string, unknown> }) {
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
      const { id } = await deps.db.webhookDelivery.create({ data: { webhookId: hook.id, orgId, eventId: envelope.id, eventType, url, payload: envelope as unknown as Prisma.InputJsonValue, maxAttempts: MAX_ATTEMPTS, nextAttemptAt: new Date(), leaseUntil: new Date(Date.now() + leaseMs(deps)) } });
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

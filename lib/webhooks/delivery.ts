// Webhook delivery: domain events fan out into one delivery per (webhook, URL); a worker claims due
// deliveries from the database in batches (one statement: FOR UPDATE SKIP LOCKED plus a lease) and sends
// them, signed, over keep-alive connections, a bounded number at once, with retries on a back-off.
// Results are written in batches too (attempt-records.ts), each guarded by the attempt count it was
// claimed with. Durable across restarts; two instances never send the same attempt. Listing, replaying
// and testing deliveries: delivery-admin.ts.
import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import { runStatement, type SqlRunner } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { POOL_SOCKETS_PER_HOST, safeRequest } from "@/lib/net/safe-fetch";
import { standardHeaders } from "@/lib/webhooks/standard";
import { groupRecorder, recordAttempts, type AttemptRecord } from "@/lib/webhooks/attempt-records";
import { webhookSecret, type WebhookDeps } from "@/lib/webhooks/webhooks";
import { startPoller, stopPoller } from "@/lib/server/poller";

export const MAX_ATTEMPTS = 6;
/** Wait after attempt 1, 2, … (docs/contract.md "Webhooks"), before scaling. */
export const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 8 * 3600_000];
const RESPONSE_BYTES = 2048;
/** Slack on top of the time the claimed attempts may take (database writes, a busy event loop). */
const LEASE_SLACK_MS = 60_000;
/** Deliveries a worker pass claims at a time, per concurrent sender. */
const CLAIM_PER_SENDER = 4;
/** How long a pass goes on claiming more while it has work (it then finishes what it holds and ends). */
const PASS_CLAIMS_FOR_MS = 2_000;
/**
 * Attempts a worker pass has in flight at once: bounded, and well under the keep-alive pool's connections
 * per host, so the worker's requests never wait in the pool for a connection (their time-out would not
 * cover that wait), with room left for Test Webhook and replays.
 */
export const SENDERS = Math.min(16, POOL_SOCKETS_PER_HOST / 2);

/**
 * How long a claim holds: long enough for every attempt the holder may still be working through (a
 * sender goes through its share one after another, each up to the time-out), so another instance never
 * takes over a delivery that is still being sent.
 */
export function leaseMs(deps: DeliveryDeps, attemptsInSeries = 1): number {
  return deps.timeoutMs * attemptsInSeries + LEASE_SLACK_MS;
}

export interface DeliveryDeps extends WebhookDeps {
  /** The worker's own statements (fan out, claim, record, release) run here, not through Prisma, whose query compiler cost about a sixth of the main thread (issue 17). */
  sql: SqlRunner;
  retryScale: number;
  /** Receiver time-out per attempt (docs/contract.md "Webhooks": 10 s; WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
}

export interface Envelope {
  id: string;
  event: string;
  createdOn: string;
  orgId: string;
  data: unknown;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (docs/contract.md "Webhooks"). */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export type DeliveryRow = Awaited<ReturnType<Db["webhookDelivery"]["findFirstOrThrow"]>>;

/**
 * Turns unprocessed domain events into deliveries, once each, even with several instances: one statement
 * takes a batch of events (SKIP LOCKED), adds a delivery per URL of each active webhook subscribed to the
 * event (the envelope built in the database, so payloads never travel through the app) and marks the
 * events processed, all or nothing.
 */
export async function fanOutEvents(sql: SqlRunner, limit = 100): Promise<number> {
  const now = new Date();
  const [{ created }] = await runStatement<{ created: number }>(
    sql,
    Prisma.sql`
    WITH events AS (
      SELECT "id", "orgId", "type", "payload", "createdOn" FROM "domain_event"
      WHERE "processedAt" IS NULL ORDER BY "createdOn" LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ), processed AS (
      UPDATE "domain_event" AS e SET "processedAt" = ${now} FROM events WHERE e."id" = events."id"
    ), created AS (
      INSERT INTO "webhook_delivery" ("id", "webhookId", "orgId", "eventId", "eventType", "url", "payload", "maxAttempts", "nextAttemptAt", "updatedOn")
      SELECT gen_random_uuid(), h."id", e."orgId", e."id", e."type", u."url",
        -- The envelope; createdOn written as JavaScript's toISOString() would.
        jsonb_build_object('id', e."id", 'event', e."type", 'createdOn', to_char(e."createdOn" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'orgId', e."orgId", 'data', e."payload"),
        ${MAX_ATTEMPTS}::int, ${now}::timestamptz, ${now}::timestamptz
      FROM events AS e
      JOIN "webhook" AS h ON h."orgId" = e."orgId" AND h."isActive" AND e."type" = ANY(h."events")
      CROSS JOIN LATERAL unnest(h."urls") AS u("url")
      RETURNING 1
    )
    SELECT count(*)::int AS "created" FROM created`,
  );
  return created;
}

/** A delivery about to be tried, with its webhook's sealed secret: all an attempt needs, read with the claim. */
interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  url: string;
  payload: unknown;
  attemptCount: number;
  maxAttempts: number;
  secretEnc: string;
}

const CLAIMED_COLUMNS = Prisma.sql`d."id", d."webhookId", d."eventId", d."eventType", d."url", d."payload", d."attemptCount", d."maxAttempts", w."secretEnc"`;

/**
 * Claims a batch of due deliveries under a lease, in one statement that also reads each one's webhook
 * secret; a crashed sender's lease runs out and another picks the delivery up. The due ids are picked
 * once, as an array (an InitPlan), and the rows then updated by key: as `d."id" IN (SELECT … LIMIT …
 * FOR UPDATE SKIP LOCKED)` the planner could run the pick again for each row it updated (a semi-join),
 * and each run skipped the rows the statement had just updated and took the next ones, so one claim of
 * four leased a whole backlog of 1,000 (statistics taken while nothing was due).
 */
export async function claimDue(sql: SqlRunner, limit: number, lease: number): Promise<ClaimedDelivery[]> {
  const now = new Date();
  return runStatement<ClaimedDelivery>(
    sql,
    Prisma.sql`
    UPDATE "webhook_delivery" AS d SET "leaseUntil" = ${new Date(now.getTime() + lease)}
    FROM "webhook" AS w
    WHERE w."id" = d."webhookId" AND d."id" = ANY(ARRAY(
      SELECT "id" FROM "webhook_delivery"
      WHERE "status" IN ('pending', 'retrying') AND "nextAttemptAt" <= ${now} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
      ORDER BY "nextAttemptAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED))
    RETURNING ${CLAIMED_COLUMNS}`,
  );
}

/** One delivery still to be tried (the caller holds it: Test Webhook and replay create it leased). */
async function readUnfinished(sql: SqlRunner, deliveryId: string): Promise<ClaimedDelivery | undefined> {
  const [row] = await runStatement<ClaimedDelivery>(
    sql,
    Prisma.sql`
    SELECT ${CLAIMED_COLUMNS} FROM "webhook_delivery" AS d JOIN "webhook" AS w ON w."id" = d."webhookId"
    WHERE d."id" = ${deliveryId}::uuid AND d."status" IN ('pending', 'retrying')`,
  );
  return row;
}

/** Opened secrets by sealed value: a webhook's deliveries open it once; a regenerated secret is a new sealed value. */
const openedSecrets = new Map<string, string>();
const OPENED_SECRETS_MAX = 1000;

function secretOf(instanceSecret: string, secretEnc: string): string {
  const key = `${instanceSecret}\n${secretEnc}`;
  let secret = openedSecrets.get(key);
  if (secret === undefined) {
    if (openedSecrets.size >= OPENED_SECRETS_MAX) openedSecrets.clear();
    secret = webhookSecret(instanceSecret, { secretEnc });
    openedSecrets.set(key, secret);
  }
  return secret;
}

/** The body and headers of one attempt, signed both ways (X-Service-Signature and Standard Webhooks). */
function signedRequest(d: ClaimedDelivery, secret: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(d.payload);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    "content-type": "application/json",
    "x-service-event": d.eventType,
    "x-service-delivery": d.id,
    "x-service-timestamp": String(timestamp),
    "x-service-signature": signatureHeader(secret, timestamp, body),
    // The event id, the same on every retry and replay: receivers deduplicate on it.
    ...standardHeaders(secret, d.eventId, timestamp, body),
  };
  return { body, headers };
}

/** What one attempt changes: the delivery's next state, its log entry, and the webhook's pause on 410 Gone. */
/** Text as PostgreSQL stores it (no NUL character), so one odd receiver answer cannot fail a batch write. */
function storable(text: string | null): string | null {
  return text === null ? null : text.replaceAll("\u0000", "\uFFFD");
}

/** Sends one claimed delivery, signed, over the keep-alive pool, and says what to record. */
async function sendAttempt(deps: DeliveryDeps, d: ClaimedDelivery): Promise<AttemptRecord> {
  const { body, headers } = signedRequest(d, secretOf(deps.instanceSecret, d.secretEnc));
  const started = Date.now();
  let httpStatus: number | null = null;
  let responseBody: string | null = null;
  let errorMessage: string | null = null;
  try {
    const res = await safeRequest(
      d.url,
      { method: "POST", headers, body, truncate: true },
      { field: "url", maxBytes: RESPONSE_BYTES, timeoutMs: deps.timeoutMs, allowPrivate: deps.allowPrivate, keepAlive: true },
    );
    httpStatus = res.status;
    responseBody = res.body.toString("utf8");
    if (res.status < 200 || res.status >= 300)
      errorMessage = res.status >= 300 && res.status < 400 ? `Receiver answered ${res.status} (redirects are not followed)` : `Receiver answered ${res.status}`;
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
  return {
    id: d.id,
    webhookId: d.webhookId,
    claimedCount: d.attemptCount,
    attemptCount,
    status,
    httpStatus,
    responseBody: storable(responseBody),
    errorMessage: storable(errorMessage),
    deliveredAt: delivered ? new Date() : null,
    nextAttemptAt: status === "retrying" ? new Date(Date.now() + wait) : null,
    requestHeaders: { ...headers, "x-service-signature": "t=…,v1=…", "webhook-signature": "v1,…" },
    requestBody: body,
    durationMs: Date.now() - started,
    pausedReason: gone ? `${d.url} answered 410 Gone on ${new Date().toISOString()}` : null,
  };
}

/**
 * Records a batch of attempts in one statement: each delivery moves on only if it still has the attempt
 * count it was claimed with (else another holder recorded this attempt: nothing is written twice), its
 * attempt log entry is added only then, and a 410 Gone pauses its webhook. Returns the ids recorded.
 */
export async function attemptDelivery(deps: DeliveryDeps, deliveryId: string): Promise<DeliveryRow> {
  const claimed = await readUnfinished(deps.sql, deliveryId);
  if (claimed) await recordAttempts(deps.sql, [await sendAttempt(deps, claimed)]);
  return deps.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
}

/**
 * One pass of the worker: claim a batch of due deliveries (fanning out new events when fewer are due
 * than a batch) and send them with `concurrency` senders, recording them in batches as they finish.
 * While the senders still have work in hand, the next batch is claimed, so they do not wait for the end
 * of a batch; a pass stops claiming after PASS_CLAIMS_FOR_MS (or once nothing is due) and ends when
 * what it claimed is done.
 */
export async function runDeliveryPass(deps: DeliveryDeps, concurrency = SENDERS, options: { stopping?: () => boolean } = {}): Promise<number> {
  const stopping = () => options.stopping?.() ?? false;
  const batchSize = concurrency * CLAIM_PER_SENDER;
  // A batch is claimed when at most `concurrency` claimed deliveries wait, with as many in flight: a sender
  // may go through two more attempts than its share of the batch before the last of it.
  const lease = leaseMs(deps, CLAIM_PER_SENDER + 2);
  const claimUntil = Date.now() + PASS_CLAIMS_FOR_MS;
  const queue: ClaimedDelivery[] = [];
  let exhausted = false;
  let refilling: Promise<void> | undefined;
  const claimBatch = async () => {
    if (stopping()) {
      exhausted = true;
      return;
    }
    const take = async (limit: number) => {
      const batch = await claimDue(deps.sql, limit, lease);
      queue.push(...batch);
      return batch.length;
    };
    let claimed = await take(batchSize);
    // New events become deliveries only when what is due does not fill a batch: a fan-out writes a
    // delivery per URL of every subscribed webhook, and while it runs the database (the embedded one has
    // one thread) answers no claim, so it must not stand before a backlog. The short batch is already in
    // the queue for the senders still at work.
    if (claimed < batchSize && (await fanOutEvents(deps.sql)) > 0 && !stopping()) claimed += await take(batchSize - claimed);
    exhausted = claimed < batchSize || Date.now() >= claimUntil;
  };
  const claimAhead = () => {
    refilling ??= claimBatch()
      .catch((err) => {
        exhausted = true;
        log.error({ err: err instanceof Error ? err.message : String(err) }, "webhook claim failed");
      })
      .finally(() => (refilling = undefined));
  };
  /** The next delivery to send; none once stopping, or once nothing more is claimed. */
  const next = async (): Promise<ClaimedDelivery | undefined> => {
    for (;;) {
      // Stopping (shutdown): the attempts under way finish; no sender starts another.
      if (stopping()) return undefined;
      if (queue.length <= concurrency && !exhausted) claimAhead();
      if (queue.length) return queue.shift();
      if (!refilling) return undefined;
      await refilling;
    }
  };

  await claimBatch();
  const recorder = groupRecorder(deps.sql);
  let attempted = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let d = await next(); d; d = await next()) {
        attempted++;
        const claimed = d;
        await sendAttempt(deps, claimed).then(recorder.add, (err) =>
          log.error({ deliveryId: claimed.id, err: err instanceof Error ? err.message : String(err) }, "webhook delivery attempt failed"),
        );
      }
    }),
  );
  await refilling;
  await recorder.settled();
  // Claimed but not tried: give them back now rather than leave them to wait for the lease to run out.
  if (queue.length)
    await releaseClaims(
      deps.sql,
      queue.map((d) => d.id),
    );
  return attempted;
}

/** Ends the lease on deliveries this process claimed and did not try (nobody else may hold them). */
async function releaseClaims(sql: SqlRunner, ids: string[]): Promise<void> {
  await sql.query(`UPDATE "webhook_delivery" SET "leaseUntil" = NULL WHERE "id" = ANY($1::uuid[])`, [ids]);
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

/** Polls for work while the server runs; several instances may each run one. Idle, it looks every 2 s. */
export function startDeliveryWorker(getDeps: () => Promise<DeliveryDeps>, intervalMs = 500): void {
  startPoller({
    name: "webhook deliveries",
    pass: async (stopping) => runDeliveryPass(await getDeps(), undefined, { stopping }),
    busyMs: intervalMs,
    idleMs: 2_000,
  });
}

/**
 * Graceful shutdown: claims nothing more, waits for the attempts under way (each bounded by the
 * receiver time-out) and releases what was claimed but not tried, so nothing is lost or sent twice.
 */
export async function stopDeliveryWorker(): Promise<void> {
  await stopPoller("webhook deliveries");
}

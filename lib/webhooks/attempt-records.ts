// Writing what each delivery attempt did: in batches (group commit), each row guarded by the attempt count
// it was claimed with, so an attempt whose lease ran out and that another instance took over is recorded
// once. A batch that fails is retried row by row, so one bad row cannot lose the others.
import { runStatement, type SqlRunner } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";

export interface AttemptRecord {
  id: string;
  webhookId: string;
  /** The attempt count the delivery was claimed with: the write is refused if it moved on meanwhile. */
  claimedCount: number;
  attemptCount: number;
  status: string;
  httpStatus: number | null;
  responseBody: string | null;
  errorMessage: string | null;
  deliveredAt: Date | null;
  nextAttemptAt: Date | null;
  requestHeaders: Record<string, string>;
  requestBody: string;
  durationMs: number;
  pausedReason: string | null;
}

/**
 * The deliveries are found by key alone (`id = ANY(…)`: the primary key's index, a batch's rows): no
 * other condition on them may let the planner read the open deliveries through the status index, which
 * it did when its statistics said few were open (a fresh table, or a burst after quiet hours), and then
 * every write of a few attempts read the whole backlog. The attempt count is the guard: this statement
 * is the only one that moves a delivery's status, and it always moves the count with it.
 */
export function recordStatement(records: AttemptRecord[]): Prisma.Sql {
  return Prisma.sql`
    WITH v AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS v(
        "id" uuid, "webhookId" uuid, "claimedCount" int, "attemptCount" int, "status" text, "httpStatus" int, "responseBody" text,
        "errorMessage" text, "deliveredAt" timestamptz, "nextAttemptAt" timestamptz, "requestHeaders" jsonb, "requestBody" text,
        "durationMs" int, "pausedReason" text)
    ), recorded AS (
      UPDATE "webhook_delivery" AS d
      SET "attemptCount" = v."attemptCount", "status" = v."status", "httpStatus" = v."httpStatus", "responseBody" = v."responseBody",
        "errorMessage" = v."errorMessage", "leaseUntil" = NULL, "deliveredAt" = v."deliveredAt", "nextAttemptAt" = v."nextAttemptAt", "updatedOn" = now()
      FROM v WHERE d."id" = ANY(ARRAY(SELECT "id" FROM v)) AND d."id" = v."id" AND d."attemptCount" = v."claimedCount"
      RETURNING d."id"
    ), paused AS (
      UPDATE "webhook" AS w SET "isActive" = false, "pausedReason" = v."pausedReason", "updatedOn" = now()
      FROM v JOIN recorded ON recorded."id" = v."id"
      WHERE w."id" = v."webhookId" AND w."isActive" AND v."pausedReason" IS NOT NULL
    ), logged AS (
      INSERT INTO "webhook_attempt" ("id", "deliveryId", "number", "requestHeaders", "requestBody", "httpStatus", "responseBody", "errorMessage", "durationMs")
      SELECT gen_random_uuid(), v."id", v."attemptCount", v."requestHeaders", v."requestBody", v."httpStatus", v."responseBody", v."errorMessage", v."durationMs"
      FROM v JOIN recorded ON recorded."id" = v."id"
    )
    SELECT "id"::text FROM recorded`;
}

export async function recordAttempts(sql: SqlRunner, records: AttemptRecord[]): Promise<string[]> {
  const rows = await runStatement<{ id: string }>(sql, recordStatement(records));
  return rows.map((r) => r.id);
}

/**
 * How long a finished attempt waits for others to share its write, and how many one write takes at most
 * (group commit: under load one statement records many deliveries; the wait is short next to an attempt).
 */
const RECORD_LINGER_MS = 20;
const RECORD_BATCH = 64;

/** Writes finished attempts in batches, one write at a time; `settled()` resolves once all are written. */
export function groupRecorder(sql: SqlRunner) {
  let waiting: AttemptRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  let queued = false;
  let writes = Promise.resolve();
  const startWrite = () => {
    clearTimeout(timer);
    timer = undefined;
    if (queued) return;
    queued = true;
    // The batch is taken when the write starts: what finished while the previous write ran goes with it.
    writes = writes.then(() => {
      queued = false;
      const batch = waiting;
      waiting = [];
      return batch.length ? writeBatch(sql, batch) : undefined;
    });
  };
  return {
    add(record: AttemptRecord) {
      waiting.push(record);
      if (waiting.length >= RECORD_BATCH) startWrite();
      else timer ??= setTimeout(startWrite, RECORD_LINGER_MS);
    },
    settled() {
      if (waiting.length) startWrite();
      return writes;
    },
  };
}

/** Records a batch; if that fails, one by one, so one bad row does not hold back the others. */
async function writeBatch(sql: SqlRunner, batch: AttemptRecord[]): Promise<void> {
  const failed = new Set<string>();
  const recordOrLog = (records: AttemptRecord[]) =>
    recordAttempts(sql, records).catch((err) => {
      logRecordFailure(records, err);
      if (records.length === 1) failed.add(records[0].id);
      return null;
    });
  const recorded = (await recordOrLog(batch)) ?? (await Promise.all(batch.map((r) => recordOrLog([r])))).flatMap((ids) => ids ?? []);
  logNotRecorded(
    batch.filter((r) => !failed.has(r.id)),
    new Set(recorded),
  );
}

function logRecordFailure(batch: AttemptRecord[], err: unknown): void {
  log.error({ deliveryIds: batch.map((r) => r.id), err: err instanceof Error ? err.message : String(err) }, "recording webhook attempts failed");
}

/** An attempt another holder recorded first (its lease had run out): sent twice, recorded once. */
function logNotRecorded(batch: AttemptRecord[], recorded: Set<string>): void {
  const late = batch.filter((r) => !recorded.has(r.id)).map((r) => r.id);
  if (late.length) log.warn({ deliveryIds: late }, "webhook attempts not recorded: the deliveries had moved on (lease ran out)");
}

/** One attempt of one delivery the caller holds: send, record, and return the delivery as it now is. */

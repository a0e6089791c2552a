// Admits one API request for a key already identified: in one statement, the key must still be unrevoked
// (a revocation on any instance is seen by the next request everywhere), its organization's plan is read
// fresh, and the per-key fixed-window count, kept in the database so every instance shares it, goes up
// (on the embedded database, which one process alone opens, it is kept in memory: process-admission.ts).
// That count commits without waiting for its WAL to reach the disk (synchronous_commit off for this
// statement's own transaction only): every request of a key updates the same row, so with a synchronous
// commit each one waited, row held, for its flush, and the key's requests queued behind each other's
// flushes. Seen by every instance at once all the same; a crash of PostgreSQL itself may forget the last
// fraction of a second of counts, which only lets a few more requests through (ADR 0004, addendum).
import type { Plan } from "@/lib/auth/roles";
import type { SqlRunner } from "@/lib/db/driver";
import { RateLimitedError, UnauthenticatedError } from "@/lib/errors";

/** The rate limit's fixed window: a key's requests are counted per minute of the clock. */
const RATE_WINDOW_MS = 60_000;

/** The start of the window the instant now falls in. */
export function rateWindowOf(now: number): number {
  return Math.floor(now / RATE_WINDOW_MS) * RATE_WINDOW_MS;
}

/** RateLimitedError, with the seconds left in the window, for a request counted past the plan's limit. */
export function refuseOverLimit(count: number, plan: Plan, windowStart: number, now: number): void {
  if (count <= plan.rateLimitPerMinute) return;
  throw new RateLimitedError(Math.max(1, Math.ceil((windowStart + RATE_WINDOW_MS - now) / 1000)));
}

interface AdmitRow {
  count: number | null;
  hasFileDownload: boolean;
  emailOtp: boolean;
  smsOtp: boolean;
  maxDeliverables: number;
  maxStorageBytes: string | bigint;
  smsAllowance: number;
  rateLimitPerMinute: number;
}

const ADMIT = `
  WITH k AS (
    SELECT k.id, o."hasFileDownload", o."emailOtp", o."smsOtp", o."maxDeliverables", o."maxStorageBytes", o."smsAllowance", o."rateLimitPerMinute"
    FROM api_key k JOIN organization o ON o.id = k."orgId"
    WHERE k.id = $1::uuid AND k."revokedAt" IS NULL
  ), counted AS (
    INSERT INTO rate_limit_window ("keyId", "windowStart", "count")
    SELECT id, $2::timestamptz, 1 FROM k WHERE $3::boolean AND set_config('synchronous_commit', 'off', true) IS NOT NULL
    ON CONFLICT ("keyId", "windowStart") DO UPDATE SET "count" = rate_limit_window."count" + 1
    RETURNING "count"
  )
  SELECT k.*, (SELECT "count" FROM counted) AS "count" FROM k`;

/**
 * The key's plan, once the request is admitted; UnauthenticatedError for a revoked or deleted key. Run
 * it on its own, never inside a transaction that writes anything else: that would commit asynchronously too.
 */
export async function admitKey(sql: SqlRunner, keyId: string, options: { rateLimited: boolean; now?: number }): Promise<Plan> {
  const now = options.now ?? Date.now();
  const windowStart = rateWindowOf(now);
  const [row] = await sql.query<AdmitRow>(ADMIT, [keyId, new Date(windowStart), options.rateLimited]);
  if (!row) throw new UnauthenticatedError();
  const { count: rawCount, maxStorageBytes, ...rest } = row;
  const plan: Plan = { ...rest, maxStorageBytes: BigInt(maxStorageBytes) };
  if (!options.rateLimited) return plan;
  const count = Number(rawCount ?? 0);
  // Old windows are useless; sweep them now and then rather than on every request.
  if (count === 1 && Math.random() < 0.05) await sql.query(`DELETE FROM rate_limit_window WHERE "windowStart" < $1`, [new Date(now - 10 * RATE_WINDOW_MS)]);
  refuseOverLimit(count, plan, windowStart, now);
  return plan;
}

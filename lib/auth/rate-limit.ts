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
  id: string;
  count: number | null;
  hasFileDownload: boolean;
  emailOtp: boolean;
  smsOtp: boolean;
  maxDeliverables: number;
  maxStorageBytes: string;
  smsAllowance: number;
  rateLimitPerMinute: number;
}

/** The admission's common table expressions, its three parameters numbered from `first`: the key, the window, whether to count. */
const admitCtes = (first: number) => `
  k AS (
    SELECT k.id, o."hasFileDownload", o."emailOtp", o."smsOtp", o."maxDeliverables", o."maxStorageBytes"::text, o."smsAllowance", o."rateLimitPerMinute"
    FROM api_key k JOIN organization o ON o.id = k."orgId"
    WHERE k.id = $${first}::uuid AND k."revokedAt" IS NULL
  ), counted AS (
    INSERT INTO rate_limit_window ("keyId", "windowStart", "count")
    SELECT id, $${first + 1}::timestamptz, 1 FROM k WHERE $${first + 2}::boolean AND set_config('synchronous_commit', 'off', true) IS NOT NULL
    ON CONFLICT ("keyId", "windowStart") DO UPDATE SET "count" = rate_limit_window."count" + 1
    RETURNING "count"
  )`;
const ADMITTED_ROW = `SELECT k.*, (SELECT "count" FROM counted) AS "count" FROM k`;
const ADMIT = `WITH ${admitCtes(1)} ${ADMITTED_ROW}`;

/**
 * A key's admission carried by another statement (ADR 0022): its CTEs go in that statement's WITH,
 * its column in the select list, and settle() reads that column's value. The statement must write
 * nothing else: the count commits asynchronously, and so would the rest.
 */
export interface FoldedAdmission {
  /** The common table expressions, without WITH, their parameters numbered from `first`. */
  ctes(first: number): string;
  /** A scalar expression over the CTEs: the admitted row as JSON, null for a revoked or deleted key. */
  readonly column: string;
  readonly params: unknown[];
  /**
   * The plan once admitted; UnauthenticatedError or RateLimitedError as admitKey's. Called with the
   * column's value as soon as the statement has run, and only then.
   */
  settle(value: unknown): Promise<Plan>;
}

/** What a statement that may carry a fold reads back: the admission's column, when it had one. */
export type CarriedRow = { admission?: unknown };

/**
 * A statement's side of a fold that may be absent (ADR 0022): `with` opens its SQL (nothing without a
 * fold), or, for a statement with CTEs of its own, `trailing` follows them in its WITH; `column` ends
 * its select list, `params` follow its own (the CTEs numbered from `firstParam`), and `plan(row)` is the
 * request's plan once it has run: the fold settled from its first row (the admission's 401 or 429
 * thrown before anything the statement found), or `assumed` without a fold (none for a statement whose
 * caller needs no plan). The statement must answer a row whatever it finds (an aggregate, say): without
 * one the fold reads as a revoked key.
 */
export function carriedAdmission<Assumed extends Plan | undefined = undefined>(admission: FoldedAdmission | undefined, firstParam: number, assumed?: Assumed) {
  const ctes = admission?.ctes(firstParam);
  return {
    with: ctes === undefined ? "" : `WITH ${ctes}`,
    trailing: ctes === undefined ? "" : `, ${ctes}`,
    column: admission ? `, ${admission.column} AS "admission"` : "",
    params: admission?.params ?? [],
    plan: (row: CarriedRow): Promise<Plan | Assumed> => (admission ? admission.settle(row.admission) : Promise.resolve(assumed as Assumed)),
  };
}

/** `sql` is only needed now and then, to sweep old windows. */
export function foldAdmission(sql: () => Promise<SqlRunner>, keyId: string, options: { rateLimited: boolean; now?: number }): FoldedAdmission {
  const now = options.now ?? Date.now();
  return {
    ctes: admitCtes,
    column: `(SELECT row_to_json(a) FROM (${ADMITTED_ROW}) a)`,
    params: [keyId, new Date(rateWindowOf(now)), options.rateLimited],
    settle: (value) => settleAdmission(sql, (typeof value === "string" ? JSON.parse(value) : value) as AdmitRow | null, options.rateLimited, now),
  };
}

/**
 * The key's plan, once the request is admitted; UnauthenticatedError for a revoked or deleted key. Run
 * it on its own, never inside a transaction that writes anything else: that would commit asynchronously too.
 */
export async function admitKey(sql: SqlRunner, keyId: string, options: { rateLimited: boolean; now?: number }): Promise<Plan> {
  const now = options.now ?? Date.now();
  const [row] = await sql.query<AdmitRow>(ADMIT, [keyId, new Date(rateWindowOf(now)), options.rateLimited]);
  return settleAdmission(async () => sql, row ?? null, options.rateLimited, now);
}

async function settleAdmission(sql: () => Promise<SqlRunner>, row: AdmitRow | null, rateLimited: boolean, now: number): Promise<Plan> {
  if (!row) throw new UnauthenticatedError();
  const { id: _id, count: rawCount, maxStorageBytes, ...rest } = row;
  const plan: Plan = { ...rest, maxStorageBytes: BigInt(maxStorageBytes) };
  if (!rateLimited) return plan;
  const count = Number(rawCount ?? 0);
  // Old windows are useless; sweep them now and then rather than on every request.
  if (count === 1 && Math.random() < 0.05)
    await (await sql()).query(`DELETE FROM rate_limit_window WHERE "windowStart" < $1`, [new Date(now - 10 * RATE_WINDOW_MS)]);
  refuseOverLimit(count, plan, rateWindowOf(now), now);
  return plan;
}

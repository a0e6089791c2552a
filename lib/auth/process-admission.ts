// Admission for a database that this process alone opens: the embedded PGlite (ADR 0021). No other
// instance can revoke a key, change a plan or spend a key's rate, so what admitKey reads and counts in
// the database on every request is known here: the count lives in memory (exact, one process counts),
// and a key's validity and plan are read again only after the database says something they depend on
// changed. Its triggers notify quire_admission when a key is revoked, deleted or re-pointed, or a plan
// is changed (prisma/migrations/20261130141500_admission_changes_notify), and the embedded database's
// thread posts that notification before the reply to the statement that committed it, so the next
// request, even from the caller that revoked the key, is checked afresh. The minute's counts are written
// to rate_limit_window at a graceful shutdown and read back when the next start begins listening.
import { admitKey, rateWindowOf, refuseOverLimit } from "@/lib/auth/rate-limit";
import type { Plan } from "@/lib/auth/roles";
import { getConfig } from "@/lib/config";
import { getDriver, type SqlRunner } from "@/lib/db/driver";

/** The channel the migration's triggers notify. */
export const ADMISSION_CHANNEL = "quire_admission";

/** What this process knows of a key between requests. */
export interface AdmissionMemo {
  identity: { keyId: string };
  plan: Plan;
  /** The epoch under which the key was last read valid, with this plan; undefined: never here. */
  checkedEpoch?: number;
}

interface AdmissionState {
  /** Goes up with every notification: a key read valid under an older epoch is read again. */
  epoch: number;
  listening?: Promise<void>;
  /** The current window's counts per key; replaced whole when the window turns, so it holds one minute's keys. */
  window: { start: number; counts: Map<string, number> };
}

// On globalThis: Next.js may load this module once per bundle; the epoch and the counts are the process's.
const registry = globalThis as unknown as { __quireProcessAdmission?: AdmissionState };
const state: AdmissionState = (registry.__quireProcessAdmission ??= { epoch: 0, window: { start: 0, counts: new Map() } });

/** Bumps the epoch: every key is read again at its next request. */
function admissionChanged(): void {
  state.epoch++;
}

function listening(sql: SqlRunner): Promise<void> {
  state.listening ??= (async () => {
    const driver = await getDriver(getConfig().database);
    if (driver.kind !== "pglite") throw new Error("keys are admitted in memory only on a database this process alone opens");
    await driver.pglite.listen(ADMISSION_CHANNEL, admissionChanged);
    // What the last run kept at its shutdown (keepRateCounts); older windows no longer count.
    const kept = await sql.query<{ keyId: string; start: Date; count: number }>(
      `DELETE FROM rate_limit_window RETURNING "keyId", "windowStart" AS "start", "count"`,
    );
    const start = rateWindowOf(Date.now());
    const counts = new Map(kept.filter((row) => new Date(row.start).getTime() === start).map((row) => [row.keyId, Number(row.count)]));
    state.window = { start, counts };
  })().catch((err) => {
    state.listening = undefined; // the next request tries again; this one fails as a database error would
    throw err;
  });
  return state.listening;
}

/**
 * The key's plan, once the request is admitted: UnauthenticatedError for a revoked or deleted key,
 * RateLimitedError past its plan's rate. A statement runs only when the key was not yet read valid
 * under the current epoch.
 */
export async function admitInProcess(sql: SqlRunner, memo: AdmissionMemo, options: { rateLimited: boolean; now?: number }): Promise<Plan> {
  await listening(sql);
  if (memo.checkedEpoch !== state.epoch) {
    // The epoch as the read starts: a change committed while it runs leaves the key due for another.
    const epoch = state.epoch;
    memo.plan = await admitKey(sql, memo.identity.keyId, { rateLimited: false });
    memo.checkedEpoch = epoch;
  }
  if (!options.rateLimited) return memo.plan;
  const now = options.now ?? Date.now();
  const start = rateWindowOf(now);
  if (state.window.start !== start) state.window = { start, counts: new Map() };
  const count = (state.window.counts.get(memo.identity.keyId) ?? 0) + 1;
  state.window.counts.set(memo.identity.keyId, count);
  refuseOverLimit(count, memo.plan, start, now);
  return memo.plan;
}

/** At a graceful shutdown: the minute's counts, kept so that a start within the same minute goes on from them. */
export async function keepRateCounts(sql: SqlRunner): Promise<void> {
  const { start, counts } = state.window;
  if (counts.size === 0) return;
  await sql.query(
    `INSERT INTO rate_limit_window ("keyId", "windowStart", "count")
     SELECT k, $1::timestamptz, n FROM unnest($2::uuid[], $3::int4[]) AS c(k, n)
     ON CONFLICT ("keyId", "windowStart") DO UPDATE SET "count" = EXCLUDED."count"`,
    [new Date(start), [...counts.keys()], [...counts.values()]],
  );
}

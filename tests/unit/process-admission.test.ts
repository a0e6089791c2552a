// Keys admitted in memory on the embedded database (ADR 0021), against the real thing: PGlite on its own
// thread with every migration applied. A key is read once, then admitted without a statement until the
// database notifies a change it depends on; a revocation, a deletion or a plan change is seen by the very
// next admission; changes it does not depend on read nothing; the count per key and window is exact
// however many requests arrive at once.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AdmissionMemo } from "@/lib/auth/process-admission";
import type { Plan } from "@/lib/auth/roles";
import { type Driver, type SqlRunner, sqlRunner } from "@/lib/db/driver";
import { applyMigrations } from "@/lib/db/migrate";
import { openPGliteWorker, type PGliteLike } from "@/lib/db/pglite-remote";
import { RateLimitedError, UnauthenticatedError } from "@/lib/errors";

const opened = vi.hoisted(() => ({ driver: null as null | Promise<Driver> }));
vi.mock("@/lib/config", () => ({ getConfig: () => ({ database: { kind: "pglite", dataDir: "memory://" } }) }));
vi.mock("@/lib/db/driver", async (original) => ({ ...(await original<object>()), getDriver: () => opened.driver }));
const { admitInProcess } = await import("@/lib/auth/process-admission");

let pglite: PGliteLike;
let sql: SqlRunner;
/** Statements the admission ran, counted on a runner of its own. */
let statements = 0;
let counted: SqlRunner;

beforeAll(async () => {
  pglite = await openPGliteWorker("memory://");
  opened.driver = Promise.resolve({ kind: "pglite", pglite });
  sql = sqlRunner({ kind: "pglite", pglite });
  await applyMigrations(sql);
  counted = {
    ...sql,
    query: (text, params, options) => {
      statements++;
      return sql.query(text, params, options);
    },
  };
  // The process's first admission begins listening and takes back the counts a graceful shutdown kept.
  await admitInProcess(sql, (await keyOf()).memo, { rateLimited: true });
}, 60_000);
afterAll(async () => {
  await pglite?.close();
});

/** An organization with one key, and what this process would know of the key once identified. */
async function keyOf(rateLimitPerMinute = 1_000): Promise<{ orgId: string; keyId: string; memo: AdmissionMemo }> {
  const [orgId, userId, keyId] = [randomUUID(), randomUUID(), randomUUID()];
  await sql.query(`INSERT INTO organization (id, name, slug, "rateLimitPerMinute", "updatedOn") VALUES ($1, 'Org', $2, $3, now())`, [
    orgId,
    `o-${orgId}`,
    rateLimitPerMinute,
  ]);
  await sql.query(`INSERT INTO "user" (id, email, name, "passwordHash", "updatedOn") VALUES ($1, $2, 'U', 'x', now())`, [userId, `${userId}@example.com`]);
  await sql.query(`INSERT INTO api_key (id, "orgId", name, role, prefix, hash, "userId") VALUES ($1, $2, 'k', 'viewer', $3, 'h', $4)`, [
    keyId,
    orgId,
    `qk_${keyId.slice(0, 12)}`,
    userId,
  ]);
  return { orgId, keyId, memo: { identity: { keyId }, plan: {} as Plan } };
}

async function statementsFor(run: () => Promise<unknown>): Promise<number> {
  const before = statements;
  await run();
  return statements - before;
}

const admit = (memo: AdmissionMemo, now?: number) => admitInProcess(counted, memo, { rateLimited: true, now });

describe("keys admitted in memory on the embedded database", () => {
  it("reads a key once, then admits it without a statement", async () => {
    const { memo } = await keyOf();
    expect(await statementsFor(() => admit(memo))).toBe(1);
    expect(memo.plan.rateLimitPerMinute).toBe(1_000);
    expect(await statementsFor(async () => Promise.all(Array.from({ length: 20 }, () => admit(memo))))).toBe(0);
  });

  it("refuses a revoked key at its very next admission", async () => {
    const { keyId, memo } = await keyOf();
    await admit(memo);
    await sql.query(`UPDATE api_key SET "revokedAt" = now() WHERE id = $1`, [keyId]);
    await expect(admit(memo)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it("refuses a key whose organization was deleted, and sees a revocation committed inside a transaction", async () => {
    const a = await keyOf();
    const b = await keyOf();
    await Promise.all([admit(a.memo), admit(b.memo)]);
    await sql.query(`DELETE FROM organization WHERE id = $1`, [a.orgId]);
    await expect(admit(a.memo)).rejects.toBeInstanceOf(UnauthenticatedError);
    await admit(b.memo);
    await sql.transaction(async (tx) => {
      await tx.query(`UPDATE api_key SET "revokedAt" = now() WHERE id = $1`, [b.keyId]);
      // Not committed yet: the key is still valid, and nothing was notified.
      expect(await statementsFor(() => admit(b.memo))).toBe(0);
    });
    await expect(admit(b.memo)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it("reads a changed plan at the next admission", async () => {
    const { orgId, memo } = await keyOf();
    await admit(memo);
    await sql.query(`UPDATE organization SET "maxDeliverables" = 7, "hasFileDownload" = false WHERE id = $1`, [orgId]);
    const plan = await admit(memo);
    expect(plan).toMatchObject({ maxDeliverables: 7, hasFileDownload: false });
  });

  it("reads nothing again after changes the admission does not depend on", async () => {
    const { orgId, keyId, memo } = await keyOf();
    await admit(memo);
    await sql.query(`UPDATE api_key SET "lastUsedAt" = now(), name = 'renamed' WHERE id = $1`, [keyId]);
    await sql.query(`UPDATE organization SET name = 'Renamed', "signingReminderDays" = 3, "updatedOn" = now() WHERE id = $1`, [orgId]);
    expect(await statementsFor(() => admit(memo))).toBe(0);
  });

  it("does not trust a read that a change overlapped: the key is read again", async () => {
    const { keyId, memo } = await keyOf();
    let revokeDuringRead = true;
    const racing: SqlRunner = {
      ...counted,
      query: async (text, params, options) => {
        const rows = await counted.query(text, params, options);
        // The read has its rows (valid); a revocation commits before the admission goes on.
        if (revokeDuringRead) {
          revokeDuringRead = false;
          await sql.query(`UPDATE api_key SET "revokedAt" = now() WHERE id = $1`, [keyId]);
        }
        return rows as never;
      },
    };
    await admitInProcess(racing, memo, { rateLimited: true });
    await expect(admit(memo)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it("admits exactly the plan's rate per window, however many arrive at once, and a new window starts over", async () => {
    const { memo } = await keyOf(5);
    const now = Math.floor(Date.now() / 60_000) * 60_000 + 15_000;
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => admit(memo, now)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason);
    expect(refused).toHaveLength(25);
    for (const err of refused) {
      expect(err).toBeInstanceOf(RateLimitedError);
      expect((err as RateLimitedError).retryAfterSeconds).toBe(45);
    }
    // Another key of the same plan is counted on its own.
    const other = await keyOf(5);
    await expect(admit(other.memo, now)).resolves.toMatchObject({ rateLimitPerMinute: 5 });
    await expect(admit(memo, now + 60_000)).resolves.toMatchObject({ rateLimitPerMinute: 5 });
  });
});

// Per-key fixed-window rate limit kept in the database, so every app instance shares one count.
import type { Db } from "@/lib/db/client";
import { RateLimitedError } from "@/lib/errors";

const WINDOW_MS = 60_000;

export async function consumeRateLimit(db: Db, keyId: string, limitPerMinute: number, now = Date.now()): Promise<void> {
  const windowStart = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO "rate_limit_window" ("keyId", "windowStart", "count")
    VALUES (${keyId}::uuid, ${windowStart}, 1)
    ON CONFLICT ("keyId", "windowStart") DO UPDATE SET "count" = "rate_limit_window"."count" + 1
    RETURNING "count"`;
  const count = Number(rows[0]?.count ?? 0);
  // Old windows are useless; sweep them now and then rather than on every request.
  if (count === 1 && Math.random() < 0.05) {
    await db.rateLimitWindow.deleteMany({ where: { windowStart: { lt: new Date(now - 10 * WINDOW_MS) } } });
  }
  if (count > limitPerMinute) {
    const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000));
    throw new RateLimitedError(retryAfter);
  }
}

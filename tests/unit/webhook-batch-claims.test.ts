// Batched claims and batched recording of webhook deliveries, against a real in-memory PostgreSQL
// (PGlite): two workers claiming at once never take the same delivery; a worker that dies after
// claiming a batch leaves it leased, and it is taken again (and sent once) only after the lease; an
// attempt whose lease ran out while it was in flight is recorded once, by whichever holder finishes first.
// A claim leases what it asks for and a write of attempts reads only its own deliveries, whatever the
// planner's statistics say. A pass sends what is due before it turns new events into deliveries.
import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { SqlRunner } from "@/lib/db/sql";
import { recordStatement } from "@/lib/webhooks/attempt-records";
import { claimDue, runDeliveryPass, type DeliveryDeps } from "@/lib/webhooks/delivery";
import { explainAnalyze, rowsRead } from "../support/query-plans";
import { dropper, openWebhookTestDb, type WebhookTestDb } from "../support/webhook-unit";

let prisma: PrismaClient;
let deps: DeliveryDeps;
let orgId: string;
let webhookId: string;

async function dueDeliveries(url: string, count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    webhookId,
    orgId,
    eventId: crypto.randomUUID(),
    eventType: "signature.document.voided",
    url,
    payload: { n: i },
    maxAttempts: 6,
    nextAttemptAt: new Date(Date.now() - 1000),
  }));
  await prisma.webhookDelivery.createMany({ data: rows });
  return rows.map((r) => r.id);
}

/** Each delivery's attempt count and how many attempts its log holds. */
async function attemptsOf(ids: string[]) {
  const rows = await prisma.webhookDelivery.findMany({ where: { id: { in: ids } }, select: { attemptCount: true, _count: { select: { attempts: true } } } });
  return rows.map((r) => ({ attemptCount: r.attemptCount, logged: r._count.attempts }));
}

let testDb: WebhookTestDb;

beforeAll(async () => {
  testDb = await openWebhookTestDb();
  ({ prisma, deps, orgId, webhookId } = testDb);
});

afterEach(async () => {
  await prisma.webhookDelivery.deleteMany({});
});

afterAll(async () => {
  await testDb?.close();
});

describe("batched webhook claims", () => {
  it("two workers passing at once split the due deliveries: each is sent and logged exactly once", async () => {
    const receiver = await dropper(50);
    try {
      // 4 senders x 4 per sender = 16 per claim: the first worker cannot take all 24.
      const ids = await dueDeliveries(receiver.url, 24);
      const [a, b] = await Promise.all([runDeliveryPass(deps, 4), runDeliveryPass(deps, 4)]);
      expect(a + b).toBe(24);
      expect(Math.min(a, b)).toBeGreaterThan(0);
      expect(receiver.connections).toBe(24);
      expect(await attemptsOf(ids)).toEqual(Array(24).fill({ attemptCount: 1, logged: 1 }));
    } finally {
      await receiver.close();
    }
  });

  it("a pass claims the next batch while it still has work, and sends everything due once", async () => {
    const receiver = await dropper(0);
    try {
      // 2 senders x 4 per sender = 8 per claim: 20 due take three claims in the one pass.
      const ids = await dueDeliveries(receiver.url, 20);
      expect(await runDeliveryPass(deps, 2)).toBe(20);
      expect(receiver.connections).toBe(20);
      expect(await attemptsOf(ids)).toEqual(Array(20).fill({ attemptCount: 1, logged: 1 }));
    } finally {
      await receiver.close();
    }
  });

  it("a batch claimed by a worker that then died stays leased, and is taken again after the lease, each delivery once", async () => {
    const receiver = await dropper(0);
    try {
      const ids = await dueDeliveries(receiver.url, 10);
      // The dead worker: claims six under a long lease, sends nothing, records nothing, releases nothing.
      const dead = (await claimDue(deps.sql, 6, 3600_000)).map((d) => d.id);
      expect(dead).toHaveLength(6);
      // A live worker takes only the four nobody holds.
      expect(await runDeliveryPass(deps, 4)).toBe(4);
      expect(await runDeliveryPass(deps, 4)).toBe(0);
      expect(receiver.connections).toBe(4);
      // The lease runs out: the six are taken again, each sent once.
      await prisma.webhookDelivery.updateMany({ where: { id: { in: dead } }, data: { leaseUntil: new Date(Date.now() - 1000) } });
      expect(await runDeliveryPass(deps, 4)).toBe(6);
      expect(receiver.connections).toBe(10);
      expect(await attemptsOf(ids)).toEqual(Array(10).fill({ attemptCount: 1, logged: 1 }));
    } finally {
      await receiver.close();
    }
  });

  it("an attempt still in flight when its lease ran out and another worker took it over is recorded once", async () => {
    const receiver = await dropper(1500);
    try {
      const [id] = await dueDeliveries(receiver.url, 1);
      const inFlight = new Promise<void>((resolve) => (receiver.onConnect = resolve));
      const first = runDeliveryPass(deps, 1);
      await inFlight;
      // The lease runs out while the first worker waits for the receiver; a second worker takes the delivery.
      await prisma.webhookDelivery.update({ where: { id }, data: { leaseUntil: new Date(Date.now() - 1000) } });
      receiver.onConnect = () => {};
      const [a, b] = await Promise.all([first, runDeliveryPass(deps, 1)]);
      expect([a, b]).toEqual([1, 1]);
      expect(receiver.connections).toBe(2);
      // Both sent attempt 1; only the one recorded first counts, the other is refused.
      expect(await attemptsOf([id])).toEqual([{ attemptCount: 1, logged: 1 }]);
    } finally {
      await receiver.close();
    }
  });

  it("a claim of four leases four, even when the planner thinks few are due", async () => {
    // The planner's trap: statistics taken while nothing was due, then a backlog of 1,000.
    await deps.sql.exec("ANALYZE webhook_delivery");
    await dueDeliveries("https://127.0.0.1:9/hook", 1000);
    expect(await claimDue(deps.sql, 4, 60_000)).toHaveLength(4);
    expect(await prisma.webhookDelivery.count({ where: { leaseUntil: { gt: new Date() } } })).toBe(4);
  });

  it("recording a few attempts reads those deliveries by key, not every open one", async () => {
    await deps.sql.exec("ANALYZE webhook_delivery");
    await dueDeliveries("https://127.0.0.1:9/hook", 1000);
    const claimed = await claimDue(deps.sql, 4, 60_000);
    const statement = recordStatement(
      claimed.map((d) => ({
        id: d.id,
        webhookId: d.webhookId,
        claimedCount: d.attemptCount,
        attemptCount: d.attemptCount + 1,
        status: "delivered",
        httpStatus: 200,
        responseBody: "ok",
        errorMessage: null,
        deliveredAt: new Date(),
        nextAttemptAt: null,
        requestHeaders: { "content-type": "application/json" },
        requestBody: "{}",
        durationMs: 1,
        pausedReason: null,
      })),
    );
    const plan = await explainAnalyze(deps.sql, statement.text, statement.values);
    // Four deliveries written, four read: it was the whole backlog, once per write of a few attempts.
    expect(rowsRead(plan, "webhook_delivery")).toBe(4);
    expect(await attemptsOf(claimed.map((d) => d.id))).toEqual(Array(4).fill({ attemptCount: 1, logged: 1 }));
  });

  it("a pass sends what is due before it turns new events into deliveries, and then sends those too", async () => {
    const receiver = await dropper(0);
    try {
      // 2 senders x 4 per sender = 8 per claim: 20 due fill two claims; the third comes up short.
      await dueDeliveries(receiver.url, 20);
      await prisma.webhook.update({ where: { id: webhookId }, data: { urls: [receiver.url] } });
      await prisma.domainEvent.create({ data: { orgId, type: "signature.document.voided", payload: { documentId: crypto.randomUUID() } } });
      const statements: string[] = [];
      const spy: SqlRunner = {
        ...deps.sql,
        query: (text, values, options) => {
          if (text.includes('"domain_event"')) statements.push("fan out");
          else if (text.includes("SKIP LOCKED")) statements.push("claim");
          return deps.sql.query(text, values, options);
        },
      };
      expect(await runDeliveryPass({ ...deps, sql: spy }, 2)).toBe(21);
      expect(statements.slice(0, 4)).toEqual(["claim", "claim", "claim", "fan out"]);
      expect(receiver.connections).toBe(21);
    } finally {
      await receiver.close();
      await prisma.webhook.update({ where: { id: webhookId }, data: { urls: ["https://127.0.0.1:9/hook"] } });
    }
  });
});

// Stopping the webhook worker (graceful shutdown) against a real in-memory PostgreSQL (PGlite): the
// attempt under way finishes and is recorded, nothing more is claimed, and deliveries claimed but not
// tried are handed back at once (not left to wait for their lease), so none is lost or sent twice.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { runDeliveryPass, startDeliveryWorker, stopDeliveryWorker, type DeliveryDeps } from "@/lib/webhooks/delivery";
import { dropper, openWebhookTestDb, type WebhookTestDb } from "../support/webhook-unit";

let prisma: PrismaClient;
let deps: DeliveryDeps;
let orgId: string;
let webhookId: string;

async function dueDeliveries(url: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = await prisma.webhookDelivery.create({
      data: {
        webhookId,
        orgId,
        eventId: crypto.randomUUID(),
        eventType: "signature.document.voided",
        url,
        payload: { n: i },
        maxAttempts: 6,
        nextAttemptAt: new Date(Date.now() - 1000 + i),
      },
    });
    ids.push(row.id);
  }
  return ids;
}

/** The rows, in the order of `ids` (the order they fell due). */
async function rowsOf(ids: string[]) {
  const rows = await prisma.webhookDelivery.findMany({ where: { id: { in: ids } }, select: { id: true, status: true, attemptCount: true, leaseUntil: true } });
  return ids.map((id) => rows.find((r) => r.id === id)!);
}

let testDb: WebhookTestDb;

beforeAll(async () => {
  testDb = await openWebhookTestDb();
  ({ prisma, deps, orgId, webhookId } = testDb);
});

afterAll(async () => {
  await testDb?.close();
});

describe("stopping the delivery worker", () => {
  it("a pass told to stop finishes the attempt under way and hands back what it claimed but did not try", async () => {
    const receiver = await dropper(200);
    try {
      const ids = await dueDeliveries(receiver.url, 3);
      let stopping = false;
      receiver.onConnect = () => (stopping = true);
      // One sender, so the three claimed deliveries would be tried one after another.
      expect(await runDeliveryPass(deps, 1, { stopping: () => stopping })).toBe(1);
      expect(receiver.connections).toBe(1);
      // Which of the three went first is the database's choice; exactly one did.
      const states = (await rowsOf(ids)).map((r) => ({ status: r.status, attemptCount: r.attemptCount, leaseUntil: r.leaseUntil }));
      expect(states.filter((r) => r.attemptCount === 1)).toEqual([{ status: "retrying", attemptCount: 1, leaseUntil: null }]);
      expect(states.filter((r) => r.attemptCount === 0)).toEqual([
        { status: "pending", attemptCount: 0, leaseUntil: null },
        { status: "pending", attemptCount: 0, leaseUntil: null },
      ]);
      // Handed back, not leased: the next pass (another instance, or this one restarted) takes them now.
      receiver.onConnect = () => {};
      expect(await runDeliveryPass(deps, 1)).toBe(2);
      expect(receiver.connections).toBe(3);
      expect((await rowsOf(ids)).map((r) => r.attemptCount)).toEqual([1, 1, 1]);
      await prisma.webhookDelivery.deleteMany({ where: { id: { in: ids } } });
    } finally {
      await receiver.close();
    }
  });

  it("stopDeliveryWorker() resolves once the attempt in flight is recorded, and nothing is claimed after", async () => {
    const receiver = await dropper(700);
    try {
      const [first] = await dueDeliveries(receiver.url, 1);
      const connected = new Promise<void>((resolve) => (receiver.onConnect = resolve));
      startDeliveryWorker(async () => deps, 50);
      await connected;
      await stopDeliveryWorker();
      // Recorded before stop resolved (the receiver held the attempt for 700 ms).
      expect((await rowsOf([first]))[0]).toMatchObject({ status: "retrying", attemptCount: 1, leaseUntil: null });
      // Stopped for good: a delivery due now stays untouched.
      const [later] = await dueDeliveries(receiver.url, 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.connections).toBe(1);
      expect((await rowsOf([later]))[0]).toMatchObject({ status: "pending", attemptCount: 0, leaseUntil: null });
    } finally {
      await receiver.close();
    }
  });
});

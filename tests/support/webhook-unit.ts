// What the webhook worker's unit tests share: a real in-memory PostgreSQL (PGlite) with the demo
// workspace and one webhook, and a receiver that drops each connection after `holdMs` (to the worker,
// a failed attempt that lasts as long as the test needs).
import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { sqlRunner } from "@/lib/db/driver";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { seedDemoWorkspace } from "@/lib/orgs/seed";
import type { DeliveryDeps } from "@/lib/webhooks/delivery";
import { createWebhook } from "@/lib/webhooks/webhooks";
import { openMigratedPGlite } from "./migrated-pglite";

export interface WebhookTestDb {
  pglite: PGlite;
  prisma: PrismaClient;
  deps: DeliveryDeps;
  orgId: string;
  webhookId: string;
  close: () => Promise<void>;
}

export async function openWebhookTestDb(): Promise<WebhookTestDb> {
  const { pglite } = await openMigratedPGlite();
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const deps: DeliveryDeps = {
    db: prisma,
    sql: sqlRunner({ kind: "pglite", pglite: pglite as never }),
    instanceSecret: "an-instance-secret-for-unit-tests-0123456789",
    allowPrivate: true,
    retryScale: 1,
    timeoutMs: 5_000,
  };
  const orgId = (await seedDemoWorkspace(prisma, { baseUrl: "http://quire.test", adminPassword: "password-123", sampleTemplates: false })).orgId;
  const user = await prisma.user.findFirstOrThrow();
  const webhookId = (
    await createWebhook(deps, { orgId, userId: user.id }, { name: "signature", urls: ["https://127.0.0.1:9/hook"], events: ["signature.document.voided"] })
  ).id;
  const close = async () => {
    await prisma.$disconnect();
    await pglite.close();
  };
  return { pglite, prisma, deps, orgId, webhookId, close };
}

export async function dropper(holdMs: number) {
  const state = { connections: 0, onConnect: () => {} };
  const server = net.createServer((socket) => {
    state.connections++;
    state.onConnect();
    setTimeout(() => socket.destroy(), holdMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`;
  return Object.assign(state, { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

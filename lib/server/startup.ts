// Runs once when the Node.js server starts (instrumentation.ts): migrate the database before the
// first request, and record the process for CLI tools when the database is embedded.
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { recordRunningServer } from "@/lib/server/instance-file";
import { startDeliveryWorker } from "@/lib/webhooks/delivery";
import { webhookDeps } from "@/lib/webhooks/service";

export async function onServerStart(): Promise<void> {
  const config = getConfig();
  await db();
  // Webhook deliveries: every instance polls the shared queue (rows are claimed, never shared).
  // Serverless runtimes freeze between requests: there /api/cron/webhooks drives the queue instead.
  if (!config.serverless) startDeliveryWorker(webhookDeps);
  if (config.database.kind === "pglite") recordRunningServer(config.dataDir, { pid: process.pid, baseUrl: config.baseUrl });
  log.info({ baseUrl: config.baseUrl, database: config.database.kind }, "Quire is ready");
}

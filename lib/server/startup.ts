// Runs once when the Node.js server starts (instrumentation.ts): take over the shutdown signals,
// migrate the database before the first request, start the background workers, and record the process
// for CLI tools when the database is embedded.
import { keepRateCounts } from "@/lib/auth/process-admission";
import { ConfigError, getConfig } from "@/lib/config";
import { closeDb, db } from "@/lib/db/client";
import { startEmbeddedMaintenance, stopEmbeddedMaintenance } from "@/lib/db/pglite-maintenance";
import { sql } from "@/lib/db/sql";
import { log } from "@/lib/log";
import { closePdfConverter } from "@/lib/pdf/converter";
import { recordRunningServer } from "@/lib/server/instance-file";
import { installGracefulShutdown } from "@/lib/server/shutdown";
import { startCompletionWorker, stopCompletionWorker } from "@/lib/esign/completion";
import { startReminderWorker, stopReminderWorker } from "@/lib/esign/reminders";
import { startBulkSendWorker, stopBulkSendWorker } from "@/lib/esign/bulk-send-worker";
import { esignDeps, signingDeps } from "@/lib/esign/service";
import { startDeliveryWorker, stopDeliveryWorker } from "@/lib/webhooks/delivery";
import { webhookDeps } from "@/lib/webhooks/service";

export async function onServerStart(): Promise<void> {
  try {
    await start();
  } catch (err) {
    // A configuration that cannot work (another process on the embedded database, another instance
    // secret than the database's) does not heal by waiting: stop with the reason instead of serving errors.
    if (err instanceof ConfigError) {
      log.fatal({ err: err.message }, "Quire cannot start");
      process.exit(1);
    }
    throw err;
  }
}

/** The last step: on the embedded database the minute's rate counts are kept first (ADR 0021). */
async function closeDatabase(): Promise<void> {
  try {
    if (getConfig().keyAdmission === "process") await keepRateCounts(await sql());
  } finally {
    await closeDb();
  }
}

async function start(): Promise<void> {
  const config = getConfig();
  // First, so a signal during start-up is handled too and every request is counted. Serverless
  // platforms own the process life cycle themselves; `next dev` keeps its own handler (it tears
  // down its bundler on exit).
  if (!config.serverless && config.env === "production")
    installGracefulShutdown({
      timeoutMs: config.shutdownTimeoutMs,
      drain: [
        { name: "completion worker", run: stopCompletionWorker },
        { name: "reminder worker", run: stopReminderWorker },
        { name: "bulk send worker", run: stopBulkSendWorker },
        { name: "webhook worker", run: stopDeliveryWorker },
        { name: "embedded database maintenance", run: stopEmbeddedMaintenance },
      ],
      close: [
        { name: "pdf converter", run: closePdfConverter },
        { name: "database", run: closeDatabase },
      ],
    });
  await db();
  // Webhook deliveries: every instance polls the shared queue (rows are claimed, never shared).
  // Serverless runtimes freeze between requests: there /api/cron/webhooks drives the queue instead.
  if (!config.serverless) startDeliveryWorker(webhookDeps);
  // Signed documents whose completion is due (after a crash or a failed seal): any instance finishes them.
  if (!config.serverless) startCompletionWorker(signingDeps);
  // Automatic reminders and expiry warnings that are due: any instance sends each, once.
  if (!config.serverless) startReminderWorker(signingDeps);
  // Bulk send rows: any instance claims and sends each, once, and takes up rows a stopped one held.
  if (!config.serverless) startBulkSendWorker(esignDeps);
  // PGlite has no autovacuum (single-user mode): this process does its job.
  if (config.database.kind === "pglite" && !config.serverless) startEmbeddedMaintenance(sql);
  if (config.database.kind === "pglite") recordRunningServer(config.dataDir, { pid: process.pid, baseUrl: config.baseUrl });
  log.info({ baseUrl: config.baseUrl, database: config.database.kind }, "Quire is ready");
}

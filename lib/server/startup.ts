// Runs once when the Node.js server starts (instrumentation.ts): migrate the database before the
// first request, and record the process for CLI tools when the database is embedded.
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { recordRunningServer } from "@/lib/server/instance-file";

export async function onServerStart(): Promise<void> {
  const config = getConfig();
  await db();
  if (config.database.kind === "pglite") recordRunningServer(config.dataDir, { pid: process.pid, baseUrl: config.baseUrl });
  log.info({ baseUrl: config.baseUrl, database: config.database.kind }, "Quire is ready");
}

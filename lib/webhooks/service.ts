// Wires webhooks to the configuration: the instance secret seals webhook secrets; private
// receivers, the back-off scale and the receiver time-out come from WEBHOOK_ALLOW_PRIVATE,
// WEBHOOK_RETRY_SCALE and WEBHOOK_TIMEOUT_MS.
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { sql } from "@/lib/db/sql";
import type { DeliveryDeps } from "@/lib/webhooks/delivery";

export async function webhookDeps(): Promise<DeliveryDeps> {
  const config = getConfig();
  return {
    db: await db(),
    sql: await sql(),
    instanceSecret: `${config.nextAuthSecret}:webhooks`,
    allowPrivate: config.webhooks.allowPrivate,
    retryScale: config.webhooks.retryScale,
    timeoutMs: config.webhooks.timeoutMs,
  };
}

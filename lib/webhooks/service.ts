// Wires webhooks to the configuration: the instance secret seals webhook secrets; private
// receivers and the back-off scale come from WEBHOOK_ALLOW_PRIVATE and WEBHOOK_RETRY_SCALE.
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import type { DeliveryDeps } from "@/lib/webhooks/delivery";

export async function webhookDeps(): Promise<DeliveryDeps> {
  const config = getConfig();
  return { db: await db(), instanceSecret: `${config.nextAuthSecret}:webhooks`, allowPrivate: config.webhooks.allowPrivate, retryScale: config.webhooks.retryScale };
}

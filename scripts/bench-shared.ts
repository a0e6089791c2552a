// Pieces the bench sections share.
import pg from "pg";
import { POSTGRES_ADMIN_URL } from "../tests/support/quire-server";

/** The variables for the sample Services Agreement: text, html and a repeated row. */
export const CONTRACT_VARIABLES = [
  { placeholder: "{ClientName}", text: "Globex Corporation", mimeType: "text" as const },
  { placeholder: "{ClientAddress}", text: "1 Main Street\nSpringfield", mimeType: "text" as const },
  { placeholder: "{EffectiveDate}", text: "1 March 2027", mimeType: "text" as const },
  { placeholder: "{ProviderName}", text: "Quire Consulting", mimeType: "text" as const },
  { placeholder: "{Fee}", text: "12,000 EUR", mimeType: "text" as const },
  { placeholder: "{@Scope}", text: "<p>Build <b>the portal</b></p><ul><li>Design</li><li>Delivery</li></ul>", mimeType: "html" as const },
  { placeholder: "{ItemName}", mimeType: "text" as const, variableStack: [{ text: "Discovery", mimeType: "text" as const }, { text: "Build", mimeType: "text" as const }] },
];

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a webhook straight into the database of a server that has not started yet (the embedded
 * database belongs to one process at a time; the API also refuses loopback receivers).
 */
export async function createBenchWebhook(env: Record<string, string | undefined>, orgId: string, urls: string[], extra?: (db: import("../lib/db/client").Db) => Promise<void>): Promise<{ secret: string }> {
  Object.assign(process.env, env);
  const { closeDb } = await import("../lib/db/client");
  const { webhookDeps } = await import("../lib/webhooks/service");
  const { createWebhook } = await import("../lib/webhooks/webhooks");
  const deps = await webhookDeps();
  const user = await deps.db.apiKey.findFirstOrThrow({ where: { orgId }, select: { userId: true } });
  const hook = await createWebhook({ ...deps, allowPrivate: true }, { orgId, userId: user.userId }, { name: "signature", urls, events: ["signature.document.completed"] });
  await extra?.(deps.db);
  await closeDb();
  return { secret: hook.secret };
}

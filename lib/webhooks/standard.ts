// Standard Webhooks (standardwebhooks.com, docs/contract.md "Webhooks"): every delivery also carries
// webhook-id, webhook-timestamp and webhook-signature, so receivers can verify with any Standard
// Webhooks library. The key is the 32 bytes the secret's part after "whsec_" encodes in base64url;
// such libraries read standard base64, hence `standardSecret`, the same key in that form.
import crypto from "node:crypto";

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.replace(/^whsec_/, ""), "base64url");
}

/** The secret as Standard Webhooks libraries take it: whsec_ + standard base64 of the same key. */
export function standardSecretOf(secret: string): string {
  return `whsec_${keyOf(secret).toString("base64")}`;
}

/** The three Standard Webhooks headers for one attempt. */
export function standardHeaders(secret: string, eventId: string, timestamp: number, body: string): Record<string, string> {
  const signature = crypto.createHmac("sha256", keyOf(secret)).update(`${eventId}.${timestamp}.${body}`).digest("base64");
  return { "webhook-id": eventId, "webhook-timestamp": String(timestamp), "webhook-signature": `v1,${signature}` };
}

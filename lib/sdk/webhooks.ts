// Verifying Quire's webhook deliveries (docs/contract.md "Webhooks"). Each delivery carries
//   X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the secret>
// Verify against the raw request body exactly as received (not re-serialized JSON), and reject
// old timestamps so a captured delivery cannot be replayed later.
import { createHmac, timingSafeEqual } from "node:crypto";
import { QuireError } from "./errors.js";
import type { WebhookEnvelope } from "./types.js";

/** The header Quire signs deliveries with. */
export const WEBHOOK_SIGNATURE_HEADER = "X-Service-Signature";

/** Receivers reject timestamps further than this from now (five minutes). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyWebhookOptions {
  /** Largest accepted distance between the header's timestamp and now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current time (a Date or unix seconds); defaults to the clock. For tests. */
  now?: Date | number;
}

export interface ParsedSignatureHeader {
  timestamp: number;
  /** Every v1 signature in the header (hex). */
  signatures: string[];
}

/** Parses `t=<unix>,v1=<hex>[,v1=<hex>…]`; null when malformed. */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader | null {
  if (typeof header !== "string" || header.length > 4096) return null;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === "v1") {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return null;
      signatures.push(value.toLowerCase());
    }
    // Other schemes (future versions) are ignored.
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === "string" ? new TextEncoder().encode(body) : body;
}

function hmac(secret: string, timestamp: number, body: string | Uint8Array): Buffer {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(bytesOf(body)).digest();
}

/**
 * True when `header` (the X-Service-Signature value) is a valid signature of `rawBody` by `secret`
 * and its timestamp is within `toleranceSeconds` (default 300) of now. Malformed headers, wrong
 * secrets, changed bodies and stale (or far-future) timestamps give false. Constant-time compare.
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): boolean {
  if (typeof secret !== "string" || !secret) throw new TypeError("verifyWebhookSignature: secret is required");
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) {
    throw new TypeError("verifyWebhookSignature: rawBody must be the raw request body as a string or bytes (not parsed JSON)");
  }
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = options.now === undefined ? Date.now() / 1000 : options.now instanceof Date ? options.now.getTime() / 1000 : options.now;
  if (!(tolerance >= 0) || Math.abs(nowSeconds - parsed.timestamp) > tolerance) return false;
  const expected = hmac(secret, parsed.timestamp, rawBody);
  let ok = false;
  for (const signature of parsed.signatures) {
    // Both are 32 bytes (the header's hex was checked to be 64 digits).
    if (timingSafeEqual(expected, Buffer.from(signature, "hex"))) ok = true;
  }
  return ok;
}

/**
 * The X-Service-Signature value Quire would send for this body: for testing your receiver.
 * `timestamp` is unix seconds (default now).
 */
export function signWebhookPayload(rawBody: string | Uint8Array, secret: string, timestamp: number = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, rawBody).toString("hex")}`;
}

/**
 * Verifies a delivery's Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature)
 * with the webhook's `standardSecret` (or its `secret`: both name the same key). Same rules as
 * verifyWebhookSignature: raw body, timestamp within `toleranceSeconds`, constant-time compare.
 */
export function verifyStandardWebhook(
  rawBody: string | Uint8Array,
  headers: { "webhook-id"?: string | null; "webhook-timestamp"?: string | null; "webhook-signature"?: string | null },
  secret: string,
  options: VerifyWebhookOptions = {},
): boolean {
  if (typeof secret !== "string" || !secret.startsWith("whsec_")) throw new TypeError("verifyStandardWebhook: secret must be the webhook's whsec_… secret");
  const id = headers["webhook-id"];
  const timestamp = Number(headers["webhook-timestamp"]);
  const signatures = (headers["webhook-signature"] ?? "")
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => s.slice(3));
  if (!id || !Number.isInteger(timestamp) || signatures.length === 0) return false;
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = options.now === undefined ? Date.now() / 1000 : options.now instanceof Date ? options.now.getTime() / 1000 : options.now;
  if (!(tolerance >= 0) || Math.abs(nowSeconds - timestamp) > tolerance) return false;
  // whsec_ + base64 (standardSecret) or base64url (secret): Node reads both alphabets.
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(bytesOf(rawBody)).digest();
  let ok = false;
  for (const signature of signatures) {
    const given = Buffer.from(signature, "base64");
    if (given.length === expected.length && timingSafeEqual(expected, given)) ok = true;
  }
  return ok;
}

/** Thrown by constructWebhookEvent when the signature does not verify. */
export class WebhookSignatureError extends QuireError {
  constructor(message = "The webhook signature is missing, invalid or too old") {
    super(message);
  }
}

/** Verifies the delivery, then parses its body. Throws WebhookSignatureError when it does not verify. */
export function constructWebhookEvent<D = Record<string, unknown>>(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): WebhookEnvelope<D> {
  if (!verifyWebhookSignature(rawBody, header, secret, options)) throw new WebhookSignatureError();
  return JSON.parse(typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody)) as WebhookEnvelope<D>;
}

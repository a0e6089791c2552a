// Idempotency-Key (docs/contract.md "Idempotency") for the POST operations that create something: the
// same key from the same organization with the same request within 24 hours gets the first reply
// again (with `Idempotent-Replayed: true`) and does nothing; the same key with another request is a
// 422 IdempotencyKeyReused; a request still running under the key is a 409 IdempotencyKeyInFlight.
// Records live in the database, so a retry that reaches another instance is answered the same way.
import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import { ConflictError, UnprocessableError, ValidationError } from "@/lib/errors";
import { jsonTextOf } from "@/lib/http/json-reply";
import { heldForTest } from "@/lib/server/test-faults";

export const IDEMPOTENCY_HEADER = "idempotency-key";
const TTL_MS = 24 * 60 * 60 * 1000;
/** A request running longer than this under a key is taken to have died with its process. */
const ABANDONED_MS = 10 * 60 * 1000;

export class IdempotencyKeyReusedError extends UnprocessableError {
  constructor() {
    super("This Idempotency-Key was already used with a different request; use a new key for a new request", "IdempotencyKeyReused");
  }
}

export class IdempotencyKeyInFlightError extends ConflictError {
  constructor() {
    super("A request with this Idempotency-Key is still running; retry when it has finished", "IdempotencyKeyInFlight");
  }
}

/** The key, or null without one; a key that is not 1-255 printable characters is a 400. */
export function idempotencyKeyOf(req: Request): string | null {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (!/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(key) || /\s$/.test(key)) {
    const message = "must be 1 to 255 printable ASCII characters";
    throw new ValidationError(`Idempotency-Key ${message}`, [{ field: "Idempotency-Key", message }], "InvalidIdempotencyKey");
  }
  return key;
}

/** What identifies "the same request": method, path and body; a multipart boundary is the client's choice, not content. */
async function requestHash(req: Request): Promise<string> {
  const body = Buffer.from(await req.clone().arrayBuffer());
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(req.headers.get("content-type") ?? "");
  const marker = boundary ? Buffer.from(boundary[1] ?? boundary[2]) : null;
  const hash = crypto.createHash("sha256").update(`${req.method} ${new URL(req.url).pathname}\n`);
  if (!marker) return hash.update(body).digest("hex");
  let from = 0;
  for (let at = body.indexOf(marker); at >= 0; at = body.indexOf(marker, from)) {
    hash.update(body.subarray(from, at)).update("\u0000boundary\u0000");
    from = at + marker.length;
  }
  return hash.update(body.subarray(from)).digest("hex");
}

/** Where a test may hold the request that claimed `key` (QUIRE_TEST_HOLDS): after the claim, before the work. */
export function idempotencyHoldPoint(key: string): string {
  return `idempotency:${key}`;
}

/**
 * Runs `handle` at most once per (organization, key): the first request runs it and its reply is kept;
 * a repeat gets the kept reply. A 5xx (or 499) reply is not kept, so the client may try again.
 */
export async function withIdempotency(db: Db, orgId: string, req: Request, handle: () => Promise<Response>): Promise<Response> {
  const key = idempotencyKeyOf(req);
  if (key === null) return handle();
  const hash = await requestHash(req);
  const now = new Date();
  // Claim the key: insert, or take over an expired or abandoned record (compare-and-set on its state).
  const claimed = await db.$executeRaw`
    INSERT INTO "idempotency_record" ("orgId", "key", "requestHash", "status", "createdOn", "expiresAt")
    VALUES (${orgId}::uuid, ${key}, ${hash}, 'running', ${now}, ${new Date(now.getTime() + TTL_MS)})
    ON CONFLICT ("orgId", "key") DO UPDATE SET "requestHash" = EXCLUDED."requestHash", "status" = 'running', "responseStatus" = NULL, "responseBody" = NULL, "contentType" = NULL, "createdOn" = EXCLUDED."createdOn", "expiresAt" = EXCLUDED."expiresAt"
    WHERE "idempotency_record"."expiresAt" < ${now} OR ("idempotency_record"."status" = 'running' AND "idempotency_record"."createdOn" < ${new Date(now.getTime() - ABANDONED_MS)})`;
  if (claimed === 0) {
    const kept = await db.idempotencyRecord.findUnique({ where: { orgId_key: { orgId, key } } });
    if (!kept) throw new IdempotencyKeyInFlightError(); // released by a 5xx just now: the client retries
    if (kept.requestHash !== hash) throw new IdempotencyKeyReusedError();
    if (kept.status !== "done") throw new IdempotencyKeyInFlightError();
    return new Response(kept.responseBody, {
      status: kept.responseStatus!,
      headers: { ...(kept.contentType ? { "content-type": kept.contentType } : {}), "idempotent-replayed": "true" },
    });
  }
  let res: Response;
  try {
    await heldForTest(idempotencyHoldPoint(key));
    res = await handle();
  } catch (err) {
    await db.idempotencyRecord.deleteMany({ where: { orgId, key, status: "running" } });
    throw err;
  }
  // 5xx and 499 (the client went away) are not answers to keep: the retry runs the request again.
  if (res.status >= 500 || res.status === 499) {
    await db.idempotencyRecord.deleteMany({ where: { orgId, key, status: "running" } });
    return res;
  }
  // A JSON reply's own text when it has one: its body is then left unread and the reply itself sent.
  const kept = jsonTextOf(res);
  const body = kept ?? (await res.text());
  const contentType = res.headers.get("content-type");
  await db.idempotencyRecord.updateMany({
    where: { orgId, key, requestHash: hash, status: "running" },
    data: { status: "done", responseStatus: res.status, responseBody: body, contentType },
  });
  return kept === undefined ? new Response(body, { status: res.status, headers: res.headers }) : res;
}

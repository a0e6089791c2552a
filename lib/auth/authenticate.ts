// API authentication (docs/contract.md "Authentication and roles"): `Authorization: Bearer <key>` names the key,
// `x-service-org-id` must name the key's own organization.
//
// Fast path (issue 17): what a key identifies (organization, role, user) is kept in memory for a minute,
// keyed by the SHA-256 of the presented key, so a hit is as strong as the stored-hash comparison. Every
// request still runs one statement (admitKey) that refuses a key revoked on any instance, reads the plan
// fresh and counts the request against the shared rate limit. That admission is returned as a promise
// beside what the key is known to be, so an operation that only reads may run while it is under way
// (apiRoute, ADR 0020); nothing is answered before the key is admitted. On the embedded database, which
// this process alone opens, the admission is kept in memory and reads the key again only after a change
// (ADR 0021, lib/auth/process-admission.ts).
import crypto from "node:crypto";
import { type ApiPrincipal, parseApiKey, resolveApiKey } from "@/lib/auth/api-keys";
import { type AdmissionMemo, admitInProcess } from "@/lib/auth/process-admission";
import { admitKey } from "@/lib/auth/rate-limit";
import { LruCache } from "@/lib/cache/lru";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { sql } from "@/lib/db/sql";
import { ForbiddenError, RateLimitedError, UnauthenticatedError } from "@/lib/errors";

export const ORG_HEADER = "x-service-org-id";
/** The hosted service's name for the same header (docs/contract.md "Clients of the hosted service"). */
export const ORG_HEADER_ALIAS = "x-rapiddocx-org-id";

type ApiIdentity = Omit<ApiPrincipal, "plan">;
/** The plan is the organization's as last read here (when the key was identified or last admitted). */
interface CachedIdentity extends AdmissionMemo {
  identity: ApiIdentity;
  cachedAt: number;
  /** When lastUsedAt was last written for this key by this process. */
  usedWrittenAt: number;
  /** The key's last admission here was refused for its rate: its requests wait for admission before reading. */
  overLimit: boolean;
}

/** A request's key, identified; its admission under way. */
export interface IdentifiedKey {
  /** The principal as this process last knew it: the plan is the one last read, not yet this request's. */
  assumed: ApiPrincipal;
  /**
   * False while the key's last admission here was refused for its rate, so a key over its limit does not
   * make the database read for requests that are then refused.
   */
  mayRunAhead: boolean;
  /** The principal once admitted (unrevoked on every instance, counted, its plan read fresh); 401 or 429 otherwise. */
  admitted: Promise<ApiPrincipal>;
}

const IDENTITY_TTL_MS = 60_000;
const MAX_IDENTITIES = 10_000;
/** lastUsedAt is coarse on purpose: one write a minute per key, not one per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

// On globalThis: Next.js may load this module once per bundle; the cache is the process's.
const registry = globalThis as unknown as { __quireApiIdentities?: LruCache<string, CachedIdentity> };
const identities = (registry.__quireApiIdentities ??= new LruCache(MAX_IDENTITIES));

/** Identifies the key (401 or 403 at once) and starts its admission. */
export async function identifyApiKey(headers: Headers): Promise<IdentifiedKey> {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.get("authorization") ?? "");
  if (!match) throw new UnauthenticatedError("Missing or malformed Authorization header; expected: Bearer <API key>");
  const key = match[1];
  if (!parseApiKey(key)) throw new UnauthenticatedError();
  const digest = crypto.createHash("sha256").update(key).digest("base64");
  const first = await identify(digest, key);
  let cached = first.entry;
  let refused = organizationProblem(headers, cached.identity.orgId);
  if (refused && !first.fresh) {
    // A revoked key must read as unauthenticated whatever its headers say: a cached identity is checked
    // afresh (one just read from the database already was).
    identities.delete(digest);
    cached = (await identify(digest, key)).entry;
    refused = organizationProblem(headers, cached.identity.orgId);
  }
  if (refused) throw refused;
  const admitted = admit(digest, cached);
  admitted.catch(() => {}); // the caller awaits it; a request answered otherwise must not leave it unhandled
  return { assumed: { ...cached.identity, plan: cached.plan }, mayRunAhead: !cached.overLimit, admitted };
}

async function admit(digest: string, cached: CachedIdentity): Promise<ApiPrincipal> {
  const runner = await sql();
  const { keyAdmission, rateLimitDisabled } = getConfig();
  const options = { rateLimited: !rateLimitDisabled };
  // Admission in memory keeps the plan it read in the memo; the database's is kept here.
  const admission =
    keyAdmission === "process"
      ? admitInProcess(runner, cached, options)
      : admitKey(runner, cached.identity.keyId, options).then((plan) => (cached.plan = plan));
  const plan = await admission.catch((err) => {
    if (err instanceof UnauthenticatedError) identities.delete(digest);
    if (err instanceof RateLimitedError) cached.overLimit = true;
    throw err;
  });
  cached.overLimit = false;
  const now = Date.now();
  if (now - cached.usedWrittenAt > LAST_USED_RESOLUTION_MS) {
    cached.usedWrittenAt = now;
    await runner.query(`UPDATE api_key SET "lastUsedAt" = $2 WHERE id = $1::uuid`, [cached.identity.keyId, new Date(now)]);
  }
  return { ...cached.identity, plan };
}

function organizationProblem(headers: Headers, keyOrgId: string): Error | null {
  const orgId = (headers.get(ORG_HEADER) ?? headers.get(ORG_HEADER_ALIAS))?.trim();
  if (!orgId) return new UnauthenticatedError(`Missing ${ORG_HEADER} header; the organization cannot be resolved`);
  if (orgId.toLowerCase() !== keyOrgId) return new ForbiddenError("Invalid organization id", "InvalidOrganization");
  return null;
}

async function identify(digest: string, key: string): Promise<{ entry: CachedIdentity; fresh: boolean }> {
  const hit = identities.get(digest);
  if (hit && Date.now() - hit.cachedAt < IDENTITY_TTL_MS) return { entry: hit, fresh: false };
  identities.delete(digest);
  // resolveApiKey compares the stored hash in constant time and writes lastUsedAt when it is due.
  const { plan, ...identity } = await resolveApiKey(await db(), key);
  const entry = { identity, cachedAt: Date.now(), usedWrittenAt: Date.now(), plan, overLimit: false };
  identities.set(digest, entry);
  return { entry, fresh: true };
}

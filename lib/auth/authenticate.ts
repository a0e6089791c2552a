// API authentication (docs/contract.md "Authentication and roles"): `Authorization: Bearer <key>` names the key,
// `x-service-org-id` must name the key's own organization.
//
// Fast path (issue 17): what a key identifies (organization, role, user) is kept in memory for a minute,
// keyed by the SHA-256 of the presented key, so a hit is as strong as the stored-hash comparison. Every
// request still runs one statement (admitKey) that refuses a key revoked on any instance, reads the plan
// fresh and counts the request against the shared rate limit. That admission is left to the caller beside
// what the key is known to be, so an operation that only reads may run while it is under way (apiRoute,
// ADR 0020) and one whose first statement writes nothing may carry it in that statement (ADR 0022);
// nothing is answered before the key is admitted. On the embedded database, which
// this process alone opens, the admission is kept in memory and reads the key again only after a change
// (ADR 0021, lib/auth/process-admission.ts).
import crypto from "node:crypto";
import { type ApiPrincipal, parseApiKey, resolveApiKey } from "@/lib/auth/api-keys";
import { type AdmissionMemo, admitInProcess } from "@/lib/auth/process-admission";
import { admitKey, type FoldedAdmission, foldAdmission } from "@/lib/auth/rate-limit";
import type { Plan } from "@/lib/auth/roles";
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

/** A request's key, identified; its admission still to come. */
export interface IdentifiedKey {
  /** The principal as this process last knew it: the plan is the one last read, not yet this request's. */
  assumed: ApiPrincipal;
  /**
   * False while the key's last admission here was refused for its rate, so a key over its limit does not
   * make the database read for requests that are then refused.
   */
  mayRunAhead: boolean;
  /**
   * The principal once admitted (unrevoked on every instance, counted, its plan read fresh); 401 or 429
   * otherwise. The first call starts the admission, by its own statement unless a fold settled it;
   * every call returns the same outcome.
   */
  admit(): Promise<ApiPrincipal>;
  /**
   * The admission for the caller's own first statement to carry (ADR 0022), or null where it costs no
   * statement of its own (the embedded database, ADR 0021) or has already begun. Once its settle() has
   * run, admit() answers its outcome; a fold never settled leaves admit() to run the statement.
   */
  fold(): FoldedAdmission | null;
}

const IDENTITY_TTL_MS = 60_000;
const MAX_IDENTITIES = 10_000;
/** lastUsedAt is coarse on purpose: one write a minute per key, not one per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

// On globalThis: Next.js may load this module once per bundle; the cache is the process's.
const registry = globalThis as unknown as { __quireApiIdentities?: LruCache<string, CachedIdentity> };
const identities = (registry.__quireApiIdentities ??= new LruCache(MAX_IDENTITIES));

/** Identifies the key (401 or 403 at once); its admission is the caller's to start (admit() or fold()). */
export async function identifyApiKey(headers: Headers): Promise<IdentifiedKey> {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.get("authorization") ?? "");
  if (!match) throw new UnauthenticatedError("Missing or malformed Authorization header; expected: Bearer <API key>");
  const key = match[1];
  if (!parseApiKey(key)) throw new UnauthenticatedError();
  // One-shot, no Hash object: createHash() held 1.4% of a list request's CPU in a server's profile.
  const digest = crypto.hash("sha256", key, "base64");
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
  return { assumed: { ...cached.identity, plan: cached.plan }, mayRunAhead: !cached.overLimit, ...admission(digest, cached) };
}

function admission(digest: string, cached: CachedIdentity): Pick<IdentifiedKey, "admit" | "fold"> {
  const { keyAdmission, rateLimitDisabled } = getConfig();
  const options = { rateLimited: !rateLimitDisabled };
  let admitted: Promise<ApiPrincipal> | undefined;
  const conclude = (plan: Promise<Plan>) => {
    admitted = concluded(digest, cached, plan);
    admitted.catch(() => {}); // the caller awaits it; a request answered otherwise must not leave it unhandled
    return admitted;
  };
  // Admission in memory keeps the plan it read in the memo; the database's is kept here.
  const keep = (plan: Promise<Plan>) => plan.then((read) => (cached.plan = read));
  return {
    admit: () =>
      admitted ??
      conclude(
        sql().then((runner) => (keyAdmission === "process" ? admitInProcess(runner, cached, options) : keep(admitKey(runner, cached.identity.keyId, options)))),
      ),
    fold: () => {
      if (keyAdmission === "process" || admitted) return null;
      const folded = foldAdmission(sql, cached.identity.keyId, options);
      return { ...folded, settle: (value) => conclude(keep(folded.settle(value))).then((principal) => principal.plan) };
    },
  };
}

/** What a key's admission leaves behind here, whichever way it ran. */
async function concluded(digest: string, cached: CachedIdentity, admission: Promise<Plan>): Promise<ApiPrincipal> {
  const plan = await admission.catch((err) => {
    if (err instanceof UnauthenticatedError) identities.delete(digest);
    if (err instanceof RateLimitedError) cached.overLimit = true;
    throw err;
  });
  cached.overLimit = false;
  const now = Date.now();
  if (now - cached.usedWrittenAt > LAST_USED_RESOLUTION_MS) {
    cached.usedWrittenAt = now;
    await (await sql()).query(`UPDATE api_key SET "lastUsedAt" = $2 WHERE id = $1::uuid`, [cached.identity.keyId, new Date(now)]);
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

// API keys: `qk_<12 hex>_<43 base64url>`. The first part (prefix) is public and indexed; only a
// SHA-256 of the whole key is stored, and it is compared in constant time.
import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import { NotFoundError, UnauthenticatedError } from "@/lib/errors";
import type { Plan, Role } from "@/lib/auth/roles";
import { planOf } from "@/lib/orgs/plan";

const KEY_PATTERN = /^(qk_[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export interface ApiKeySummary {
  id: string;
  name: string;
  role: Role;
  prefix: string;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdOn: Date;
}

export interface ApiPrincipal {
  keyId: string;
  keyPrefix: string;
  orgId: string;
  role: Role;
  /** The user the key acts for; recorded as createdBy on what the key creates. */
  userId: string;
  userEmail: string;
  plan: Plan;
}

function sha256(value: string): Buffer {
  return crypto.createHash("sha256").update(value).digest();
}

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const prefix = `qk_${crypto.randomBytes(6).toString("hex")}`;
  const key = `${prefix}_${crypto.randomBytes(32).toString("base64url")}`;
  return { key, prefix, hash: sha256(key).toString("hex") };
}

export function parseApiKey(key: string): { prefix: string } | null {
  const match = KEY_PATTERN.exec(key);
  return match ? { prefix: match[1] } : null;
}

export async function createApiKey(
  db: Db,
  input: { orgId: string; userId: string; role: Role; name: string },
): Promise<{ key: string; summary: ApiKeySummary }> {
  const { key, prefix, hash } = generateApiKey();
  const row = await db.apiKey.create({ data: { ...input, prefix, hash } });
  return { key, summary: toSummary(row) };
}

export async function listApiKeys(db: Db, orgId: string): Promise<ApiKeySummary[]> {
  const rows = await db.apiKey.findMany({ where: { orgId }, orderBy: { createdOn: "desc" } });
  return rows.map(toSummary);
}

export async function revokeApiKey(db: Db, orgId: string, id: string): Promise<ApiKeySummary> {
  const existing = await db.apiKey.findFirst({ where: { id, orgId } });
  if (!existing) throw new NotFoundError("API key not found");
  if (existing.revokedAt) return toSummary(existing);
  return toSummary(await db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } }));
}

function toSummary(row: ApiKeySummary): ApiKeySummary {
  const { id, name, role, prefix, lastUsedAt, revokedAt, createdOn } = row;
  return { id, name, role, prefix, lastUsedAt, revokedAt, createdOn };
}

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves a bearer key to its principal. Any failure to identify the key is the same
 * UnauthenticatedError, so callers cannot probe which part was wrong.
 */
export async function resolveApiKey(db: Db, key: string): Promise<ApiPrincipal> {
  const parsed = parseApiKey(key);
  if (!parsed) throw new UnauthenticatedError();
  const row = await db.apiKey.findUnique({
    where: { prefix: parsed.prefix },
    include: { org: true, user: { select: { email: true } } },
  });
  const presented = sha256(key);
  const stored = row ? Buffer.from(row.hash, "hex") : crypto.randomBytes(32);
  const matches = stored.length === presented.length && crypto.timingSafeEqual(stored, presented);
  if (!row || !matches || row.revokedAt) throw new UnauthenticatedError();

  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Coarse on purpose: one write a minute per key, not one per request.
    await db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
  }
  return {
    keyId: row.id,
    keyPrefix: row.prefix,
    orgId: row.orgId,
    role: row.role,
    userId: row.userId,
    userEmail: row.user.email,
    plan: planOf(row.org),
  };
}

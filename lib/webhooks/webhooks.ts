// Signature webhooks (docs/contract.md "Webhooks"): create, read, update,
// delete, regenerate the secret. Names are unique among an organization's active webhooks.
import { standardSecretOf } from "@/lib/webhooks/standard";
import crypto from "node:crypto";
import dns from "node:dns/promises";
import net from "node:net";
import { z } from "zod";
import { open, seal } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import type { SqlRunner } from "@/lib/db/sql";
import { isUniqueViolation } from "@/lib/db/errors";
import { ConflictError, NotFoundError, ValidationError, type ValidationIssue } from "@/lib/errors";
import { isPrivateAddress, parseHttpsUrl, UnsafeUrlError } from "@/lib/net/safe-fetch";
import { isUuid } from "@/lib/ids";

export const AVAILABLE_EVENTS = [
  "signature.document.sent",
  "signature.document.viewed",
  "signature.document.recipient_signed",
  "signature.document.completed",
  "signature.document.finalization_failed",
  "signature.document.voided",
  "signature.document.declined",
] as const;
export const MAX_URLS = 10;

export interface WebhookDeps {
  db: Db;
  instanceSecret: string;
  allowPrivate: boolean;
}

/** Length rules as refinements: zod's .min/.max would also report on a value of the wrong type. */
function lengthBetween(min: number, max: number, tooFew: string, tooMany: string) {
  return (list: unknown[], ctx: z.RefinementCtx) => {
    if (list.length < min) ctx.addIssue({ code: "custom", message: tooFew });
    if (list.length > max) ctx.addIssue({ code: "custom", message: tooMany });
  };
}

const events = z
  .array(z.enum(AVAILABLE_EVENTS, { message: `must be one of ${AVAILABLE_EVENTS.join(", ")}` }), {
    error: (issue) => (issue.input === undefined ? "is required" : "must be an array of event types"),
  })
  .superRefine(lengthBetween(1, AVAILABLE_EVENTS.length * 10, "at least one event is required", "too many events"));
/** The form of a receiver URL (https, no credentials), checked with the other fields so every problem is listed together. */
const receiverUrl = z.string({ message: "must be a string" }).superRefine((value, ctx) => {
  try {
    parseHttpsUrl(value, "url");
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    ctx.addIssue({ code: "custom", message: err.message.replace(/^url /, "") });
  }
});
const urls = z
  .array(receiverUrl, { error: (issue) => (issue.input === undefined ? "is required" : "must be an array of URLs") })
  .superRefine(lengthBetween(1, MAX_URLS, "at least one URL is required", `at most ${MAX_URLS} URLs`));
/** 1 to 100 characters: letters, digits, dot, dash, underscore (it is a path segment). One message per problem. */
const name = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .trim()
  .superRefine((value, ctx) => {
    if (!value) ctx.addIssue({ code: "custom", message: "must not be empty" });
    else if (value.length > 100) ctx.addIssue({ code: "custom", message: "at most 100 characters" });
    else if (!/^[A-Za-z0-9._-]+$/.test(value)) ctx.addIssue({ code: "custom", message: "letters, digits, dot, dash and underscore only" });
  });

export const createWebhookSchema = z.object({ name, urls, events });
export const updateWebhookSchema = z.object({
  name: name.optional(),
  urls: urls.optional(),
  events: events.optional(),
  isActive: z.boolean({ message: "must be true or false" }).optional(),
});
/** Test Webhook body (4.4): both optional; the event type must be one of availableEvents. */
export const testWebhookSchema = z.object({
  eventType: z.enum(AVAILABLE_EVENTS, { message: `must be one of ${AVAILABLE_EVENTS.join(", ")}` }).optional(),
  payload: z.record(z.string(), z.unknown(), { message: "must be an object" }).optional(),
});
export const listDeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
  status: z.enum(["pending", "delivered", "retrying", "failed"]).optional(),
  eventType: z.string().max(100).optional(),
});

/** https only, and every address the host has now must be public (again checked at send time). */
export async function checkReceiverUrls(list: string[], allowPrivate: boolean): Promise<string[]> {
  const issues: ValidationIssue[] = [];
  for (const [i, raw] of list.entries()) {
    try {
      const url = parseHttpsUrl(raw, `urls.${i}`);
      if (!allowPrivate) {
        const host = url.hostname.replace(/^\[|\]$/g, "");
        const addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
        if (!addresses.length) throw new UnsafeUrlError(`urls.${i}: ${host} does not resolve`, `urls.${i}`);
        if (addresses.some(isPrivateAddress)) throw new UnsafeUrlError(`urls.${i}: ${host} resolves to a private or local address`, `urls.${i}`);
      }
    } catch (err) {
      if (err instanceof ValidationError) issues.push(...err.issues);
      else throw err;
    }
  }
  if (issues.length) throw new ValidationError(issues.map((i) => i.message).join("; "), issues);
  return list;
}

function newSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString("base64url")}`;
}

function mask(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

type WebhookRow = Awaited<ReturnType<Db["webhook"]["findFirstOrThrow"]>>;

interface WebhookBase {
  id: string;
  orgId: string;
  name: string;
  urls: string[];
  events: string[];
  secretExists: boolean;
  isActive: boolean;
  pausedReason: string | null;
  createdBy: string;
  createdOn: string;
  updatedOn: string;
}

/** 2.7: the full secret only right after it was made (create, regenerate); the mask everywhere else. */
export function webhookJson(row: WebhookRow): WebhookBase & { maskedSecret: string };
export function webhookJson(row: WebhookRow, secret: string): WebhookBase & { secret: string; standardSecret: string };
export function webhookJson(row: WebhookRow, secret?: string) {
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    urls: row.urls,
    events: row.events,
    ...(secret ? { secret, standardSecret: standardSecretOf(secret) } : { maskedSecret: row.secretMask }),
    secretExists: Boolean(row.secretEnc),
    isActive: row.isActive,
    pausedReason: row.isActive ? null : row.pausedReason,
    createdBy: row.createdBy,
    createdOn: row.createdOn.toISOString(),
    updatedOn: row.updatedOn.toISOString(),
  };
}

function nameTaken(orgId: string, webhookName: string): ConflictError {
  return new ConflictError(`A webhook named "${webhookName}" is already active`, "WebhookNameTaken", {
    constraint: "webhook_active_name_key",
    orgId,
    name: webhookName,
  });
}

/** By name: the active webhook when there is one, else the most recently updated (docs/contract.md "Webhooks"). */
/** A webhook is addressed by name in the API and by id in the dashboard (where a paused twin can share the name). */
export type WebhookRef = string | { id: string };

export async function findWebhook(db: Db, orgId: string, ref: WebhookRef): Promise<WebhookRow> {
  const row =
    typeof ref === "string"
      ? await db.webhook.findFirst({ where: { orgId, name: ref }, orderBy: [{ isActive: "desc" }, { updatedOn: "desc" }] })
      : isUuid(ref.id)
        ? await db.webhook.findFirst({ where: { orgId, id: ref.id } })
        : null;
  if (!row) throw new NotFoundError("Webhook not found", "WebhookNotFound");
  return row;
}

export async function createWebhook(deps: WebhookDeps, actor: { orgId: string; userId: string }, input: z.infer<typeof createWebhookSchema>) {
  await checkReceiverUrls(input.urls, deps.allowPrivate);
  if (await deps.db.webhook.findFirst({ where: { orgId: actor.orgId, name: input.name, isActive: true } })) throw nameTaken(actor.orgId, input.name);
  const secret = newSecret();
  try {
    const row = await deps.db.webhook.create({
      data: {
        orgId: actor.orgId,
        name: input.name,
        urls: input.urls,
        events: [...new Set(input.events)],
        secretEnc: seal(deps.instanceSecret, secret),
        secretMask: mask(secret),
        createdBy: actor.userId,
      },
    });
    return webhookJson(row, secret);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(actor.orgId, input.name);
    throw err;
  }
}

export async function updateWebhook(deps: WebhookDeps, orgId: string, webhookName: WebhookRef, input: z.infer<typeof updateWebhookSchema>) {
  const row = await findWebhook(deps.db, orgId, webhookName);
  if (input.urls) await checkReceiverUrls(input.urls, deps.allowPrivate);
  const nextName = input.name ?? row.name;
  const nextActive = input.isActive ?? row.isActive;
  if (nextActive && (nextName !== row.name || !row.isActive)) {
    const holder = await deps.db.webhook.findFirst({ where: { orgId, name: nextName, isActive: true, id: { not: row.id } } });
    if (holder) throw nameTaken(orgId, nextName);
  }
  try {
    const updated = await deps.db.webhook.update({
      where: { id: row.id },
      data: {
        name: nextName,
        isActive: nextActive,
        ...(nextActive ? { pausedReason: null } : {}),
        ...(input.urls ? { urls: input.urls } : {}),
        ...(input.events ? { events: [...new Set(input.events)] } : {}),
      },
    });
    return webhookJson(updated);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(orgId, nextName);
    throw err;
  }
}

export async function deleteWebhook(db: Db, orgId: string, webhookName: WebhookRef): Promise<{ id: string }> {
  const row = await findWebhook(db, orgId, webhookName);
  await db.webhook.delete({ where: { id: row.id } });
  return { id: row.id };
}

export async function regenerateSecret(deps: WebhookDeps, orgId: string, webhookName: WebhookRef) {
  const row = await findWebhook(deps.db, orgId, webhookName);
  const secret = newSecret();
  const updated = await deps.db.webhook.update({ where: { id: row.id }, data: { secretEnc: seal(deps.instanceSecret, secret), secretMask: mask(secret) } });
  return webhookJson(updated, secret);
}

export function webhookSecret(instanceSecret: string, row: { secretEnc: string }): string {
  return open(instanceSecret, row.secretEnc);
}

export async function getWebhook(db: Db, orgId: string, webhookName: WebhookRef) {
  const row = await findWebhook(db, orgId, webhookName);
  const grouped = await db.webhookDelivery.groupBy({ by: ["status"], where: { webhookId: row.id }, _count: { _all: true } });
  const last = await db.webhookDelivery.findFirst({
    where: { webhookId: row.id, deliveredAt: { not: null } },
    orderBy: { deliveredAt: "desc" },
    select: { deliveredAt: true },
  });
  const count = (s: string) => grouped.find((g) => g.status === s)?._count._all ?? 0;
  return {
    ...webhookJson(row),
    deliveryStats: {
      total: grouped.reduce((n, g) => n + g._count._all, 0),
      delivered: count("delivered"),
      retrying: count("retrying") + count("pending"),
      failed: count("failed"),
      lastDeliveryAt: last?.deliveredAt?.toISOString() ?? null,
    },
    availableEvents: [...AVAILABLE_EVENTS],
  };
}

/**
 * The organization's webhooks, active first, then the latest changed: one prepared statement. Prisma's
 * findMany of the same rows cost three times the CPU (1.6-2.5 ms against 0.5 ms on PGlite, measured
 * in-process), on a list every API client may poll (issue 17).
 */
const LIST_SQL = `
  SELECT "id", "orgId", "name", "urls", "events", "secretEnc", "secretMask", "isActive", "pausedReason", "createdBy", "createdOn", "updatedOn"
  FROM webhook WHERE "orgId" = $1::uuid
  ORDER BY "isActive" DESC, "updatedOn" DESC`;

export async function listWebhooks(sql: SqlRunner, orgId: string) {
  const rows = await sql.query<WebhookRow>(LIST_SQL, [orgId]);
  return rows.map((r) => webhookJson(r));
}

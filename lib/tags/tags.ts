// Organization-scoped tags shared by templates and deliverables. A label is created on first use.
import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { SqlRunner } from "@/lib/db/sql";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ValidationError } from "@/lib/errors";

type TagRow = { id: string; label: string; isActive: boolean; createdOn: Date; updatedOn: Date; createdBy: string; orgId: string };

export interface TagJson {
  id: string;
  label: string;
  isActive: boolean;
  updatedOn: string;
  createdOn: string;
  createdBy: string;
  orgId: string;
}

export const MAX_TAG_LENGTH = 64;
export const MAX_TAGS_PER_ITEM = 50;

export function tagJson(tag: TagRow): TagJson {
  return {
    id: tag.id,
    label: tag.label,
    isActive: tag.isActive,
    updatedOn: tag.updatedOn.toISOString(),
    createdOn: tag.createdOn.toISOString(),
    createdBy: tag.createdBy,
    orgId: tag.orgId,
  };
}

/** Trims, drops duplicates (case-insensitively, first spelling wins) and checks lengths. */
export function normalizeLabels(labels: string[], field = "tags"): string[] {
  const seen = new Map<string, string>();
  const issues = [];
  for (const [i, raw] of labels.entries()) {
    const label = raw.trim();
    if (!label) issues.push({ field: `${field}.${i}`, message: "must not be empty" });
    else if (label.length > MAX_TAG_LENGTH) issues.push({ field: `${field}.${i}`, message: `must be at most ${MAX_TAG_LENGTH} characters` });
    else if (!seen.has(label.toLowerCase())) seen.set(label.toLowerCase(), label);
  }
  if (seen.size > MAX_TAGS_PER_ITEM) issues.push({ field, message: `at most ${MAX_TAGS_PER_ITEM} tags` });
  if (issues.length) throw new ValidationError(`Invalid tags: ${issues.map((i) => `${i.field} ${i.message}`).join("; ")}`, issues);
  return [...seen.values()];
}

/** Returns the organization's tags for these labels, creating missing ones (race-safe upsert). */
export async function ensureTags(tx: Db | Prisma.TransactionClient, orgId: string, userId: string, labels: string[]): Promise<TagRow[]> {
  const tags: TagRow[] = [];
  for (const label of labels) {
    // Labels match case-insensitively: "Sales" reuses an existing "sales" tag.
    const existing = await tx.tag.findFirst({ where: { orgId, label: { equals: label, mode: "insensitive" } } });
    if (existing) {
      tags.push(existing.isActive ? existing : await tx.tag.update({ where: { id: existing.id }, data: { isActive: true } }));
      continue;
    }
    tags.push(
      await tx.tag.upsert({
        where: { orgId_label: { orgId, label } },
        create: { orgId, label, createdBy: userId },
        update: { isActive: true },
      }),
    );
  }
  return tags;
}

const TAG_COLUMNS = `id, "orgId", label, "isActive", "createdBy", "createdOn", "updatedOn"`;

/** ensureTags in plain SQL, for writers that run their transaction on the driver (a deliverable's create). */
export async function ensureTagsSql(tx: SqlRunner, orgId: string, userId: string, labels: string[]): Promise<TagRow[]> {
  const tags: TagRow[] = [];
  for (const label of labels) {
    const now = new Date().toISOString();
    // Labels match case-insensitively: "Sales" reuses an existing "sales" tag.
    const [existing] = await tx.query<TagRow>(`SELECT ${TAG_COLUMNS} FROM tag WHERE "orgId" = $1::uuid AND lower(label) = lower($2) LIMIT 1`, [orgId, label]);
    if (existing) {
      if (existing.isActive) tags.push(existing);
      else
        tags.push(
          (
            await tx.query<TagRow>(`UPDATE tag SET "isActive" = true, "updatedOn" = $2::timestamptz WHERE id = $1::uuid RETURNING ${TAG_COLUMNS}`, [
              existing.id,
              now,
            ])
          )[0],
        );
      continue;
    }
    const [tag] = await tx.query<TagRow>(
      `INSERT INTO tag (id, "orgId", label, "createdBy", "createdOn", "updatedOn") VALUES ($1::uuid, $2::uuid, $3, $4::uuid, $5::timestamptz, $5::timestamptz)
       ON CONFLICT ("orgId", label) DO UPDATE SET "isActive" = true, "updatedOn" = EXCLUDED."updatedOn"
       RETURNING ${TAG_COLUMNS}`,
      [crypto.randomUUID(), orgId, label, userId, now],
    );
    tags.push(tag);
  }
  return tags;
}

export async function listTags(db: Db, orgId: string): Promise<TagJson[]> {
  const rows = await db.tag.findMany({ where: { orgId, isActive: true }, orderBy: { label: "asc" } });
  return rows.map(tagJson);
}

// Organization-scoped tags shared by templates and deliverables. A label is created on first use.
import type { Db } from "@/lib/db/client";
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

export async function listTags(db: Db, orgId: string): Promise<TagJson[]> {
  const rows = await db.tag.findMany({ where: { orgId, isActive: true }, orderBy: { label: "asc" } });
  return rows.map(tagJson);
}

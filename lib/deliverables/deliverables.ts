// Deliverables: documents generated from a template, with their PDF, made in one step.
// Create renders, converts, then stores files before the row; any failure or a client that goes
// away removes what was written, so nothing half-made remains (docs/contract.md "Deliverables").
import crypto from "node:crypto";
import type { Plan } from "@/lib/auth/roles";
import type { Db } from "@/lib/db/client";
import { answerPrompts, type PromptAnswerer } from "@/lib/deliverables/ai";
import type { CreateDeliverableBody, VariableInput } from "@/lib/deliverables/schemas";
import { renderTemplate } from "@/lib/deliverables/render";
import { ClientClosedError, ForbiddenError, NotFoundError, UnprocessableError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { PdfConverter } from "@/lib/pdf/converter";
import type { FileStorage } from "@/lib/storage";
import { ensureTags, normalizeLabels, tagJson, type TagJson } from "@/lib/tags/tags";
import { isUuid } from "@/lib/ids";

export const NAME_MIN = 3;
export const NAME_MAX = 255;
export const DESCRIPTION_MAX = 65_535;
export const AI_PROMPT_MAX = 16_000;

export interface DeliverableDeps {
  db: Db;
  storage: FileStorage;
  converter: PdfConverter;
  fetchImage: (url: string) => Promise<Buffer>;
  answerPrompt: PromptAnswerer | null;
}

export interface DeliverableActor {
  orgId: string;
  userId: string;
  plan: Plan;
}

const SOURCE_MIME = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
} as const;

/** Field constraints (422): lengths of name, description and aiPrompt, all reported at once. */
export function checkConstraints(input: { name?: string; description?: string; variables?: VariableInput[] }): void {
  const problems: string[] = [];
  if (input.name !== undefined && (input.name.trim().length < NAME_MIN || input.name.length > NAME_MAX)) {
    problems.push(`name must be ${NAME_MIN} to ${NAME_MAX} characters`);
  }
  if (input.description !== undefined && input.description.length > DESCRIPTION_MAX) problems.push(`description must be at most ${DESCRIPTION_MAX} characters`);
  for (const v of input.variables ?? []) {
    for (const item of [v, ...(v.subvariables ?? [])]) {
      if (item.aiPrompt !== undefined && item.aiPrompt.length > AI_PROMPT_MAX) problems.push(`aiPrompt of ${item.placeholder} must be at most ${AI_PROMPT_MAX} characters`);
    }
  }
  if (problems.length) throw new UnprocessableError(problems.join("; "), "FieldConstraintViolation");
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new ClientClosedError();
}

/**
 * Active deliverables and bytes stored (deliverable files and PDFs, templates) in one statement: as
 * three Prisma aggregates this was a fifth of a create's CPU on the embedded database, twice per create.
 */
async function quotaUsage(tx: Prisma.TransactionClient | Db, orgId: string): Promise<{ deliverables: bigint; bytes: bigint }> {
  const [usage] = await tx.$queryRaw<{ deliverables: bigint; bytes: bigint }[]>`
    SELECT d.deliverables, d.bytes + t.bytes AS bytes
    FROM (SELECT count(*) AS deliverables, COALESCE(sum("fileSize"), 0) + COALESCE(sum("pdfSize"), 0) AS bytes
          FROM deliverable WHERE "orgId" = ${orgId}::uuid AND "isActive") d,
         (SELECT COALESCE(sum("fileSize"), 0) AS bytes FROM template WHERE "orgId" = ${orgId}::uuid AND "isActive") t`;
  return { deliverables: BigInt(usage.deliverables), bytes: BigInt(usage.bytes) };
}

async function checkQuotas(tx: Prisma.TransactionClient | Db, actor: DeliverableActor, newBytes: number): Promise<void> {
  const usage = await quotaUsage(tx, actor.orgId);
  if (usage.deliverables >= BigInt(actor.plan.maxDeliverables)) {
    throw new ForbiddenError(`Your plan allows ${actor.plan.maxDeliverables} deliverables and all are used; delete some or upgrade`, "DeliverableQuotaExceeded");
  }
  if (usage.bytes + BigInt(newBytes) > actor.plan.maxStorageBytes) {
    throw new ForbiddenError("Your plan's storage is full; delete deliverables or templates, or upgrade", "StorageQuotaExceeded");
  }
}

/** The fields a create reads of its template, by raw SQL: Prisma's query compiler costs more than the lookup. */
async function findActiveTemplate(db: Db, orgId: string, templateId: string): Promise<{ id: string; kind: string; storageKey: string } | null> {
  if (!isUuid(templateId)) return null;
  const rows = await db.$queryRaw<{ id: string; kind: string; storageKey: string }[]>`
    SELECT id, kind, "storageKey" FROM template WHERE id = ${templateId}::uuid AND "orgId" = ${orgId}::uuid AND "isActive" LIMIT 1`;
  return rows[0] ?? null;
}

export interface CreatedDeliverableJson {
  id: string;
  name: string;
  description: string;
  templateId: string;
  createdBy: string;
  createdOn: string;
  updatedOn: string;
  isActive: boolean;
  defaultFont: string;
  fonts: { name: string; usage: number }[] | null;
}

export async function createDeliverable(deps: DeliverableDeps, actor: DeliverableActor, input: CreateDeliverableBody, signal?: AbortSignal): Promise<CreatedDeliverableJson> {
  try {
    return await generate(deps, actor, input, signal);
  } catch (err) {
    // Whatever step noticed the disconnect (converter, fetch, our own checks), the answer is 499.
    if (signal?.aborted) throw new ClientClosedError();
    throw err;
  }
}

async function generate(deps: DeliverableDeps, actor: DeliverableActor, input: CreateDeliverableBody, signal?: AbortSignal): Promise<CreatedDeliverableJson> {
  checkConstraints(input);
  const labels = normalizeLabels(input.tags ?? []);
  const template = await findActiveTemplate(deps.db, actor.orgId, input.templateId);
  if (!template) throw new NotFoundError("Template not found (or deleted)", "TemplateNotFound");
  // Fail fast before the expensive part; checked again, under a lock, when the row is written.
  await checkQuotas(deps.db, actor, 0);

  const variables = await answerPrompts(input.variables, deps.answerPrompt, signal);
  throwIfAborted(signal);
  const kind = template.kind as "docx" | "pptx";
  const rendered = await renderTemplate(await deps.storage.get(template.storageKey), kind, variables, {
    defaultFont: input.defaultFont,
    fetchImage: deps.fetchImage,
  });
  throwIfAborted(signal);
  const pdf = await deps.converter.convert(rendered.file, kind, { signal });
  throwIfAborted(signal);

  const id = crypto.randomUUID();
  const sourceKey = `deliverables/${actor.orgId}/${id}.${kind}`;
  const pdfKey = `deliverables/${actor.orgId}/${id}.pdf`;
  const written: string[] = [];
  try {
    await putAll(deps.storage, [[sourceKey, rendered.file], [pdfKey, pdf]], written);
    throwIfAborted(signal);
    const row = await deps.db.$transaction(async (tx) => {
      // One writer per organization at a time, so two creates cannot both squeeze under a quota.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${actor.orgId}))`;
      await checkQuotas(tx, actor, rendered.file.length + pdf.length);
      const tags = await ensureTags(tx, actor.orgId, actor.userId, labels);
      return tx.deliverable.create({
        data: {
          id,
          orgId: actor.orgId,
          templateId: template.id,
          name: input.name.trim(),
          description: input.description ?? "",
          createdBy: actor.userId,
          fileType: SOURCE_MIME[kind],
          fileSize: rendered.file.length,
          pdfSize: pdf.length,
          storageKey: sourceKey,
          pdfKey,
          defaultFont: input.defaultFont ?? "",
          fonts: rendered.fonts,
          variables: variables as unknown as Prisma.InputJsonValue,
          tags: { create: tags.map((t) => ({ tagId: t.id })) },
        },
      });
    });
    if (signal?.aborted) {
      // The client left after the row was written: undo it too, as the contract promises.
      await deps.db.deliverable.delete({ where: { id: row.id } });
      throw new ClientClosedError();
    }
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      templateId: row.templateId,
      createdBy: row.createdBy,
      createdOn: row.createdOn.toISOString(),
      updatedOn: row.updatedOn.toISOString(),
      isActive: row.isActive,
      defaultFont: row.defaultFont,
      fonts: (row.fonts as CreatedDeliverableJson["fonts"]) ?? null,
    };
  } catch (err) {
    await Promise.all(written.map((key) => deps.storage.delete(key).catch(() => {})));
    throw err;
  }
}

/** Stores the files side by side; every key that was written goes into `written`, for the cleanup, even when another fails. */
async function putAll(storage: FileStorage, files: [key: string, data: Buffer][], written: string[]): Promise<void> {
  const results = await Promise.allSettled(
    files.map(async ([key, data]) => {
      await storage.put(key, data);
      written.push(key);
    }),
  );
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
}


const rowInclude = {
  creator: { select: { email: true } },
  tags: { include: { tag: true } },
  template: { select: { name: true, isActive: true } },
} as const;

type DeliverableRow = Prisma.DeliverableGetPayload<{ include: typeof rowInclude }>;

function tagsOf(row: DeliverableRow): TagJson[] {
  return row.tags.map((t) => tagJson(t.tag)).sort((a, b) => a.label.localeCompare(b.label));
}

/** Fields both the list item (2.1) and the single read (2.2) carry. */
function commonJson(row: DeliverableRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    templateId: row.templateId,
    email: row.creator.email,
    fileType: row.fileType,
    defaultFont: row.defaultFont,
    fonts: row.fonts ?? null,
    isActive: row.isActive,
    createdOn: row.createdOn.toISOString(),
    updatedOn: row.updatedOn.toISOString(),
  };
}

async function loadDeliverable(db: Db, orgId: string, id: string): Promise<DeliverableRow> {
  const row = isUuid(id) ? await db.deliverable.findFirst({ where: { id, orgId, isActive: true }, include: rowInclude }) : null;
  if (!row) throw new NotFoundError("Deliverable not found", "DeliverableNotFound");
  return row;
}

export async function getDeliverable(db: Db, orgId: string, id: string, showTags: boolean) {
  const row = await loadDeliverable(db, orgId, id);
  return {
    ...commonJson(row),
    templateName: row.template.name,
    templateNotDeleted: row.template.isActive,
    variables: row.variables,
    ...(showTags ? { tags: tagsOf(row) } : {}),
  };
}

export async function updateDeliverable(db: Db, actor: { orgId: string; userId: string }, id: string, input: { name?: string; description?: string; tags?: string[] }): Promise<void> {
  checkConstraints(input);
  await loadDeliverable(db, actor.orgId, id);
  const labels = input.tags === undefined ? undefined : normalizeLabels(input.tags);
  await db.$transaction(async (tx) => {
    await tx.deliverable.update({
      where: { id },
      data: {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        updatedOn: new Date(),
      },
    });
    if (labels !== undefined) {
      // Replaces every tag: existing ones are removed first; [] leaves none.
      await tx.deliverableTag.deleteMany({ where: { deliverableId: id } });
      const tags = await ensureTags(tx, actor.orgId, actor.userId, labels);
      if (tags.length) await tx.deliverableTag.createMany({ data: tags.map((t) => ({ deliverableId: id, tagId: t.id })) });
    }
  });
}

/** Soft delete: no longer listed or readable; the row and files are kept. */
export async function deleteDeliverable(db: Db, orgId: string, id: string): Promise<void> {
  await loadDeliverable(db, orgId, id);
  await db.deliverable.update({ where: { id }, data: { isActive: false } });
}

export async function deliverableFile(db: Db, storage: FileStorage, orgId: string, id: string, which: "source" | "pdf") {
  const row = await loadDeliverable(db, orgId, id);
  const key = which === "pdf" ? row.pdfKey : row.storageKey;
  if (!key) throw new NotFoundError("The file of this deliverable is not available", "DeliverableFileMissing");
  const extension = which === "pdf" ? "pdf" : row.fileType === SOURCE_MIME.pptx ? "pptx" : "docx";
  return {
    data: await storage.stream(key),
    contentType: which === "pdf" ? "application/pdf" : row.fileType,
    fileName: `${row.name}.${extension}`,
  };
}

// Deliverables: documents generated from a template, with their PDF, made in one step.
// Create renders, converts, then stores files before the row; any failure or a client that goes
// away removes what was written, so nothing half-made remains (docs/contract.md "Deliverables").
import crypto from "node:crypto";
import fsp from "node:fs/promises";
import { type CarriedRow, carriedAdmission, type FoldedAdmission } from "@/lib/auth/rate-limit";
import type { Plan } from "@/lib/auth/roles";
import type { Db } from "@/lib/db/client";
import type { SqlRunner } from "@/lib/db/sql";
import { answerPrompts, type PromptAnswerer } from "@/lib/deliverables/ai";
import type { CreateDeliverableBody } from "@/lib/deliverables/schemas";
import { renderTemplate } from "@/lib/deliverables/render";
import { templateFile } from "@/lib/templates/template-files";
import { ClientClosedError, ForbiddenError, NotFoundError, UnprocessableError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { PdfConverter } from "@/lib/pdf/converter";
import type { FileStorage } from "@/lib/storage";
import { ensureTags, ensureTagsSql, normalizeLabels, tagJson, type TagJson } from "@/lib/tags/tags";
import { isUuid } from "@/lib/ids";
import { CONTENT_TYPES } from "@/lib/files/content-types";

export const NAME_MIN = 3;
export const NAME_MAX = 255;
export const DESCRIPTION_MAX = 65_535;

export interface DeliverableDeps {
  db: Db;
  /** Plain SQL on the same pool: a create's queries, where Prisma's query compiler cost more than the queries. */
  sql: SqlRunner;
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

/** Field constraints (422): lengths of name and description, reported together. The variables' limits
 *  (aiPrompt included) are the render plan's (lib/deliverables/render/plan.ts LIMITS). */
export function checkConstraints(input: { name?: string; description?: string }): void {
  const problems: string[] = [];
  if (input.name !== undefined && (input.name.trim().length < NAME_MIN || input.name.length > NAME_MAX)) {
    problems.push(`name must be ${NAME_MIN} to ${NAME_MAX} characters`);
  }
  if (input.description !== undefined && input.description.length > DESCRIPTION_MAX) problems.push(`description must be at most ${DESCRIPTION_MAX} characters`);
  if (problems.length) throw new UnprocessableError(problems.join("; "), "FieldConstraintViolation");
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new ClientClosedError();
}

type Usage = { deliverables: bigint; bytes: bigint };

/** Active deliverables and bytes stored (deliverable files and PDFs, templates): the counter row that
 *  triggers keep (migration org_usage), not an aggregate over every deliverable. */
const USAGE_SQL = `SELECT u.deliverables, u.bytes FROM org_usage u WHERE u."orgId" = $1::uuid`;

/** count/sum come back as bigint (PGlite) or as their decimal text (pg): BigInt takes both. */
function usageOf(row: { deliverables: bigint | string; bytes: bigint | string }): Usage {
  return { deliverables: BigInt(row.deliverables), bytes: BigInt(row.bytes) };
}

/** One row read; under the create's per-organization lock it is exact. */
async function quotaUsage(runner: SqlRunner, orgId: string): Promise<Usage> {
  const [usage] = await runner.query<{ deliverables: bigint | string; bytes: bigint | string }>(USAGE_SQL, [orgId]);
  return usageOf(usage);
}

function enforceQuotas(usage: Usage, actor: DeliverableActor, newBytes: number): void {
  if (usage.deliverables >= BigInt(actor.plan.maxDeliverables)) {
    throw new ForbiddenError(
      `Your plan allows ${actor.plan.maxDeliverables} deliverables and all are used; delete some or upgrade`,
      "DeliverableQuotaExceeded",
    );
  }
  if (usage.bytes + BigInt(newBytes) > actor.plan.maxStorageBytes) {
    throw new ForbiddenError("Your plan's storage is full; delete deliverables or templates, or upgrade", "StorageQuotaExceeded");
  }
}

type TemplateRef = { id: string; kind: string; storageKey: string };

/**
 * The fields a create reads of its template and the organization's usage, in one statement (raw SQL:
 * Prisma's query compiler cost more than the lookup). The template is null when it does not exist.
 */
async function templateAndUsage(
  runner: SqlRunner,
  actor: DeliverableActor,
  templateId: string,
  admission?: FoldedAdmission,
): Promise<{ template: TemplateRef | null; usage: Usage | null; plan: Plan }> {
  // A bad id makes no statement: the admission, unsettled, then runs on its own (apiRoute).
  if (!isUuid(templateId)) return { template: null, usage: null, plan: actor.plan };
  const carried = carriedAdmission(admission, 3, actor.plan);
  const [row] = await runner.query<{ id: string | null; kind: string; storageKey: string; deliverables: bigint | string; bytes: bigint | string } & CarriedRow>(
    `${carried.with}
     SELECT tpl.id, tpl.kind, tpl."storageKey", u.deliverables, u.bytes${carried.column}
     FROM (${USAGE_SQL}) u
     LEFT JOIN template tpl ON tpl.id = $2::uuid AND tpl."orgId" = $1::uuid AND tpl."isActive"
     LIMIT 1`,
    [actor.orgId, templateId, ...carried.params],
  );
  const plan = await carried.plan(row);
  return { template: row.id === null ? null : { id: row.id, kind: row.kind, storageKey: row.storageKey }, usage: usageOf(row), plan };
}

/** The columns a create returns of the row it wrote. */
interface CreatedRow {
  id: string;
  name: string;
  description: string;
  templateId: string;
  createdBy: string;
  createdOn: Date;
  updatedOn: Date;
  isActive: boolean;
  defaultFont: string;
  fonts: CreatedDeliverableJson["fonts"];
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

export async function createDeliverable(
  deps: DeliverableDeps,
  actor: DeliverableActor,
  input: CreateDeliverableBody,
  opts: { signal?: AbortSignal; admission?: FoldedAdmission } = {},
): Promise<CreatedDeliverableJson> {
  const { signal } = opts;
  try {
    return await generate(deps, actor, input, opts);
  } catch (err) {
    // Whatever step noticed the disconnect (converter, fetch, our own checks), the answer is 499.
    if (signal?.aborted) throw new ClientClosedError();
    throw err;
  }
}

async function generate(
  deps: DeliverableDeps,
  caller: DeliverableActor,
  input: CreateDeliverableBody,
  { signal, admission }: { signal?: AbortSignal; admission?: FoldedAdmission },
): Promise<CreatedDeliverableJson> {
  checkConstraints(input);
  const labels = normalizeLabels(input.tags ?? []);
  const id = crypto.randomUUID();
  const pdfKey = `deliverables/${caller.orgId}/${id}.pdf`;
  // Where the converter will put the PDF is made ready (a directory, locally) while the template is
  // read and filled: a millisecond off every create. Nothing is written there until the conversion.
  const staging = deps.storage.stagingFile(pdfKey);
  staging.catch(() => {}); // awaited below; a create that stops earlier has nothing to clean up
  // The quotas fail fast before the expensive part; they are checked again, under a lock, when the
  // row is written. A missing template answers 404 first. The key's admission rides in this first
  // statement when apiRoute hands it over (ADR 0022); the plan it settles is the request's.
  const { template, usage, plan } = await templateAndUsage(deps.sql, caller, input.templateId, admission);
  const actor = { ...caller, plan };
  if (!template) throw new NotFoundError("Template not found (or deleted)", "TemplateNotFound");
  enforceQuotas(usage!, actor, 0);

  const variables = await answerPrompts(input.variables, deps.answerPrompt, signal);
  throwIfAborted(signal);
  const kind = template.kind as "docx" | "pptx";
  const rendered = await renderTemplate(await templateFile(deps.storage, template.storageKey), kind, variables, {
    defaultFont: input.defaultFont,
    fetchImage: deps.fetchImage,
  });
  throwIfAborted(signal);

  const sourceKey = `deliverables/${actor.orgId}/${id}.${kind}`;
  const written: string[] = [];
  const store = (key: string, write: Promise<unknown>) => write.then(() => void written.push(key));
  // The source is stored while LibreOffice converts it. The converter puts the PDF where the storage
  // takes it in (beside its key's file, locally: then a rename), never through this process's memory.
  // Every path below waits for the source's write before it cleans up.
  const sourceStored = store(sourceKey, deps.storage.put(sourceKey, rendered.file));
  sourceStored.catch(() => {});
  let staged: string | null = null;
  try {
    staged = await staging;
    const pdf = await deps.converter.convertToFile(rendered.file, kind, staged, { signal });
    throwIfAborted(signal);
    const pdfStored = store(pdfKey, deps.storage.putFile(pdfKey, staged));
    staged = null; // putFile removes it, stored or not
    const stored = await Promise.allSettled([sourceStored, pdfStored]);
    const failed = stored.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    throwIfAborted(signal);
    const row = await writeDeliverable(deps.sql, actor, labels, rendered.file.length + pdf.size, [
      id,
      actor.orgId,
      template.id,
      input.name.trim(),
      input.description ?? "",
      actor.userId,
      CONTENT_TYPES[kind],
      rendered.file.length,
      pdf.size,
      sourceKey,
      pdfKey,
      input.defaultFont ?? "",
      JSON.stringify(rendered.fonts),
      JSON.stringify(variables),
      new Date().toISOString(),
    ]);
    if (signal?.aborted) {
      // The client left after the row was written: undo it too, as the contract promises (its tags go with it).
      await deps.sql.query("DELETE FROM deliverable WHERE id = $1::uuid", [row.id]);
      throw new ClientClosedError();
    }
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      templateId: row.templateId,
      createdBy: row.createdBy,
      createdOn: new Date(row.createdOn).toISOString(),
      updatedOn: new Date(row.updatedOn).toISOString(),
      isActive: row.isActive,
      defaultFont: row.defaultFont,
      fonts: row.fonts ?? null,
    };
  } catch (err) {
    await sourceStored.catch(() => {});
    // A PDF converted but not taken in (the client left): the converter removes it only when it fails.
    if (staged) await fsp.rm(staged, { force: true });
    await Promise.all(written.map((key) => deps.storage.delete(key).catch(() => {})));
    throw err;
  }
}

/**
 * The row, written only while the organization's quotas allow it: the usage row is locked (one
 * writer per organization at a time, so two creates cannot both squeeze under a quota), checked and
 * the row inserted in one statement; its trigger counts the new row in. Without tags that is the
 * whole write, one round trip (it was five: begin, lock, usage, insert, commit); with tags, one
 * transaction adds them. Prisma's nested create cost more than all of it (its query compiler).
 */
async function writeDeliverable(sql: SqlRunner, actor: DeliverableActor, labels: string[], newBytes: number, values: unknown[]): Promise<CreatedRow> {
  const insert = async (runner: SqlRunner) => {
    const [created] = await runner.query<CreatedRow>(INSERT_WITHIN_QUOTA, [
      ...values,
      actor.plan.maxDeliverables,
      newBytes,
      actor.plan.maxStorageBytes.toString(),
    ]);
    // Refused: say which quota, from the usage as it is now.
    if (!created) enforceQuotas(await quotaUsage(runner, actor.orgId), actor, newBytes);
    if (!created) throw new ForbiddenError("Your plan's quotas do not allow another deliverable now; try again", "DeliverableQuotaExceeded");
    return created;
  };
  if (labels.length === 0) return insert(sql);
  return sql.transaction(async (tx) => {
    const tags = await ensureTagsSql(tx, actor.orgId, actor.userId, labels);
    const created = await insert(tx);
    await tx.query(`INSERT INTO deliverable_tag ("deliverableId", "tagId") SELECT $1::uuid, t::uuid FROM jsonb_array_elements_text($2::jsonb) t`, [
      created.id,
      JSON.stringify(tags.map((t) => t.id)),
    ]);
    return created;
  });
}

const INSERT_WITHIN_QUOTA = `WITH allowed AS (
    SELECT 1 FROM org_usage
    WHERE "orgId" = $2::uuid AND deliverables < $16 AND bytes + $17::bigint <= $18::bigint
    FOR UPDATE
  )
  INSERT INTO deliverable (id, "orgId", "templateId", name, description, "createdBy", "fileType", "fileSize", "pdfSize",
                           "storageKey", "pdfKey", "defaultFont", fonts, variables, "createdOn", "updatedOn")
  SELECT $1::uuid, $2::uuid, $3::uuid, $4, $5, $6::uuid, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::jsonb, $15::timestamptz, $15::timestamptz
  FROM allowed
  RETURNING id, name, description, "templateId", "createdBy", "createdOn", "updatedOn", "isActive", "defaultFont", fonts`;

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

export async function updateDeliverable(
  db: Db,
  actor: { orgId: string; userId: string },
  id: string,
  input: { name?: string; description?: string; tags?: string[] },
): Promise<void> {
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
  const extension = which === "pdf" ? "pdf" : row.fileType === CONTENT_TYPES.pptx ? "pptx" : "docx";
  return {
    data: await storage.stream(key),
    contentType: which === "pdf" ? "application/pdf" : row.fileType,
    fileName: `${row.name}.${extension}`,
  };
}

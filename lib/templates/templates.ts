// Templates: upload (inspect, store, record), read, update, soft delete.
// An upload writes the file first and the row second; if the row cannot be written the file is
// removed, so a failure leaves neither behind.
import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { ensureTags, normalizeLabels, tagJson, type TagJson } from "@/lib/tags/tags";
import { inspectTemplate, type TemplateInspection, type TemplateKind, type TemplatePlaceholder } from "@/lib/templates/inspect";
import { templateTooLarge } from "@/lib/templates/template-file-errors";
import { checkTemplate, type TemplateFinding } from "@/lib/templates/doctor";
import { classifyTag } from "@/lib/templates/tags";
import type { FileStorage } from "@/lib/storage";
import type { StoredFile } from "@/lib/storage/types";
import type { UploadedFile } from "@/lib/uploads/file";

export const TEMPLATE_NAME_MAX = 255;
export const TEMPLATE_DESCRIPTION_MAX = 65_535;

export type Placeholder = TemplatePlaceholder;

/** Templates uploaded before placeholders had kinds: the kind their tag's syntax says. */
function withKind(p: Omit<Placeholder, "kind"> & { kind?: Placeholder["kind"] }): Placeholder {
  if (p.kind) return p as Placeholder;
  let kind: Placeholder["kind"] = "text";
  try {
    kind = classifyTag(p.placeholder.slice(1, -1)).kind;
  } catch {
    // A tag that was accepted before expressions existed stays a plain name.
  }
  return { ...p, kind };
}

export interface TemplateJson {
  id: string;
  name: string;
  description: string;
  type: "template";
  isActive: boolean;
  templateFolderId: string | null;
  createdBy: string;
  email: string;
  deliverableCount: number;
  templateCount: number;
  fileSize: number;
  fileType: string;
  createdOn: string;
  updatedOn: string;
}

export interface TemplateDetailJson extends TemplateJson {
  folderName: string | null;
  variables: Placeholder[];
  tags: TagJson[];
}

export interface Actor {
  orgId: string;
  userId: string;
}

const detailInclude = {
  creator: { select: { email: true } },
  folder: { select: { name: true } },
  tags: { include: { tag: true } },
  _count: { select: { deliverables: { where: { isActive: true } } } },
} as const;

type TemplateWithDetail = Awaited<ReturnType<typeof loadTemplate>>;

async function loadTemplate(db: Db, orgId: string, id: string, { includeDeleted = false } = {}) {
  const row = await db.template.findFirst({
    where: { id, orgId, ...(includeDeleted ? {} : { isActive: true }) },
    include: detailInclude,
  });
  if (!row) throw new NotFoundError("Template not found", "TemplateNotFound");
  return row;
}

function detailJson(row: TemplateWithDetail): TemplateDetailJson {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: "template",
    isActive: row.isActive,
    templateFolderId: row.folderId,
    createdBy: row.createdBy,
    email: row.creator.email,
    deliverableCount: row._count.deliverables,
    templateCount: 0,
    fileSize: row.fileSize,
    fileType: row.fileType,
    createdOn: row.createdOn.toISOString(),
    updatedOn: row.updatedOn.toISOString(),
    folderName: row.folder?.name ?? null,
    variables: (row.placeholders as unknown as Placeholder[]).map(withKind),
    tags: row.tags.map((t) => tagJson(t.tag)).sort((a, b) => a.label.localeCompare(b.label)),
  };
}

async function requireFolder(db: Db, orgId: string, folderId: string | null | undefined, field: string): Promise<void> {
  if (!folderId) return;
  const folder = await db.templateFolder.findFirst({ where: { id: folderId, orgId, isActive: true }, select: { id: true } });
  if (!folder) throw new ValidationError(`Folder ${folderId} does not exist`, [{ field, message: "folder not found" }]);
}

export interface UploadTemplateInput {
  file: UploadedFile;
  name?: string;
  description?: string;
  templateFolderId?: string | null;
  tags?: string[];
}

export async function uploadTemplate(
  db: Db,
  storage: FileStorage,
  actor: Actor,
  input: UploadTemplateInput,
  opts: { maxBytes: number },
): Promise<TemplateDetailJson> {
  // The ZIP inspector needs the bytes in memory, so the cap is checked before reading them;
  // storage gets a stream of the file, not this buffer.
  if (input.file.size > opts.maxBytes) throw templateTooLarge(opts.maxBytes);
  const inspection: TemplateInspection = await inspectTemplate(await input.file.readAll(), input.file.name, { maxBytes: opts.maxBytes });
  const labels = normalizeLabels(input.tags ?? []);
  await requireFolder(db, actor.orgId, input.templateFolderId, "templateFolderId");
  const name = (input.name?.trim() || input.file.name.replace(/\.(docx|pptx)$/i, "")).slice(0, TEMPLATE_NAME_MAX);

  const id = crypto.randomUUID();
  const storageKey = `templates/${actor.orgId}/${id}.${inspection.kind}`;
  await storage.put(storageKey, input.file.stream(), { size: input.file.size });
  try {
    await db.$transaction(async (tx) => {
      const tags = await ensureTags(tx, actor.orgId, actor.userId, labels);
      await tx.template.create({
        data: {
          id,
          orgId: actor.orgId,
          folderId: input.templateFolderId ?? null,
          name,
          description: input.description ?? "",
          kind: inspection.kind,
          fileType: inspection.fileType,
          fileSize: inspection.fileSize,
          storageKey,
          placeholders: inspection.placeholders as unknown as object,
          createdBy: actor.userId,
          tags: { create: tags.map((t) => ({ tagId: t.id })) },
        },
      });
    });
  } catch (err) {
    await storage.delete(storageKey).catch(() => {});
    throw err;
  }
  return detailJson(await loadTemplate(db, actor.orgId, id));
}

export async function getTemplate(db: Db, orgId: string, id: string): Promise<TemplateDetailJson> {
  return detailJson(await loadTemplate(db, orgId, id));
}

export interface UpdateTemplateInput {
  name?: string;
  description?: string;
  templateFolderId?: string | null;
  tags?: string[];
}

export async function updateTemplate(db: Db, actor: Actor, id: string, input: UpdateTemplateInput): Promise<TemplateDetailJson> {
  await loadTemplate(db, actor.orgId, id);
  const labels = input.tags === undefined ? undefined : normalizeLabels(input.tags);
  if (input.templateFolderId !== undefined) await requireFolder(db, actor.orgId, input.templateFolderId, "templateFolderId");
  await db.$transaction(async (tx) => {
    await tx.template.update({
      where: { id },
      data: {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.templateFolderId !== undefined ? { folderId: input.templateFolderId } : {}),
      },
    });
    if (labels !== undefined) {
      const tags = await ensureTags(tx, actor.orgId, actor.userId, labels);
      await tx.templateTag.deleteMany({ where: { templateId: id } });
      if (tags.length) await tx.templateTag.createMany({ data: tags.map((t) => ({ templateId: id, tagId: t.id })) });
      // Tag changes alone must still move updatedOn.
      await tx.template.update({ where: { id }, data: { updatedOn: new Date() } });
    }
  });
  return detailJson(await loadTemplate(db, actor.orgId, id));
}

/** Soft delete: the row and file stay, so deliverables made from it keep working. */
export async function deleteTemplate(db: Db, orgId: string, id: string): Promise<{ id: string }> {
  await loadTemplate(db, orgId, id);
  await db.template.update({ where: { id }, data: { isActive: false, deletedAt: new Date() } });
  return { id };
}

export async function templateFile(
  db: Db,
  storage: FileStorage,
  orgId: string,
  id: string,
): Promise<{ name: string; kind: string; fileType: string; data: StoredFile }> {
  const row = await loadTemplate(db, orgId, id);
  return { name: row.name, kind: row.kind, fileType: row.fileType, data: await storage.stream(row.storageKey) };
}

/** The template doctor's findings for a stored template (lib/templates/doctor.ts). */
export async function checkStoredTemplate(
  db: Db,
  storage: FileStorage,
  orgId: string,
  id: string,
  converterFonts: () => Promise<string[] | null>,
): Promise<{ templateId: string; findings: TemplateFinding[]; fontsChecked: boolean }> {
  const row = await loadTemplate(db, orgId, id);
  const [file, fonts] = await Promise.all([storage.get(row.storageKey), converterFonts()]);
  return { templateId: row.id, findings: checkTemplate(file, row.kind as TemplateKind, { fonts }), fontsChecked: fonts !== null };
}

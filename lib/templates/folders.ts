// Template folders: nested, renamed, moved (never into themselves), deleted only when empty.
import type { Db } from "@/lib/db/client";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import type { Actor } from "@/lib/templates/templates";

export const FOLDER_NAME_MAX = 255;
const MAX_DEPTH = 32;

export interface FolderJson {
  id: string;
  name: string;
  type: "folder";
  isActive: boolean;
  templateFolderId: string | null;
  createdBy: string;
  createdOn: string;
  updatedOn: string;
}

type FolderRow = { id: string; name: string; isActive: boolean; parentId: string | null; createdBy: string; createdOn: Date; updatedOn: Date };

function folderJson(f: FolderRow): FolderJson {
  return {
    id: f.id,
    name: f.name,
    type: "folder",
    isActive: f.isActive,
    templateFolderId: f.parentId,
    createdBy: f.createdBy,
    createdOn: f.createdOn.toISOString(),
    updatedOn: f.updatedOn.toISOString(),
  };
}

async function loadFolder(db: Db, orgId: string, id: string): Promise<FolderRow> {
  const folder = await db.templateFolder.findFirst({ where: { id, orgId, isActive: true } });
  if (!folder) throw new NotFoundError("Folder not found", "FolderNotFound");
  return folder;
}

async function requireParent(db: Db, orgId: string, parentId: string | null | undefined): Promise<void> {
  if (!parentId) return;
  const parent = await db.templateFolder.findFirst({ where: { id: parentId, orgId, isActive: true }, select: { id: true } });
  if (!parent) throw new ValidationError(`Parent folder ${parentId} does not exist`, [{ field: "parentId", message: "folder not found" }]);
}

/** Folder ids from `id` up to the root (inclusive). */
export async function folderPath(db: Db, orgId: string, id: string): Promise<{ id: string; name: string }[]> {
  const path: { id: string; name: string }[] = [];
  let current: string | null = id;
  while (current && path.length < MAX_DEPTH + 1) {
    const folder: { id: string; name: string; parentId: string | null } | null = await db.templateFolder.findFirst({
      where: { id: current, orgId, isActive: true },
      select: { id: true, name: true, parentId: true },
    });
    if (!folder) break;
    path.unshift({ id: folder.id, name: folder.name });
    current = folder.parentId;
  }
  return path;
}

export async function createFolder(db: Db, actor: Actor, input: { name: string; parentId?: string | null }): Promise<FolderJson> {
  await requireParent(db, actor.orgId, input.parentId);
  if (input.parentId && (await folderPath(db, actor.orgId, input.parentId)).length >= MAX_DEPTH) {
    throw new ValidationError(`Folders nest at most ${MAX_DEPTH} levels deep`, [{ field: "parentId", message: "too deep" }]);
  }
  const folder = await db.templateFolder.create({
    data: { orgId: actor.orgId, name: input.name.trim(), parentId: input.parentId ?? null, createdBy: actor.userId },
  });
  return folderJson(folder);
}

export async function getFolder(db: Db, orgId: string, id: string): Promise<FolderJson & { path: { id: string; name: string }[] }> {
  const folder = await loadFolder(db, orgId, id);
  return { ...folderJson(folder), path: await folderPath(db, orgId, id) };
}

export async function updateFolder(db: Db, actor: Actor, id: string, input: { name?: string; parentId?: string | null }): Promise<FolderJson> {
  await loadFolder(db, actor.orgId, id);
  if (input.parentId !== undefined && input.parentId !== null) {
    await requireParent(db, actor.orgId, input.parentId);
    const ancestors = await folderPath(db, actor.orgId, input.parentId);
    if (ancestors.some((a) => a.id === id)) {
      throw new ValidationError("A folder cannot be moved into itself or one of its subfolders", [{ field: "parentId", message: "would create a cycle" }]);
    }
  }
  const folder = await db.templateFolder.update({
    where: { id },
    data: {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.parentId !== undefined ? { parentId: input.parentId } : {}),
    },
  });
  return folderJson(folder);
}

export async function deleteFolder(db: Db, orgId: string, id: string): Promise<{ id: string }> {
  await loadFolder(db, orgId, id);
  const [folders, templates] = await Promise.all([
    db.templateFolder.count({ where: { orgId, parentId: id, isActive: true } }),
    db.template.count({ where: { orgId, folderId: id, isActive: true } }),
  ]);
  if (folders || templates) {
    const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
    const contents = [templates ? count(templates, "template") : "", folders ? count(folders, "folder") : ""].filter(Boolean).join(" and ");
    throw new ConflictError(
      `The folder is not empty: it holds ${contents}. Move or delete ${templates + folders === 1 ? "it" : "them"} first.`,
      "FolderNotEmpty",
      { templates, folders },
    );
  }
  await db.$transaction([
    // Deleted templates keep their rows (their deliverables still point at them); they leave the folder.
    db.template.updateMany({ where: { orgId, folderId: id, isActive: false }, data: { folderId: null } }),
    db.templateFolder.delete({ where: { id } }),
  ]);
  return { id };
}

/** Every folder of the organization with its full path ("Sales / Contracts"), for pickers. */
export async function listFolderPaths(db: Db, orgId: string): Promise<{ id: string; path: string }[]> {
  const folders = await db.templateFolder.findMany({ where: { orgId, isActive: true }, select: { id: true, name: true, parentId: true } });
  const byId = new Map(folders.map((f) => [f.id, f]));
  const pathOf = (id: string): string => {
    const names: string[] = [];
    for (let f = byId.get(id); f && names.length <= MAX_DEPTH; f = f.parentId ? byId.get(f.parentId) : undefined) names.unshift(f.name);
    return names.join(" / ");
  };
  return folders.map((f) => ({ id: f.id, path: pathOf(f.id) })).sort((a, b) => a.path.localeCompare(b.path));
}

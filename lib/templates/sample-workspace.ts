// Puts the sample templates into a workspace (used by the seed), in their folders, once: a sample
// already present by name in its folder is left alone, so reseeding never duplicates.
import type { Db } from "@/lib/db/client";
import type { FileStorage } from "@/lib/storage";
import { SAMPLE_TEMPLATES } from "@/lib/templates/samples";
import { uploadTemplate, type Actor } from "@/lib/templates/templates";
import { fileFromBuffer } from "@/lib/uploads/file";

async function ensureFolderPath(db: Db, actor: Actor, names: readonly string[]): Promise<string | null> {
  let parentId: string | null = null;
  for (const name of names) {
    const existing: { id: string } | null = await db.templateFolder.findFirst({
      where: { orgId: actor.orgId, parentId, name, isActive: true },
      select: { id: true },
    });
    parentId = existing ? existing.id : (await db.templateFolder.create({ data: { orgId: actor.orgId, parentId, name, createdBy: actor.userId } })).id;
  }
  return parentId;
}

export async function installSampleTemplates(db: Db, storage: FileStorage, actor: Actor): Promise<string[]> {
  const ids: string[] = [];
  for (const sample of SAMPLE_TEMPLATES) {
    const folderId = await ensureFolderPath(db, actor, sample.folder);
    const existing = await db.template.findFirst({ where: { orgId: actor.orgId, folderId, name: sample.name, isActive: true }, select: { id: true } });
    if (existing) {
      ids.push(existing.id);
      continue;
    }
    const file = await sample.builder();
    const created = await uploadTemplate(
      db,
      storage,
      actor,
      { file: fileFromBuffer(sample.fileName, file), name: sample.name, description: sample.description, templateFolderId: folderId, tags: [...sample.tags] },
      { maxBytes: Number.MAX_SAFE_INTEGER },
    );
    ids.push(created.id);
  }
  return ids;
}

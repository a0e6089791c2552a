"use server";

import { revalidatePath } from "next/cache";
import { requireDashboard } from "@/lib/auth/dashboard";
import { SENDERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { ForbiddenError, QuireError } from "@/lib/errors";
import { createFolder, deleteFolder, updateFolder } from "@/lib/templates/folders";
import { deleteTemplate, updateTemplate } from "@/lib/templates/templates";

export type ActionResult = { ok: true } | { ok: false; message: string };

async function asEditor(fn: (actor: { orgId: string; userId: string }) => Promise<unknown>): Promise<ActionResult> {
  try {
    const ctx = await requireDashboard();
    if (!SENDERS.includes(ctx.role)) throw new ForbiddenError("Only administrators and contributors can change templates");
    await fn({ orgId: ctx.org.id, userId: ctx.user.id });
    revalidatePath("/templates", "layout");
    return { ok: true };
  } catch (err) {
    if (err instanceof QuireError) return { ok: false, message: err.message };
    throw err;
  }
}

export async function createFolderAction(name: string, parentId: string | null): Promise<ActionResult> {
  return asEditor(async (actor) => createFolder(await db(), actor, { name, parentId }));
}

export async function renameFolderAction(id: string, name: string): Promise<ActionResult> {
  return asEditor(async (actor) => updateFolder(await db(), actor, id, { name }));
}

export async function deleteFolderAction(id: string): Promise<ActionResult> {
  return asEditor(async (actor) => deleteFolder(await db(), actor.orgId, id));
}

export async function updateTemplateAction(id: string, input: { name: string; description: string; folderId: string; tags: string }): Promise<ActionResult> {
  return asEditor(async (actor) =>
    updateTemplate(await db(), actor, id, {
      name: input.name,
      description: input.description,
      templateFolderId: input.folderId || null,
      tags: input.tags.split(",").map((t) => t.trim()).filter(Boolean),
    }),
  );
}

export async function deleteTemplateAction(id: string): Promise<ActionResult> {
  return asEditor(async (actor) => deleteTemplate(await db(), actor.orgId, id));
}

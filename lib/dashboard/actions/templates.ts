"use server";
// The templates pages' actions: folders and template records, administrators and contributors.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { SENDERS } from "@/lib/auth/roles";
import { commaSeparated, dashboardAction } from "@/lib/dashboard/action";
import { db } from "@/lib/db/client";
import { createFolder, deleteFolder, updateFolder } from "@/lib/templates/folders";
import { deleteTemplate, updateTemplate } from "@/lib/templates/templates";

const editors = { roles: SENDERS, denied: "Only administrators and contributors can change templates" } as const;

/** The domain functions check names and ids; these schemas only fix the shapes the forms send. */
const id = z.string();

function done(): null {
  revalidatePath("/templates", "layout");
  return null;
}

export const createFolderAction = dashboardAction({
  ...editors,
  input: z.object({ name: z.string(), parentId: id.nullable() }),
  run: async (input, ctx) => {
    await createFolder(await db(), { orgId: ctx.org.id, userId: ctx.user.id }, input);
    return done();
  },
});

export const renameFolderAction = dashboardAction({
  ...editors,
  input: z.object({ id, name: z.string() }),
  run: async (input, ctx) => {
    await updateFolder(await db(), { orgId: ctx.org.id, userId: ctx.user.id }, input.id, { name: input.name });
    return done();
  },
});

export const deleteFolderAction = dashboardAction({
  ...editors,
  input: z.object({ id }),
  run: async (input, ctx) => {
    await deleteFolder(await db(), ctx.org.id, input.id);
    return done();
  },
});

export const updateTemplateAction = dashboardAction({
  ...editors,
  input: z.object({ id, name: z.string(), description: z.string(), folderId: z.string(), tags: commaSeparated }),
  run: async (input, ctx) => {
    await updateTemplate(await db(), { orgId: ctx.org.id, userId: ctx.user.id }, input.id, {
      name: input.name,
      description: input.description,
      templateFolderId: input.folderId || null,
      tags: input.tags,
    });
    return done();
  },
});

export const deleteTemplateAction = dashboardAction({
  ...editors,
  input: z.object({ id }),
  run: async (input, ctx) => {
    await deleteTemplate(await db(), ctx.org.id, input.id);
    return done();
  },
});

"use server";

import { revalidatePath } from "next/cache";
import { requireDashboard } from "@/lib/auth/dashboard";
import { WRITERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { deleteDeliverable, updateDeliverable } from "@/lib/deliverables/deliverables";
import { ForbiddenError, QuireError } from "@/lib/errors";

export type ActionResult = { ok: true } | { ok: false; message: string };

async function guarded(fn: (ctx: Awaited<ReturnType<typeof requireDashboard>>) => Promise<void>): Promise<ActionResult> {
  try {
    const ctx = await requireDashboard();
    if (!WRITERS.includes(ctx.role)) throw new ForbiddenError("Your role cannot change deliverables");
    await fn(ctx);
    return { ok: true };
  } catch (err) {
    if (err instanceof QuireError) return { ok: false, message: err.message };
    throw err;
  }
}

export async function saveDeliverableAction(id: string, input: { name: string; description: string; tags: string }): Promise<ActionResult> {
  return guarded(async (ctx) => {
    const tags = input.tags.split(",").map((t) => t.trim()).filter(Boolean);
    await updateDeliverable(await db(), { orgId: ctx.org.id, userId: ctx.user.id }, id, { name: input.name, description: input.description, tags });
    revalidatePath(`/deliverables/${id}`);
    revalidatePath("/deliverables");
  });
}

export async function deleteDeliverableAction(id: string): Promise<ActionResult> {
  return guarded(async (ctx) => {
    await deleteDeliverable(await db(), ctx.org.id, id);
    revalidatePath("/deliverables");
  });
}

"use server";
// The deliverable page's actions: edit and delete, for every role that writes.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { WRITERS } from "@/lib/auth/roles";
import { commaSeparated, dashboardAction } from "@/lib/dashboard/action";
import { db } from "@/lib/db/client";
import { deleteDeliverable, updateDeliverable } from "@/lib/deliverables/deliverables";

const writers = { roles: WRITERS, denied: "Your role cannot change deliverables" } as const;

export const saveDeliverableAction = dashboardAction({
  ...writers,
  input: z.object({ id: z.string(), name: z.string(), description: z.string(), tags: commaSeparated }),
  run: async ({ id, ...input }, ctx) => {
    await updateDeliverable(await db(), { orgId: ctx.org.id, userId: ctx.user.id }, id, input);
    revalidatePath(`/deliverables/${id}`);
    revalidatePath("/deliverables");
    return null;
  },
});

export const deleteDeliverableAction = dashboardAction({
  ...writers,
  input: z.object({ id: z.string() }),
  run: async ({ id }, ctx) => {
    await deleteDeliverable(await db(), ctx.org.id, id);
    revalidatePath("/deliverables");
    return null;
  },
});

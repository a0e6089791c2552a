"use server";
// The API keys page's actions: create (the key is shown this once) and revoke. Administrators only.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { ADMINS, ROLES } from "@/lib/auth/roles";
import { dashboardAction, dashboardFormAction } from "@/lib/dashboard/action";
import { db } from "@/lib/db/client";

const admins = { roles: ADMINS, denied: "Only administrators can do this" } as const;

export interface CreatedKey {
  key: string;
  prefix: string;
  role: string;
  name: string;
}

export const createKeyAction = dashboardFormAction({
  ...admins,
  input: z.object({
    name: z.string().trim().min(1, "Give the key a name").max(100, "Name is at most 100 characters"),
    role: z.enum(ROLES, { message: "Choose a role" }),
  }),
  fromForm: (form) => ({ name: form.get("name"), role: form.get("role") }),
  run: async (input, ctx): Promise<CreatedKey> => {
    const { key, summary } = await createApiKey(await db(), { orgId: ctx.org.id, userId: ctx.user.id, ...input });
    revalidatePath("/api-keys");
    return { key, prefix: summary.prefix, role: summary.role, name: summary.name };
  },
});

export const revokeKeyAction = dashboardAction({
  ...admins,
  input: z.object({ id: z.uuid() }),
  run: async ({ id }, ctx) => {
    await revokeApiKey(await db(), ctx.org.id, id);
    revalidatePath("/api-keys");
    return null;
  },
});

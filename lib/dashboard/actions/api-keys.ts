"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { requireDashboardAdmin } from "@/lib/auth/dashboard";
import { ROLES } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { QuireError } from "@/lib/errors";

export type CreateKeyState =
  | { status: "idle" }
  | { status: "created"; key: string; prefix: string; role: string; name: string }
  | { status: "error"; message: string };

const createSchema = z.object({
  name: z.string().trim().min(1, "Give the key a name").max(100, "Name is at most 100 characters"),
  role: z.enum(ROLES, { message: "Choose a role" }),
});

export async function createKeyAction(_prev: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  try {
    const ctx = await requireDashboardAdmin();
    const parsed = createSchema.safeParse({ name: form.get("name"), role: form.get("role") });
    if (!parsed.success) return { status: "error", message: parsed.error.issues.map((i) => i.message).join(". ") };
    const { key, summary } = await createApiKey(await db(), { orgId: ctx.org.id, userId: ctx.user.id, ...parsed.data });
    revalidatePath("/api-keys");
    return { status: "created", key, prefix: summary.prefix, role: summary.role, name: summary.name };
  } catch (err) {
    if (err instanceof QuireError) return { status: "error", message: err.message };
    throw err;
  }
}

export async function revokeKeyAction(id: string): Promise<{ ok: boolean; message?: string }> {
  try {
    const ctx = await requireDashboardAdmin();
    await revokeApiKey(await db(), ctx.org.id, z.uuid().parse(id));
    revalidatePath("/api-keys");
    return { ok: true };
  } catch (err) {
    if (err instanceof QuireError) return { ok: false, message: err.message };
    throw err;
  }
}

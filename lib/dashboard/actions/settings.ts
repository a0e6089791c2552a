"use server";
// Settings the dashboard edits: embedded signing, the SMS provider and identity providers.
// Administrators only; every change goes through the domain functions of lib/esign/settings.ts.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireDashboardAdmin } from "@/lib/auth/dashboard";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { addIdentityProvider, identityProviderInput, removeIdentityProvider, signingSettingsInput, updateSigningSettings } from "@/lib/esign/settings";
import { QuireError, ValidationError } from "@/lib/errors";

export type SettingsResult = { ok: true; message: string } | { ok: false; message: string; fieldErrors: Record<string, string> };

function fieldErrorsOf(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_";
    out[key] ??= issue.message;
  }
  return out;
}

const invalid = (fieldErrors: Record<string, string>): SettingsResult => ({ ok: false, message: "Fix the highlighted fields", fieldErrors });

/** Domain refusals (and a missing role) become a message, with field errors when the domain names fields. */
async function guarded(run: () => Promise<string | SettingsResult>): Promise<SettingsResult> {
  try {
    const done = await run();
    return typeof done === "string" ? { ok: true, message: done } : done;
  } catch (err) {
    if (err instanceof ValidationError) return { ok: false, message: err.message, fieldErrors: Object.fromEntries(err.issues.map((i) => [i.field.replace(/^sms\./, ""), i.message])) };
    if (err instanceof QuireError) return { ok: false, message: err.message, fieldErrors: {} };
    throw err;
  }
}

const flagsInput = signingSettingsInput.omit({ sms: true }).required();

export async function saveSigningSettingsAction(input: unknown): Promise<SettingsResult> {
  return guarded(async () => {
    const ctx = await requireDashboardAdmin();
    const parsed = flagsInput.safeParse(input);
    if (!parsed.success) return invalid(fieldErrorsOf(parsed.error.issues));
    await updateSigningSettings(await db(), ctx.org.id, parsed.data, getConfig().nextAuthSecret);
    revalidatePath("/settings");
    return "Embedded signing settings saved";
  });
}

const smsInput = signingSettingsInput.pick({ sms: true }).required();

export async function saveSmsProviderAction(input: unknown): Promise<SettingsResult> {
  return guarded(async () => {
    const ctx = await requireDashboardAdmin();
    const parsed = smsInput.safeParse({ sms: input });
    if (!parsed.success) return invalid(fieldErrorsOf(parsed.error.issues.map((i) => ({ ...i, path: i.path.slice(1) }))));
    await updateSigningSettings(await db(), ctx.org.id, parsed.data, getConfig().nextAuthSecret);
    revalidatePath("/settings");
    return "SMS provider saved";
  });
}

export async function addIdentityProviderAction(input: unknown): Promise<SettingsResult> {
  return guarded(async () => {
    const ctx = await requireDashboardAdmin();
    const parsed = identityProviderInput.safeParse(input);
    if (!parsed.success) return invalid(fieldErrorsOf(parsed.error.issues));
    try {
      await addIdentityProvider(await db(), ctx.org.id, parsed.data, getConfig().nextAuthSecret);
    } catch (err) {
      if (err instanceof QuireError && err.code === "IdentityProviderExists") throw new ValidationError(err.message, [{ field: "name", message: "already used by another provider" }]);
      throw err;
    }
    revalidatePath("/settings");
    return `Identity provider “${parsed.data.name}” added`;
  });
}

export async function removeIdentityProviderAction(id: unknown): Promise<SettingsResult> {
  return guarded(async () => {
    const ctx = await requireDashboardAdmin();
    const parsed = z.uuid().safeParse(id);
    if (!parsed.success) return { ok: false, message: "Unknown identity provider", fieldErrors: {} };
    await removeIdentityProvider(await db(), ctx.org.id, parsed.data);
    revalidatePath("/settings");
    return "Identity provider removed";
  });
}

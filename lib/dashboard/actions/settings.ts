"use server";
// Settings the dashboard edits: embedded signing, the SMS provider, identity providers and the
// default reminder interval.
// Administrators only; every change goes through the domain functions of lib/esign/settings.ts.
// Each answers the confirmation line the page shows.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ADMINS } from "@/lib/auth/roles";
import { getConfig } from "@/lib/config";
import { dashboardAction, dashboardFormAction } from "@/lib/dashboard/action";
import { db } from "@/lib/db/client";
import { reminderDefaultInput, setReminderDefault } from "@/lib/esign/reminders";
import { addIdentityProvider, identityProviderInput, removeIdentityProvider, signingSettingsInput, updateSigningSettings } from "@/lib/esign/settings";
import { QuireError, ValidationError } from "@/lib/errors";
import { LANGUAGES } from "@/lib/i18n";
import { setDefaultLanguage } from "@/lib/orgs/appearance";
import { brandingInput, saveBranding, setLogo } from "@/lib/orgs/branding";

const admins = { roles: ADMINS, denied: "Only administrators can do this" } as const;

function saved(message: string): string {
  revalidatePath("/settings");
  return message;
}

export const saveSigningSettingsAction = dashboardAction({
  ...admins,
  input: signingSettingsInput.omit({ sms: true }).required(),
  run: async (input, ctx) => {
    await updateSigningSettings(await db(), ctx.org.id, input, getConfig().nextAuthSecret);
    return saved("Embedded signing settings saved");
  },
});

export const saveDefaultLanguageAction = dashboardAction({
  ...admins,
  input: z.object({ language: z.enum(LANGUAGES, { message: `must be one of ${LANGUAGES.join(", ")}` }) }),
  run: async ({ language }, ctx) => {
    await setDefaultLanguage(await db(), ctx.org.id, language);
    return saved("Default signing language saved");
  },
});

export const saveBrandingAction = dashboardAction({
  ...admins,
  input: brandingInput,
  run: async (input, ctx) => {
    await saveBranding(await db(), ctx.org.id, input);
    return saved("Branding saved");
  },
});

/** The logo arrives as a form's file; it is checked by its bytes (lib/orgs/branding.ts setLogo). */
export const uploadLogoAction = dashboardFormAction({
  ...admins,
  input: z.object({ logo: z.instanceof(File, { message: "choose an image file" }) }),
  fromForm: (form) => ({ logo: form.get("logo") }),
  invalid: "The logo was not saved",
  run: async ({ logo }, ctx) => {
    await setLogo(await db(), ctx.org.id, Buffer.from(await logo.arrayBuffer()));
    return saved("Logo saved");
  },
});

export const removeLogoAction = dashboardAction({
  ...admins,
  input: z.object({}),
  run: async (_input, ctx) => {
    await setLogo(await db(), ctx.org.id, null);
    return saved("Logo removed");
  },
});

export const saveSmsProviderAction = dashboardAction({
  ...admins,
  input: signingSettingsInput.pick({ sms: true }).required().shape.sms,
  run: async (sms, ctx) => {
    try {
      await updateSigningSettings(await db(), ctx.org.id, { sms }, getConfig().nextAuthSecret);
    } catch (err) {
      // The form holds the provider's fields alone: "sms.from" is its "from".
      if (err instanceof ValidationError)
        throw new ValidationError(
          err.message,
          err.issues.map((i) => ({ ...i, field: i.field.replace(/^sms\./, "") })),
          err.code,
        );
      throw err;
    }
    return saved("SMS provider saved");
  },
});

export const addIdentityProviderAction = dashboardAction({
  ...admins,
  input: identityProviderInput,
  run: async (input, ctx) => {
    try {
      await addIdentityProvider(await db(), ctx.org.id, input, getConfig().nextAuthSecret);
    } catch (err) {
      if (err instanceof QuireError && err.code === "IdentityProviderExists")
        throw new ValidationError(err.message, [{ field: "name", message: "already used by another provider" }]);
      throw err;
    }
    return saved(`Identity provider “${input.name}” added`);
  },
});

export const removeIdentityProviderAction = dashboardAction({
  ...admins,
  input: z.object({ id: z.uuid() }),
  invalid: "Unknown identity provider",
  run: async ({ id }, ctx) => {
    await removeIdentityProvider(await db(), ctx.org.id, id);
    return saved("Identity provider removed");
  },
});

export const saveReminderDefaultAction = dashboardAction({
  ...admins,
  input: reminderDefaultInput,
  run: async (input, ctx) => {
    await setReminderDefault(await db(), ctx.org.id, input);
    return saved(input.reminderDays ? `Signers are reminded every ${input.reminderDays} day(s) by default` : "No automatic reminders by default");
  },
});

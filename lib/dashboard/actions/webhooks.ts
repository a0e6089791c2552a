"use server";
// Dashboard actions for the organization's webhooks: the same domain functions as the REST API
// (lib/webhooks), authenticated by the dashboard session, administrators only.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ADMINS } from "@/lib/auth/roles";
import { dashboardAction, dashboardFormAction } from "@/lib/dashboard/action";
import { deliveryDetail, replayDelivery, testWebhook } from "@/lib/webhooks/delivery-admin";
import { webhookDeps } from "@/lib/webhooks/service";
import {
  createWebhook,
  createWebhookSchema,
  deleteWebhook,
  regenerateSecret,
  updateWebhook,
  updateWebhookSchema,
  testWebhookSchema,
} from "@/lib/webhooks/webhooks";

// Field problems read as one line each under this message, e.g. "urls.1: must be an https:// URL".
const admins = { roles: ADMINS, denied: "Only administrators can do this", invalid: "Please fix the highlighted problems." } as const;

const id = z.uuid();

/** The form's URLs box: one URL per line (or separated by spaces). */
const urlLines = z.string().transform((text) =>
  text
    .split(/\s+/)
    .map((u) => u.trim())
    .filter(Boolean),
);

/** The fields of the create and edit forms (components/webhooks/shared.tsx, WebhookFields). */
function webhookFields(form: FormData) {
  return { name: String(form.get("name") ?? ""), urls: String(form.get("urls") ?? ""), events: form.getAll("events").map(String) };
}

function done<T>(data: T): T {
  revalidatePath("/webhooks");
  return data;
}

export const createWebhookAction = dashboardFormAction({
  ...admins,
  input: createWebhookSchema.extend({ urls: urlLines.pipe(createWebhookSchema.shape.urls) }),
  fromForm: webhookFields,
  run: async (input, ctx) => {
    const created = await createWebhook(await webhookDeps(), { orgId: ctx.org.id, userId: ctx.user.id }, input);
    return done({ id: created.id, name: created.name, secret: created.secret });
  },
});

/** The edit form; its hidden `id` names the webhook. */
export const updateWebhookAction = dashboardFormAction({
  ...admins,
  input: updateWebhookSchema.extend({ id, urls: urlLines.pipe(updateWebhookSchema.shape.urls.unwrap()) }),
  fromForm: (form) => ({ id: form.get("id"), ...webhookFields(form) }),
  run: async ({ id, ...input }, ctx) => {
    await updateWebhook(await webhookDeps(), ctx.org.id, { id }, input);
    return done(null);
  },
});

export const setWebhookActiveAction = dashboardAction({
  ...admins,
  input: z.object({ id, isActive: z.boolean() }),
  run: async ({ id, isActive }, ctx) => {
    await updateWebhook(await webhookDeps(), ctx.org.id, { id }, { isActive });
    return done(null);
  },
});

export const regenerateSecretAction = dashboardAction({
  ...admins,
  input: z.object({ id }),
  run: async ({ id }, ctx) => {
    const updated = await regenerateSecret(await webhookDeps(), ctx.org.id, { id });
    return done({ secret: updated.secret });
  },
});

export interface TestOutcome {
  summary: { total: number; successful: number; failed: number; errors: string[] };
  deliveries: { id: string; url: string; status: string; httpStatus: number | null; errorMessage?: string }[];
}

export const testWebhookAction = dashboardAction({
  ...admins,
  input: z.object({ id, eventType: z.string().pipe(testWebhookSchema.shape.eventType.unwrap()) }),
  run: async ({ id, ...input }, ctx): Promise<TestOutcome> => {
    const result = await testWebhook(await webhookDeps(), ctx.org.id, { id }, input);
    return done({
      summary: result.summary,
      deliveries: result.deliveries.map((d) => ({ id: d.id, url: d.url, status: d.status, httpStatus: d.httpStatus, errorMessage: d.errorMessage })),
    });
  },
});

export const deleteWebhookAction = dashboardAction({
  ...admins,
  input: z.object({ id }),
  run: async ({ id }, ctx) => {
    await deleteWebhook((await webhookDeps()).db, ctx.org.id, { id });
    return done(null);
  },
});

/** The same event again, as a new delivery sent now; answers the new delivery's id. */
export const replayDeliveryAction = dashboardAction({
  ...admins,
  input: z.object({ deliveryId: id }),
  run: async ({ deliveryId }, ctx) => {
    const deps = await webhookDeps();
    const { webhook } = await deliveryDetail(deps.db, ctx.org.id, deliveryId);
    const replay = await replayDelivery(deps, ctx.org.id, { id: webhook.id }, deliveryId);
    return done({ id: replay.id, status: replay.status });
  },
});

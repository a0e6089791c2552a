"use server";

// Dashboard actions for the organization's webhooks: the same domain functions as the REST API
// (lib/webhooks), authenticated by the dashboard session, administrators only.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireDashboardAdmin } from "@/lib/auth/dashboard";
import { QuireError, ValidationError } from "@/lib/errors";
import { deliveryDetail, replayDelivery, testWebhook } from "@/lib/webhooks/delivery";
import { webhookDeps } from "@/lib/webhooks/service";
import { createWebhook, createWebhookSchema, deleteWebhook, regenerateSecret, updateWebhook, updateWebhookSchema, testWebhookSchema } from "@/lib/webhooks/webhooks";

export type ActionResult<T = null> = { ok: true; data: T } | { ok: false; message: string; errors?: string[] };

/** Field problems read as one line each, e.g. "urls.1: must be an https:// URL". */
function failure(err: unknown): { ok: false; message: string; errors?: string[] } {
  if (err instanceof z.ZodError) {
    const errors = err.issues.map((i) => `${i.path.join(".") || "form"}: ${i.message}`);
    return { ok: false, message: "Please fix the highlighted problems.", errors };
  }
  if (err instanceof ValidationError) return { ok: false, message: err.issues.length ? "Please fix the highlighted problems." : err.message, errors: err.issues.map((i) => `${i.field}: ${i.message}`) };
  if (err instanceof QuireError) return { ok: false, message: err.message };
  throw err;
}

function urlsOf(form: FormData): string[] {
  return String(form.get("urls") ?? "")
    .split(/\s+/)
    .map((u) => u.trim())
    .filter(Boolean);
}

const idSchema = z.uuid();

export type CreateWebhookState = { status: "idle" } | { status: "created"; id: string; name: string; secret: string } | { status: "error"; message: string; errors?: string[] };

export async function createWebhookAction(_prev: CreateWebhookState, form: FormData): Promise<CreateWebhookState> {
  try {
    const ctx = await requireDashboardAdmin();
    const input = createWebhookSchema.parse({ name: String(form.get("name") ?? ""), urls: urlsOf(form), events: form.getAll("events").map(String) });
    const created = await createWebhook(await webhookDeps(), { orgId: ctx.org.id, userId: ctx.user.id }, input);
    revalidatePath("/webhooks");
    return { status: "created", id: created.id, name: created.name, secret: created.secret };
  } catch (err) {
    return { status: "error", ...failure(err) };
  }
}

export async function updateWebhookAction(id: string, form: FormData): Promise<ActionResult> {
  try {
    const ctx = await requireDashboardAdmin();
    const input = updateWebhookSchema.parse({ name: String(form.get("name") ?? ""), urls: urlsOf(form), events: form.getAll("events").map(String) });
    await updateWebhook(await webhookDeps(), ctx.org.id, { id: idSchema.parse(id) }, input);
    revalidatePath("/webhooks");
    return { ok: true, data: null };
  } catch (err) {
    return failure(err);
  }
}

export async function setWebhookActiveAction(id: string, isActive: boolean): Promise<ActionResult> {
  try {
    const ctx = await requireDashboardAdmin();
    await updateWebhook(await webhookDeps(), ctx.org.id, { id: idSchema.parse(id) }, { isActive });
    revalidatePath("/webhooks");
    return { ok: true, data: null };
  } catch (err) {
    return failure(err);
  }
}

export async function regenerateSecretAction(id: string): Promise<ActionResult<{ secret: string }>> {
  try {
    const ctx = await requireDashboardAdmin();
    const updated = await regenerateSecret(await webhookDeps(), ctx.org.id, { id: idSchema.parse(id) });
    revalidatePath("/webhooks");
    return { ok: true, data: { secret: updated.secret } };
  } catch (err) {
    return failure(err);
  }
}

export interface TestOutcome {
  summary: { total: number; successful: number; failed: number; errors: string[] };
  deliveries: { id: string; url: string; status: string; httpStatus: number | null; errorMessage?: string }[];
}

export async function testWebhookAction(id: string, eventType: string): Promise<ActionResult<TestOutcome>> {
  try {
    const ctx = await requireDashboardAdmin();
    const input = testWebhookSchema.parse({ eventType });
    const result = await testWebhook(await webhookDeps(), ctx.org.id, { id: idSchema.parse(id) }, input);
    revalidatePath("/webhooks");
    return { ok: true, data: { summary: result.summary, deliveries: result.deliveries.map((d) => ({ id: d.id, url: d.url, status: d.status, httpStatus: d.httpStatus, errorMessage: d.errorMessage })) } };
  } catch (err) {
    return failure(err);
  }
}

export async function deleteWebhookAction(id: string): Promise<ActionResult> {
  try {
    const ctx = await requireDashboardAdmin();
    const deps = await webhookDeps();
    await deleteWebhook(deps.db, ctx.org.id, { id: idSchema.parse(id) });
    revalidatePath("/webhooks");
    return { ok: true, data: null };
  } catch (err) {
    return failure(err);
  }
}

/** The same event again, as a new delivery sent now; answers the new delivery's id. */
export async function replayDeliveryAction(deliveryId: string): Promise<ActionResult<{ id: string; status: string }>> {
  try {
    const ctx = await requireDashboardAdmin();
    const deps = await webhookDeps();
    const { webhook } = await deliveryDetail(deps.db, ctx.org.id, idSchema.parse(deliveryId));
    const replay = await replayDelivery(deps, ctx.org.id, { id: webhook.id }, deliveryId);
    revalidatePath("/webhooks");
    return { ok: true, data: { id: replay.id, status: replay.status } };
  } catch (err) {
    return failure(err);
  }
}

"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { requireDashboard } from "@/lib/auth/dashboard";
import { SENDERS } from "@/lib/auth/roles";
import { replaceDraftFields, type PlacedField, placedFieldsSchema } from "@/lib/esign/draft-fields";
import { resendDocument, sendDocument, voidDocument } from "@/lib/esign/documents";
import { retryFinalization } from "@/lib/esign/completion";
import { esignDeps, signingDeps } from "@/lib/esign/service";
import { ForbiddenError, QuireError } from "@/lib/errors";
import { parseWith } from "@/lib/http/validation";

export type ActionResult = { ok: true; message?: string } | { ok: false; message: string };

async function asSender(fn: (actor: { orgId: string; userId: string }, meta: { ip: string | null; userAgent: string | null }) => Promise<string | void>): Promise<ActionResult> {
  try {
    const ctx = await requireDashboard();
    if (!SENDERS.includes(ctx.role)) throw new ForbiddenError("Only administrators and contributors can do this");
    const h = await headers();
    const message = await fn({ orgId: ctx.org.id, userId: ctx.user.id }, { ip: h.get("x-forwarded-for")?.split(",")[0]?.trim() ?? null, userAgent: h.get("user-agent") });
    revalidatePath("/documents", "layout");
    return { ok: true, message: message ?? undefined };
  } catch (err) {
    if (err instanceof QuireError) return { ok: false, message: err.message };
    throw err;
  }
}

export async function voidDocumentAction(id: string, reason: string): Promise<ActionResult> {
  return asSender(async (actor, meta) => {
    await voidDocument(await esignDeps(), actor, id, reason, meta);
  });
}

/** A completion that failed every attempt: queue it again and run it now. */
export async function retryFinalizationAction(id: string): Promise<ActionResult> {
  return asSender(async (actor) => {
    const { status } = await retryFinalization(await signingDeps(), actor.orgId, id);
    return status === "completed" ? "Completed: the signed PDF is ready." : "Retried; it failed again. See the error above.";
  });
}

export async function resendAction(id: string, recipientId: string): Promise<ActionResult> {
  return asSender(async (actor, meta) => {
    const { recipientCount } = await resendDocument(await esignDeps(), actor, id, [recipientId], meta);
    return `Sent to ${recipientCount} signer(s).`;
  });
}

/** Saves the placer's fields; with `send`, also sends the draft (every signer needs a field). */
export async function saveDraftFieldsAction(id: string, fields: PlacedField[], send: boolean): Promise<ActionResult> {
  return asSender(async (actor, meta) => {
    const deps = await esignDeps();
    const input = parseWith(placedFieldsSchema, { fields });
    await replaceDraftFields(deps, actor, id, input.fields, meta, { forSending: send });
    if (!send) return "Draft saved.";
    const reply = await sendDocument(deps, actor, id, meta);
    return reply.message;
  });
}

"use server";
// The documents pages' actions: void, delete a draft, resend, retry a failed completion, save and send a draft's
// fields. Administrators and contributors; each answers the line the page shows (or null).
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { SENDERS } from "@/lib/auth/roles";
import type { DashboardContext } from "@/lib/auth/dashboard";
import { dashboardAction } from "@/lib/dashboard/action";
import { replaceDraftFields, placedFieldsSchema } from "@/lib/esign/draft-fields";
import { deleteDraft } from "@/lib/esign/delete-draft";
import { resendDocument, sendDocument, voidDocument } from "@/lib/esign/documents";
import { retryFinalization } from "@/lib/esign/completion";
import { createLayout, createLayoutSchema, MAX_LAYOUT_ROLES } from "@/lib/esign/layouts";
import { esignDeps, signingDeps } from "@/lib/esign/service";
import { requestMetaOf } from "@/lib/http/request-meta";
import { parseWith } from "@/lib/http/validation";

const senders = { roles: SENDERS, denied: "Only administrators and contributors can do this" } as const;

/** Who acts and from where, for the audit trail. */
async function actorOf(ctx: DashboardContext) {
  const h = await headers();
  return {
    actor: { orgId: ctx.org.id, userId: ctx.user.id },
    meta: requestMetaOf(h),
  };
}

function done(message: string | null): string | null {
  revalidatePath("/documents", "layout");
  return message;
}

export const voidDocumentAction = dashboardAction({
  ...senders,
  input: z.object({ id: z.string(), reason: z.string() }),
  run: async ({ id, reason }, ctx) => {
    const { actor, meta } = await actorOf(ctx);
    await voidDocument(await esignDeps(), actor, id, reason, meta);
    return done(null);
  },
});

/** A draft (never sent) goes entirely, with its stored PDF; the page then leaves for the list. */
export const deleteDraftAction = dashboardAction({
  ...senders,
  input: z.object({ id: z.string() }),
  run: async ({ id }, ctx) => {
    const { name } = await deleteDraft(await esignDeps(), ctx.org.id, id);
    return done(`Deleted “${name}”.`);
  },
});

/** A completion that failed every attempt: queue it again and run it now. */
export const retryFinalizationAction = dashboardAction({
  ...senders,
  input: z.object({ id: z.string() }),
  run: async ({ id }, ctx) => {
    const { status } = await retryFinalization(await signingDeps(), ctx.org.id, id);
    return done(status === "completed" ? "Completed: the signed PDF is ready." : "Retried; it failed again. See the error above.");
  },
});

export const resendAction = dashboardAction({
  ...senders,
  input: z.object({ id: z.string(), recipientId: z.string() }),
  run: async ({ id, recipientId }, ctx) => {
    const { actor, meta } = await actorOf(ctx);
    const { recipientCount } = await resendDocument(await esignDeps(), actor, id, [recipientId], meta);
    return done(`Sent to ${recipientCount} signer(s).`);
  },
});

/** Saves the placer's fields; with `send`, also sends the draft (every signer needs a field). */
export const saveDraftFieldsAction = dashboardAction({
  ...senders,
  input: placedFieldsSchema.extend({ id: z.string(), send: z.boolean() }),
  run: async ({ id, fields, send }, ctx) => {
    const { actor, meta } = await actorOf(ctx);
    const deps = await esignDeps();
    await replaceDraftFields(deps, actor, id, fields, meta, { forSending: send });
    if (!send) return done("Draft saved.");
    return done((await sendDocument(deps, actor, id, meta)).message);
  },
});

/**
 * "Save as layout" in the placer: the fields as placed now (saved or not), each signer of the draft
 * standing for a role named by the sender; the draft's PDF becomes the layout's.
 */
export const saveLayoutFromDraftAction = dashboardAction({
  ...senders,
  input: placedFieldsSchema.extend({
    id: z.string(),
    name: z.string(),
    roles: z
      .array(z.object({ recipientId: z.string(), role: z.string() }))
      .min(1)
      .max(MAX_LAYOUT_ROLES),
  }),
  run: async ({ id, name, roles, fields }, ctx) => {
    const { actor } = await actorOf(ctx);
    const roleOf = new Map(roles.map((r) => [r.recipientId, r.role]));
    const layout = await createLayout(
      await esignDeps(),
      actor,
      // The REST body's own checks, so an empty name or role reads the same as from the API.
      parseWith(createLayoutSchema, {
        name,
        documentId: id,
        roles: roles.map((r) => r.role),
        fields: fields.map(({ recipientId, ...f }) => ({ ...f, role: roleOf.get(recipientId) ?? "" })),
      }),
    );
    revalidatePath("/documents/new");
    return `Saved the layout “${layout.name}”: use it from Send for signing.`;
  },
});

// Saved field layouts (issue 19 item 10): fields placed for signer roles ("Client", "Witness") instead of
// people, on a PDF frozen at creation (a template rendered, or an uploaded document's PDF). A layout is
// then a document source: prepare-for-signing/review with `layoutId` takes its PDF and its fields, and the
// recipients only bring names and emails, matched to the roles by `role` or by order.
import crypto from "node:crypto";
import { z } from "zod";
import { DocumentNotFoundError, invalid } from "@/lib/esign/errors";
import { checkFieldFits, type PlannedField } from "@/lib/esign/field-plan";
import { placedBox, placedBoxShape, type PrepareInput, type RecipientInput } from "@/lib/esign/schemas";
import { resolveSource } from "@/lib/esign/sources";
import type { Actor, EsignDeps } from "@/lib/esign/types";
import type { Db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import type { SigningLayout } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { log } from "@/lib/log";

export const MAX_LAYOUT_ROLES = 20;

export const layoutFieldSchema = z
  .object({
    role: z.string({ message: "is required" }).trim().min(1, "must name one of roles"),
    ...placedBoxShape,
    required: z.boolean().optional(),
  })
  .meta({ id: "SigningLayoutField", description: "A field for a role, in PDF points from the page's top-left corner" });
export type LayoutField = z.infer<typeof layoutFieldSchema>;

export const createLayoutSchema = z
  .object({
    name: z.string({ message: "is required" }).trim().min(1, "must not be empty").max(255),
    roles: z
      .array(z.string().trim().min(1, "must not be empty").max(100), { message: "must be an array of role names" })
      .min(1, "at least one role is required")
      .max(MAX_LAYOUT_ROLES, `at most ${MAX_LAYOUT_ROLES} roles`)
      .meta({ description: 'The signer roles in signing order, e.g. ["Client", "Witness"]' }),
    fields: z.array(layoutFieldSchema, { message: "must be an array of fields" }).min(1, "at least one field is required").max(500, "at most 500 fields"),
    templateId: z.string().optional().meta({ description: "The layout's PDF is this template, rendered now" }),
    documentId: z.string().optional().meta({ description: "The layout's PDF is this signing document's original (an uploaded PDF)" }),
  })
  .meta({ id: "SigningLayoutInput", description: "Exactly one of templateId and documentId" });
export type CreateLayoutInput = z.infer<typeof createLayoutSchema>;

export const layoutSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    sourceKind: z.enum(["templateId", "document"]),
    sourceRef: z.string().nullable(),
    pageCount: z.number().int(),
    roles: z.array(z.string()),
    fields: z.array(layoutFieldSchema.extend({ required: z.boolean() })),
    createdAt: z.string(),
  })
  .meta({ id: "SigningLayout" });
export type LayoutView = z.infer<typeof layoutSchema>;
export const layoutDeletedSchema = z.object({ id: z.uuid(), name: z.string(), deleted: z.literal(true) });

export class LayoutNotFoundError extends NotFoundError {
  constructor() {
    super("Layout not found", "LayoutNotFound");
  }
}

function view(l: SigningLayout): LayoutView {
  return {
    id: l.id,
    name: l.name,
    sourceKind: l.sourceKind as LayoutView["sourceKind"],
    sourceRef: l.sourceRef,
    pageCount: l.pageCount,
    roles: l.roles as string[],
    fields: l.fields as LayoutView["fields"],
    createdAt: l.createdOn.toISOString(),
  };
}

async function findLayout(db: Db, orgId: string, id: string): Promise<SigningLayout> {
  const l = isUuid(id) ? await db.signingLayout.findFirst({ where: { id, orgId } }) : null;
  if (!l) throw new LayoutNotFoundError();
  return l;
}

/** Role names are compared as people type them: trimmed, case-insensitive. */
const roleKey = (s: string) => s.trim().toLowerCase();

export async function createLayout(deps: EsignDeps, actor: Actor, input: CreateLayoutInput): Promise<LayoutView> {
  const sources = [input.templateId ? "templateId" : null, input.documentId ? "documentId" : null].filter(Boolean);
  if (sources.length !== 1)
    throw invalid(`Give exactly one of templateId and documentId; got ${sources.length ? sources.join(", ") : "none"}`, "LayoutSourceInvalid", "templateId");
  const keys = input.roles.map(roleKey);
  const twice = input.roles.find((_, i) => keys.indexOf(keys[i]) !== i);
  if (twice) throw invalid(`The role "${twice}" is given twice; each role needs its own name`, "LayoutRoleDuplicate", "roles");
  for (const [i, f] of input.fields.entries())
    if (!keys.includes(roleKey(f.role)))
      throw invalid(`fields.${i}.role is "${f.role}", which is not one of the roles (${input.roles.join(", ")})`, "LayoutRoleUnknown", `fields.${i}.role`);
  const idle = input.roles.filter((r) => !input.fields.some((f) => roleKey(f.role) === roleKey(r)));
  if (idle.length) throw invalid(`Place at least one field for ${idle.join(", ")}`, "SignerWithoutFields", "fields");

  let pdf: Buffer;
  let sourceRef: string;
  if (input.templateId) {
    pdf = (await resolveSource(deps, actor, { recipients: [], templateId: input.templateId } as PrepareInput)).pdf;
    sourceRef = input.templateId;
  } else {
    const doc = isUuid(input.documentId!) ? await deps.db.signingDocument.findFirst({ where: { id: input.documentId!, orgId: actor.orgId } }) : null;
    if (!doc) throw new DocumentNotFoundError();
    pdf = await deps.storage.get(doc.originalPdfKey);
    sourceRef = doc.id;
  }
  const sealable = await deps.inspectPdf(pdf);
  for (const [i, f] of input.fields.entries()) checkFieldFits(sealable.pages, f, `fields.${i}`);

  const id = crypto.randomUUID();
  const pdfKey = `signing-layouts/${actor.orgId}/${id}.pdf`;
  await deps.storage.put(pdfKey, sealable.pdf);
  const roleOf = new Map(input.roles.map((r) => [roleKey(r), r]));
  const row = await deps.db.signingLayout.create({
    data: {
      id,
      orgId: actor.orgId,
      name: input.name,
      sourceKind: input.templateId ? "templateId" : "document",
      sourceRef,
      pdfKey,
      pageCount: sealable.pages.length,
      roles: input.roles,
      // Stored with the role as declared in roles, so a use matches it however the field spelled it.
      fields: input.fields.map((f) => ({ ...f, role: roleOf.get(roleKey(f.role))!, required: f.required ?? f.type !== "checkbox" })),
      createdBy: actor.userId,
    },
  });
  return view(row);
}

export async function listLayouts(db: Db, orgId: string): Promise<LayoutView[]> {
  const rows = await db.signingLayout.findMany({ where: { orgId }, orderBy: [{ createdOn: "desc" }, { id: "asc" }], take: 500 });
  return rows.map(view);
}

export async function getLayout(db: Db, orgId: string, id: string): Promise<LayoutView> {
  return view(await findLayout(db, orgId, id));
}

export async function deleteLayout(deps: Pick<EsignDeps, "db" | "storage">, orgId: string, id: string) {
  const l = await findLayout(deps.db, orgId, id);
  const { count } = await deps.db.signingLayout.deleteMany({ where: { id, orgId } });
  if (count === 0) throw new LayoutNotFoundError();
  // Documents sent from the layout keep their own copy of the PDF: the layout's can go.
  await deps.storage.delete(l.pdfKey).catch((err) => log.warn({ layoutId: id, err: (err as Error).message }, "a deleted layout's file could not be removed"));
  return { id, name: l.name, deleted: true as const };
}

/** The layout as a document source (lib/esign/sources.ts): its frozen PDF. */
export async function layoutSource(deps: Pick<EsignDeps, "db" | "storage">, orgId: string, id: string) {
  const l = await findLayout(deps.db, orgId, id);
  return { pdf: await deps.storage.get(l.pdfKey), kind: "layoutId", ref: l.id, name: l.name, layout: view(l) };
}

/**
 * The recipients of a send matched to the layout's roles: by `role` when the recipients name one
 * (then all must), else by order; either way one recipient per role. Returns the layout's fields
 * bound to the recipients' indexes, and each recipient's default signing order: its role's place.
 */
export function planLayoutFields(
  layout: LayoutView,
  recipients: RecipientInput[],
  givenFields: unknown[] | undefined,
): { fields: PlannedField[]; signingOrder: number[] } {
  if (givenFields?.length) throw invalid("With layoutId the fields come from the layout; leave fields out", "LayoutFieldsGiven", "fields");
  const roles = layout.roles;
  if (recipients.length !== roles.length)
    throw invalid(
      `The layout "${layout.name}" has ${roles.length} role(s) (${roles.join(", ")}); give one recipient for each, got ${recipients.length}`,
      "LayoutRecipientsMismatch",
      "recipients",
    );
  const named = recipients.filter((r) => r.role !== undefined).length;
  let indexOfRole: Map<string, number>;
  if (named === 0) {
    indexOfRole = new Map(roles.map((r, i) => [roleKey(r), i]));
  } else {
    if (named !== recipients.length) {
      const i = recipients.findIndex((r) => r.role === undefined);
      throw invalid(
        `recipients.${i} has no role: give every recipient a role, or none (then they match the roles in order)`,
        "LayoutRoleMissing",
        `recipients.${i}.role`,
      );
    }
    indexOfRole = new Map();
    for (const [i, r] of recipients.entries()) {
      const key = roleKey(r.role!);
      if (!roles.some((x) => roleKey(x) === key))
        throw invalid(
          `recipients.${i}.role is "${r.role}", which is not a role of the layout (${roles.join(", ")})`,
          "LayoutRoleUnknown",
          `recipients.${i}.role`,
        );
      if (indexOfRole.has(key)) throw invalid(`recipients.${i}.role "${r.role}" is given to two recipients`, "LayoutRoleDuplicate", `recipients.${i}.role`);
      indexOfRole.set(key, i);
    }
  }
  const roleIndex = new Map(roles.map((r, i) => [roleKey(r), i]));
  const signingOrder = recipients.map((r, i) => (r.role === undefined ? i : roleIndex.get(roleKey(r.role))!) + 1);
  const fields = layout.fields.map((f) => ({
    recipientIndex: indexOfRole.get(roleKey(f.role))!,
    ...placedBox(f),
    required: f.required,
    defaultValue: null,
    isReadonly: false,
    isMultiline: false,
    anchor: null,
    anchorRect: null,
  }));
  return { fields, signingOrder };
}

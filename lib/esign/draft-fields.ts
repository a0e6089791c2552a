// Field placement on a draft (the dashboard's visual placer): the draft's pages and fields, and a
// whole-set replacement of its fields. Only drafts can change: once sent, signers may already be
// looking at the fields.
import { z } from "zod";
import { appendAudit } from "@/lib/esign/audit";
import type { EsignDeps, Actor, RequestMeta } from "@/lib/esign/types";
import { checkFieldFits, checkNoOverlap } from "@/lib/esign/field-plan";
import { requireDocument } from "@/lib/esign/documents";
import { FIELD_READING_ORDER } from "@/lib/esign/field-order";
import { invalid } from "@/lib/esign/errors";
import { placedBox, placedBoxShape } from "@/lib/esign/schemas";
import { detectTextTags, isTagBox } from "@/lib/esign/text-tags";

const rectSchema = z.object({ x: z.number(), y: z.number(), width: z.number().positive(), height: z.number().positive() });

export const placedFieldSchema = z.object({
  recipientId: z.uuid({ message: "must be a recipient id" }),
  ...placedBoxShape,
  required: z.boolean().default(true),
  /** A field proposed from a text tag: the tag's box, hidden in the output (must be a tag of the PDF). */
  anchorRect: rectSchema.nullable().optional(),
});
export type PlacedField = z.infer<typeof placedFieldSchema>;
export const placedFieldsSchema = z.object({ fields: z.array(placedFieldSchema).max(500, "at most 500 fields") });

export interface DraftLayout {
  id: string;
  name: string;
  status: string;
  pages: { width: number; height: number }[];
  recipients: { id: string; name: string; email: string; signingOrder: number }[];
  fields: (PlacedField & { id: string })[];
  /** Text tags found when the draft had no fields yet: proposed as its fields; tags with no signer left. */
  tags: { proposed: number; unassigned: string[] };
}

type Deps = Pick<EsignDeps, "db" | "storage" | "pageSizes" | "findAnchors">;
type Rect = z.infer<typeof rectSchema>;

export async function draftLayout(deps: Deps, orgId: string, id: string): Promise<DraftLayout> {
  const doc = await requireDocument(deps.db, orgId, id);
  const fields = await deps.db.signingField.findMany({ where: { documentId: id }, orderBy: FIELD_READING_ORDER });
  const pdf = await deps.storage.get(doc.originalPdfKey);
  const recipients = doc.recipients.map((r) => ({ id: r.id, name: r.name, email: r.email, signingOrder: r.signingOrder }));
  // Only a draft without fields gets proposals: once the sender placed or removed fields, theirs stand.
  const tagged = fields.length === 0 && doc.status === "draft" ? await detectTextTags(deps, pdf, recipients.length) : { fields: [], unassigned: [] };
  return {
    id: doc.id,
    name: doc.name,
    status: doc.status,
    pages: await deps.pageSizes(pdf),
    recipients,
    tags: { proposed: tagged.fields.length, unassigned: tagged.unassigned },
    fields: [
      ...tagged.fields.map(({ recipientIndex, anchor: _anchor, ...f }, i) => ({ ...f, id: `tag-${i}`, recipientId: recipients[recipientIndex].id })),
      ...fields.map((f) => ({
        id: f.id,
        recipientId: f.recipientId,
        ...placedBox(f),
        required: f.required,
        anchorRect: (f.anchorRect as Rect | null) ?? null,
      })),
    ],
  };
}

/**
 * Replaces every field of a draft; each must sit on a page of the document, inside its edges.
 * `forSending` also refuses a signer without a single field (they could only click "finish").
 */
export async function replaceDraftFields(
  deps: Deps,
  actor: Actor,
  id: string,
  fields: PlacedField[],
  meta: RequestMeta,
  opts: { forSending?: boolean } = {},
): Promise<number> {
  const doc = await requireDocument(deps.db, actor.orgId, id);
  if (doc.status !== "draft") throw invalid(`The document is already ${doc.status}; fields can only change on a draft`, "DocumentAlreadySent", "documentId");
  const pdf = await deps.storage.get(doc.originalPdfKey);
  const pages = await deps.pageSizes(pdf);
  const tags = fields.some((f) => f.anchorRect) ? (await detectTextTags(deps, pdf, doc.recipients.length)).fields : [];
  const recipientIds = new Set(doc.recipients.map((r) => r.id));
  for (const [i, f] of fields.entries()) {
    if (!recipientIds.has(f.recipientId))
      throw invalid(`fields.${i} is assigned to someone who is not a recipient of this document`, "FieldRecipientUnknown", `fields.${i}.recipientId`);
    checkFieldFits(pages, f, `fields.${i}`);
    // Hiding is for the document's own tags: never an arbitrary part of a page.
    if (f.anchorRect && !isTagBox(tags, f.page, f.anchorRect))
      throw invalid(`fields.${i}.anchorRect is not a text tag of page ${f.page}`, "FieldTagUnknown", `fields.${i}.anchorRect`);
  }
  checkNoOverlap(
    fields,
    fields.map((_, i) => `fields.${i}`),
  );
  if (opts.forSending) {
    const idle = doc.recipients.filter((r) => !fields.some((f) => f.recipientId === r.id)).map((r) => r.name);
    if (idle.length) throw invalid(`Place at least one field for ${idle.join(", ")} before sending`, "SignerWithoutFields", "fields");
  }
  await deps.db.$transaction(async (tx) => {
    await tx.signingField.deleteMany({ where: { documentId: id } });
    if (fields.length)
      await tx.signingField.createMany({
        data: fields.map(({ anchorRect, ...f }) => ({
          ...f,
          anchorRect: anchorRect ? { ...anchorRect } : undefined,
          anchor: anchorRect ? (tags.find((t) => t.page === f.page && isTagBox([t], f.page, anchorRect))?.anchor ?? null) : null,
          documentId: id,
          isReadonly: false,
          isMultiline: false,
        })),
      });
    await appendAudit(tx, id, {
      actionType: "fields_updated",
      userId: actor.userId,
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: { fields: fields.length },
    });
  });
  return fields.length;
}

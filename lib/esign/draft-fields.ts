// Field placement on a draft (the dashboard's visual placer): the draft's pages and fields, and a
// whole-set replacement of its fields. Only drafts can change: once sent, signers may already be
// looking at the fields.
import { z } from "zod";
import { appendAudit } from "@/lib/esign/audit";
import type { EsignDeps, Actor, RequestMeta } from "@/lib/esign/types";
import { checkFieldFits, checkNoOverlap } from "@/lib/esign/field-plan";
import { requireDocument } from "@/lib/esign/documents";
import { invalid } from "@/lib/esign/errors";
import { FIELD_TYPES } from "@/lib/esign/schemas";

export const placedFieldSchema = z.object({
  recipientId: z.uuid({ message: "must be a recipient id" }),
  type: z.enum(FIELD_TYPES, { message: `must be one of ${FIELD_TYPES.join(", ")}` }),
  page: z.number().int().min(1),
  x: z.number().min(0),
  y: z.number().min(0),
  width: z.number().min(4).max(2000),
  height: z.number().min(4).max(2000),
  required: z.boolean().default(true),
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
}

async function pagesOf(deps: Pick<EsignDeps, "storage" | "pageSizes">, pdfKey: string) {
  return deps.pageSizes(await deps.storage.get(pdfKey));
}

export async function draftLayout(deps: Pick<EsignDeps, "db" | "storage" | "pageSizes">, orgId: string, id: string): Promise<DraftLayout> {
  const doc = await requireDocument(deps.db, orgId, id);
  const fields = await deps.db.signingField.findMany({ where: { documentId: id }, orderBy: [{ page: "asc" }, { y: "asc" }, { x: "asc" }] });
  return {
    id: doc.id,
    name: doc.name,
    status: doc.status,
    pages: await pagesOf(deps, doc.originalPdfKey),
    recipients: doc.recipients.map((r) => ({ id: r.id, name: r.name, email: r.email, signingOrder: r.signingOrder })),
    fields: fields.map((f) => ({
      id: f.id,
      recipientId: f.recipientId,
      type: f.type as PlacedField["type"],
      page: f.page,
      x: f.x,
      y: f.y,
      width: f.width,
      height: f.height,
      required: f.required,
    })),
  };
}

/**
 * Replaces every field of a draft; each must sit on a page of the document, inside its edges.
 * `forSending` also refuses a signer without a single field (they could only click "finish").
 */
export async function replaceDraftFields(
  deps: Pick<EsignDeps, "db" | "storage" | "pageSizes">,
  actor: Actor,
  id: string,
  fields: PlacedField[],
  meta: RequestMeta,
  opts: { forSending?: boolean } = {},
): Promise<number> {
  const doc = await requireDocument(deps.db, actor.orgId, id);
  if (doc.status !== "draft") throw invalid(`The document is already ${doc.status}; fields can only change on a draft`, "DocumentAlreadySent", "documentId");
  const pages = await pagesOf(deps, doc.originalPdfKey);
  const recipientIds = new Set(doc.recipients.map((r) => r.id));
  for (const [i, f] of fields.entries()) {
    if (!recipientIds.has(f.recipientId))
      throw invalid(`fields.${i} is assigned to someone who is not a recipient of this document`, "FieldRecipientUnknown", `fields.${i}.recipientId`);
    checkFieldFits(pages, f, `fields.${i}`);
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
    if (fields.length) await tx.signingField.createMany({ data: fields.map((f) => ({ ...f, documentId: id, isReadonly: false, isMultiline: false })) });
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

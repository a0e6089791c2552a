// A signing document's source (a file, a fileLink, a template or a deliverable) becomes the one PDF that is signed.
import crypto from "node:crypto";
import { invalid } from "@/lib/esign/errors";
import { type LayoutView, layoutSource } from "@/lib/esign/layouts";
import type { PrepareInput } from "@/lib/esign/schemas";
import type { Actor, EsignDeps } from "@/lib/esign/types";
import { NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { UploadedFile } from "@/lib/uploads/file";

export function sha256(data: Buffer): string {
  return crypto.createHash("sha256").update(data).digest("hex");
}

function isPdf(data: Buffer): boolean {
  return data.subarray(0, 5).toString("latin1") === "%PDF-";
}

function officeKind(name: string): "docx" | "pptx" | null {
  const m = /\.(docx|pptx)$/i.exec(name);
  return m ? (m[1].toLowerCase() as "docx" | "pptx") : null;
}

/** Exactly one of file, fileLink, templateId, deliverableId, layoutId becomes the PDF to sign; a layout brings its fields too. */
export async function resolveSource(
  deps: EsignDeps,
  actor: Actor,
  input: PrepareInput,
  file?: UploadedFile,
): Promise<{ pdf: Buffer; kind: string; ref: string | null; name: string; layout?: LayoutView }> {
  const given = [
    file ? "file" : null,
    input.fileLink ? "fileLink" : null,
    input.templateId ? "templateId" : null,
    input.deliverableId ? "deliverableId" : null,
    input.layoutId ? "layoutId" : null,
  ].filter(Boolean);
  if (given.length !== 1)
    throw invalid(
      `Give exactly one document source (file, fileLink, templateId, deliverableId or layoutId); got ${given.length ? given.join(", ") : "none"}`,
      "DocumentSourceInvalid",
      "file",
    );

  if (file) {
    // The PDF engine and the converter work on bytes in memory; the upload's cap bounds them.
    const data = await file.readAll();
    if (isPdf(data)) return { pdf: data, kind: "file", ref: file.name, name: file.name.replace(/\.pdf$/i, "") };
    const office = officeKind(file.name);
    if (!office) throw invalid("The file must be a PDF, DOCX or PPTX", "UnsupportedDocument", "file");
    return { pdf: await deps.converter.convert(data, office), kind: "file", ref: file.name, name: file.name.replace(/\.(docx|pptx)$/i, "") };
  }
  if (input.fileLink) {
    const data = await deps.download(input.fileLink);
    const path = new URL(input.fileLink).pathname;
    const base = decodeURIComponent(path.split("/").pop() || "document");
    if (isPdf(data)) return { pdf: data, kind: "fileLink", ref: input.fileLink, name: base.replace(/\.pdf$/i, "") };
    const office = officeKind(base);
    if (!office) throw invalid("fileLink must point to a PDF, DOCX or PPTX", "UnsupportedDocument", "fileLink");
    return { pdf: await deps.converter.convert(data, office), kind: "fileLink", ref: input.fileLink, name: base.replace(/\.(docx|pptx)$/i, "") };
  }
  if (input.layoutId) return layoutSource(deps, actor.orgId, input.layoutId);
  if (input.templateId) {
    const t = isUuid(input.templateId) ? await deps.db.template.findFirst({ where: { id: input.templateId, orgId: actor.orgId, isActive: true } }) : null;
    if (!t) throw new NotFoundError("Template not found", "TemplateNotFound");
    return { pdf: await deps.converter.convert(await deps.storage.get(t.storageKey), t.kind as "docx" | "pptx"), kind: "templateId", ref: t.id, name: t.name };
  }
  const d = isUuid(input.deliverableId!)
    ? await deps.db.deliverable.findFirst({ where: { id: input.deliverableId!, orgId: actor.orgId, isActive: true } })
    : null;
  if (!d?.pdfKey) throw new NotFoundError("Deliverable not found", "DeliverableNotFound");
  return { pdf: await deps.storage.get(d.pdfKey), kind: "deliverableId", ref: d.id, name: d.name };
}

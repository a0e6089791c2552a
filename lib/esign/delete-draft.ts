// Deleting a draft: the one operation that removes a signing document (sent ones are voided instead).
import { requireDocument } from "@/lib/esign/documents";
import { DocumentNotDeletableError, DocumentNotFoundError } from "@/lib/esign/errors";
import type { EsignDeps } from "@/lib/esign/types";
import { log } from "@/lib/log";

/**
 * Deletes a draft (never sent: no signer has seen it) with its recipients, fields and audit trail,
 * then its stored PDF. Compare-and-set against a concurrent send: one wins, the other gets the error
 * for the state it finds. The file goes after the commit, so a failure leaves at worst an orphaned
 * file, never a document without its file.
 */
export async function deleteDraft(deps: Pick<EsignDeps, "db" | "storage">, orgId: string, id: string): Promise<{ id: string; name: string; deleted: true }> {
  const doc = await requireDocument(deps.db, orgId, id);
  const { count } = await deps.db.signingDocument.deleteMany({ where: { id, orgId, status: "draft" } });
  if (count === 0) {
    const found = await deps.db.signingDocument.findFirst({ where: { id, orgId }, select: { status: true } });
    if (!found) throw new DocumentNotFoundError();
    throw new DocumentNotDeletableError(found.status);
  }
  await Promise.all(
    [doc.originalPdfKey, doc.signedPdfKey]
      .filter((k): k is string => Boolean(k))
      .map((key) =>
        deps.storage.delete(key).catch((err) => log.warn({ documentId: id, err: (err as Error).message }, "a deleted draft's file could not be removed")),
      ),
  );
  return { id, name: doc.name, deleted: true };
}

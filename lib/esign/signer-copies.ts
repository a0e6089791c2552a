// What a signer sees and downloads: the document as it stands, never the blank original. While
// signers are still signing, that is the values of everyone who has signed stamped onto the original
// (unsealed); once completed, the sealed PDF. The signer's own copy is theirs once they have signed; the
// completed copy only once the document is completed. The link's token is the credential (plus the
// session where a check applies): no API key.
import type { loadByToken } from "@/lib/esign/signer-access";
import { accessOf, requireVerified, SignerError } from "@/lib/esign/signer-access";
import type { EsignDeps } from "@/lib/esign/types";

type LoadedDocument = Awaited<ReturnType<typeof loadByToken>>["recipient"]["document"];

/** Stamped copies by document and number of signatures: values change only when someone signs. */
const stamped = new Map<string, Promise<Buffer>>();
const CACHED = 16;

export async function currentPdf(deps: Pick<EsignDeps, "storage" | "stampValues">, doc: LoadedDocument): Promise<Buffer> {
  if (doc.status === "completed" && doc.signedPdfKey) return deps.storage.get(doc.signedPdfKey);
  const filled = doc.fields.filter((f) => f.value !== null && f.value !== "");
  if (filled.length === 0) return deps.storage.get(doc.originalPdfKey);
  const key = `${doc.id}:${doc.recipients.filter((r) => r.signedAt).length}:${filled.length}`;
  let copy = stamped.get(key);
  if (!copy) {
    copy = (async () =>
      deps.stampValues({
        original: await deps.storage.get(doc.originalPdfKey),
        fields: filled.map((f) => ({ page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, type: f.type, value: f.value! })),
        hide: doc.fields.flatMap((f) => (f.anchorRect ? [{ page: f.page, ...(f.anchorRect as { x: number; y: number; width: number; height: number }) }] : [])),
      }))();
    stamped.set(key, copy);
    copy.catch(() => stamped.delete(key));
    while (stamped.size > CACHED) stamped.delete(stamped.keys().next().value!);
  }
  return copy;
}

export type CopyKind = "mine" | "completed";

/** A signer's download: their copy (values so far) once they have signed, or the completed, sealed copy. */
export async function signerCopy(
  deps: EsignDeps,
  loaded: Awaited<ReturnType<typeof loadByToken>>,
  kind: CopyKind,
  sessionToken: string | null | undefined,
): Promise<{ data: Buffer; fileName: string }> {
  requireVerified(await accessOf(deps, loaded, sessionToken));
  const doc = loaded.recipient.document;
  if (kind === "completed") {
    if (doc.status !== "completed" || !doc.signedPdfKey)
      throw new SignerError("conflict", "The completed copy is available once everyone has signed", "DocumentNotCompleted");
    return { data: await deps.storage.get(doc.signedPdfKey), fileName: `${doc.name} (signed).pdf` };
  }
  if (!loaded.recipient.signedAt) throw new SignerError("conflict", "Your copy is available once you have signed", "NotSignedYet");
  return { data: await currentPdf(deps, doc), fileName: `${doc.name} (${doc.status === "completed" ? "signed" : "your copy"}).pdf` };
}

// Keyless, short-lived links to a document's PDF (docs/contract.md "Clients of the hosted service"): the
// JSON download's `downloadUrl` and prepare-for-review's `previewUrl`. With S3 storage a download link is
// S3's own presigned URL; otherwise it is Quire's /esign/files/{token}, where the token is an HMAC over the
// document, its organization, which file (original or signed), the purpose and the expiry. Nothing is
// stored: the token is the whole credential, valid on every instance that shares NEXTAUTH_SECRET.
import crypto from "node:crypto";
import { now } from "@/lib/clock";
import { DocumentNotFoundError, FileLinkExpiredError, FileLinkInvalidError } from "@/lib/esign/errors";
import type { EsignDeps } from "@/lib/esign/types";
import { isUuid } from "@/lib/ids";

/** download: saved as a file, minutes long; preview: shown in the browser for a person to review. */
export type FileLinkPurpose = "download" | "preview";

export const FILE_LINK_TTL_SECONDS: Record<FileLinkPurpose, number> = { download: 5 * 60, preview: 24 * 60 * 60 };

interface FileLinkClaims {
  /** document id */
  d: string;
  /** organization id */
  o: string;
  /** which of the document's files: the signed one replaces the original at completion */
  f: "original" | "signed";
  p: FileLinkPurpose;
  /** expiry, unix seconds */
  e: number;
}

function mac(secret: string, payload: string): Buffer {
  // Domain-separated from the signing-link tokens made with the same secret.
  return crypto.createHmac("sha256", secret).update(`file-link:${payload}`).digest();
}

function issueToken(secret: string, claims: FileLinkClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${payload}.${mac(secret, payload).toString("base64url")}`;
}

function readToken(secret: string, token: string): FileLinkClaims {
  const [payload, sig, extra] = token.split(".");
  if (!payload || !sig || extra !== undefined) throw new FileLinkInvalidError();
  const given = Buffer.from(sig, "base64url");
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new FileLinkInvalidError();
  let claims: FileLinkClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw new FileLinkInvalidError();
  }
  if (typeof claims?.e !== "number" || typeof claims.d !== "string" || typeof claims.o !== "string") throw new FileLinkInvalidError();
  if (claims.e * 1000 <= now().getTime()) throw new FileLinkExpiredError("expired");
  return claims;
}

interface LinkedDocument {
  id: string;
  orgId: string;
  name: string;
  status: string;
  originalPdfKey: string;
  signedPdfKey: string | null;
}

async function linkedDocument(deps: EsignDeps, orgId: string, id: string): Promise<LinkedDocument> {
  const doc = isUuid(id)
    ? await deps.db.signingDocument.findFirst({
        where: { id, orgId },
        select: { id: true, orgId: true, name: true, status: true, originalPdfKey: true, signedPdfKey: true },
      })
    : null;
  if (!doc) throw new DocumentNotFoundError();
  return doc;
}

function currentFile(doc: LinkedDocument): { which: FileLinkClaims["f"]; key: string } {
  return doc.status === "completed" && doc.signedPdfKey ? { which: "signed", key: doc.signedPdfKey } : { which: "original", key: doc.originalPdfKey };
}

function fileNameOf(doc: LinkedDocument, which: FileLinkClaims["f"]): string {
  return `${doc.name}${which === "signed" ? " (signed)" : ""}.pdf`;
}

export interface FileLink {
  url: string;
  fileName: string;
  expiresAt: string;
}

/**
 * A keyless download link to the document's current PDF (the signed one once completed). `disposition`
 * builds the Content-Disposition a presigned S3 URL answers with (the HTTP layer owns that header's format).
 */
export async function documentDownloadLink(deps: EsignDeps, orgId: string, documentId: string, disposition: (fileName: string) => string): Promise<FileLink> {
  const doc = await linkedDocument(deps, orgId, documentId);
  const file = currentFile(doc);
  if (!deps.storage.presignedGetUrl) return quireLink(deps, doc, "download");
  const fileName = fileNameOf(doc, file.which);
  const ttl = FILE_LINK_TTL_SECONDS.download;
  const url = await deps.storage.presignedGetUrl(file.key, {
    expiresInSeconds: ttl,
    contentType: "application/pdf",
    contentDisposition: disposition(fileName),
  });
  return { url, fileName, expiresAt: new Date(now().getTime() + ttl * 1000).toISOString() };
}

/** prepare-for-review's previewUrl: the PDF shown in a browser, no key needed (always served by Quire). */
export async function documentPreviewLink(deps: EsignDeps, orgId: string, documentId: string): Promise<FileLink> {
  return quireLink(deps, await linkedDocument(deps, orgId, documentId), "preview");
}

function quireLink(deps: EsignDeps, doc: LinkedDocument, purpose: FileLinkPurpose): FileLink {
  const file = currentFile(doc);
  const expires = Math.floor(now().getTime() / 1000) + FILE_LINK_TTL_SECONDS[purpose];
  const token = issueToken(deps.linkSecret, { d: doc.id, o: doc.orgId, f: file.which, p: purpose, e: expires });
  return { url: `${deps.baseUrl}/esign/files/${token}`, fileName: fileNameOf(doc, file.which), expiresAt: new Date(expires * 1000).toISOString() };
}

/** The file a link names, checked: authentic, not expired, and the document still has that file. */
export async function fileByLink(deps: EsignDeps, token: string): Promise<{ data: Buffer; fileName: string; purpose: FileLinkPurpose }> {
  const claims = readToken(deps.linkSecret, token);
  const doc = await linkedDocument(deps, claims.o, claims.d).catch((err) => {
    throw err instanceof DocumentNotFoundError ? new FileLinkExpiredError("replaced") : err;
  });
  const file = currentFile(doc);
  // A preview made before completion must not turn into the signed file, nor the reverse.
  if (file.which !== claims.f) throw new FileLinkExpiredError("replaced");
  return { data: await deps.storage.get(file.key), fileName: fileNameOf(doc, file.which), purpose: claims.p === "preview" ? "preview" : "download" };
}

// What the signing area's operations are given: their adapters (EsignDeps), who acts (Actor) and from
// where (RequestMeta, for the audit trail and the certificate page).
import type { Db } from "@/lib/db/client";
import type { Language } from "@/lib/i18n";
import type { AnchorHit, AnchorRequest } from "@/lib/pdf/anchors";
import type { PdfConverter } from "@/lib/pdf/converter";
import type { SealablePdf } from "@/lib/pdf/inspect";
import type { SealRequest } from "@/lib/pdf/seal";
import type { FileStorage } from "@/lib/storage";
import type { OutgoingMail } from "@/lib/mail/mailer";
import type { Email, MailBrand, SigningRequestArgs } from "@/lib/mail/templates";

/** A signing email: always an organization's, always about a document. */
export type MailMessage = OutgoingMail & { orgId: string; documentId: string };

export interface EsignDeps {
  db: Db;
  storage: FileStorage;
  converter: PdfConverter;
  /** SSRF-safe download of a fileLink. */
  download: (url: string) => Promise<Buffer>;
  pageSizes: (pdf: Buffer) => Promise<{ width: number; height: number }[]>;
  /** Refuses what cannot be sealed (PdfPasswordProtected, PdfDamaged, PdfUnsupported); page geometry. */
  inspectPdf: (pdf: Buffer) => Promise<SealablePdf>;
  findAnchors: (pdf: Buffer, requests: AnchorRequest[]) => Promise<AnchorHit[][]>;
  /** The values given so far stamped onto the original, unsealed (lib/esign/signer-copies.ts). */
  stampValues: (input: Pick<SealRequest, "original" | "fields" | "hide">) => Promise<Buffer>;
  sendMail: (mail: MailMessage) => Promise<unknown>;
  emails: {
    signingRequest: (a: SigningRequestArgs) => Email;
    expiryWarning: (a: {
      recipientName: string;
      senderName?: string;
      documentName: string;
      signUrl: string;
      expiresAt: Date;
      lang?: Language;
      brand?: MailBrand;
    }) => Email;
    documentVoided: (a: { recipientName: string; documentName: string; reason: string; lang?: Language; brand?: MailBrand }) => Email;
  };
  baseUrl: string;
  linkSecret: string;
}

export interface Actor {
  orgId: string;
  userId: string;
}

export interface RequestMeta {
  ip?: string | null;
  userAgent?: string | null;
}

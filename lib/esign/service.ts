// Wires the signing domain to the configured adapters: storage, converter, mail, PDF tools and
// the instance certificate.
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import type { EsignDeps } from "@/lib/esign/documents";
import type { SigningDeps } from "@/lib/esign/signing";
import { sendMail } from "@/lib/mail/mailer";
import { documentVoidedEmail, signingCompletedEmail, signingRequestEmail } from "@/lib/mail/templates";
import { safeDownload } from "@/lib/net/safe-fetch";
import { findAnchors } from "@/lib/pdf/anchors";
import { pdfConverter } from "@/lib/pdf/converter";
import { loadOrCreateSigningCertificate } from "@/lib/pdf/instance-certificate";
import { pageSizes } from "@/lib/pdf/raster";
import { sealCompletedDocument } from "@/lib/pdf/seal";
import { fileStorage } from "@/lib/storage";

const MAX_LINKED_FILE_BYTES = 25 * 1024 * 1024;

export async function esignDeps(): Promise<EsignDeps> {
  const config = getConfig();
  return {
    db: await db(),
    storage: fileStorage(),
    converter: pdfConverter(),
    download: (url) => safeDownload(url, { field: "fileLink", maxBytes: MAX_LINKED_FILE_BYTES, allowPrivate: config.allowPrivateFetch }),
    pageSizes,
    findAnchors,
    sendMail: (mail) => sendMail(mail),
    emails: { signingRequest: signingRequestEmail, documentVoided: documentVoidedEmail },
    baseUrl: config.baseUrl,
    // Links stay valid across restarts and instances as long as NEXTAUTH_SECRET does.
    linkSecret: `${config.nextAuthSecret}:signing-links`,
  };
}

export async function signingDeps(): Promise<SigningDeps> {
  const config = getConfig();
  const base = await esignDeps();
  return {
    ...base,
    emailsCompleted: signingCompletedEmail,
    seal: async (input) => {
      const cert = await loadOrCreateSigningCertificate({ ...config.signingCertificate, dataDir: config.dataDir });
      const { pdf } = await sealCompletedDocument({ ...input, signing: { p12: cert.p12, password: cert.password, name: "Quire" } });
      return pdf;
    },
  };
}

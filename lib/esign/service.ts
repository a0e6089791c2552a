// Wires the signing domain to the configured adapters: storage, converter, mail, PDF tools and
// the instance certificate.
import { getConfig } from "@/lib/config";
import { open, seal } from "@/lib/crypto/secret-box";
import { db, type Db } from "@/lib/db/client";
import type { EsignDeps } from "@/lib/esign/types";
import type { CompletionDeps } from "@/lib/esign/completion";
import { deliverQueuedMail, queueMail, sendMail } from "@/lib/mail/mailer";
import { documentDeclinedEmail, documentVoidedEmail, expiryWarningEmail, signingCompletedEmail, signingRequestEmail } from "@/lib/mail/templates";
import { safeDownload } from "@/lib/net/safe-fetch";
import { findAnchors } from "@/lib/pdf/anchors";
import { pdfConverter } from "@/lib/pdf/converter";
import { loadOrCreateSigningCertificate, type CertificateStore } from "@/lib/pdf/instance-certificate";
import { checkSealable } from "@/lib/pdf/inspect";
import { pageSizes } from "@/lib/pdf/raster";
import { sealCompletedDocument, stampValues } from "@/lib/pdf/seal";
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
    inspectPdf: checkSealable,
    findAnchors,
    stampValues,
    sendMail: (mail) => sendMail(mail),
    emails: { signingRequest: signingRequestEmail, expiryWarning: expiryWarningEmail, documentVoided: documentVoidedEmail },
    baseUrl: config.baseUrl,
    // Links stay valid across restarts and instances as long as NEXTAUTH_SECRET does.
    linkSecret: `${config.nextAuthSecret}:signing-links`,
  };
}

export async function signingDeps(): Promise<CompletionDeps> {
  const config = getConfig();
  const base = await esignDeps();
  return {
    ...base,
    emailsCompleted: signingCompletedEmail,
    emailsDeclined: documentDeclinedEmail,
    mail: { queue: queueMail, deliverQueued: deliverQueuedMail },
    retryScale: config.completion.retryScale,
    seal: async (input) => {
      const cert = await loadOrCreateSigningCertificate({
        ...config.signingCertificate,
        dataDir: config.dataDir,
        store: certificateStore(base.db, config.nextAuthSecret),
      });
      const { pdf } = await sealCompletedDocument({ ...input, signing: { p12: cert.p12, password: cert.password, name: "Quire" }, tsaUrl: config.tsaUrl });
      return pdf;
    },
  };
}

/**
 * The generated signing certificate lives in the database, sealed with the instance secret: every
 * instance signs with the same one, and a database dump alone does not give away its key.
 */
function certificateStore(client: Db, instanceSecret: string): CertificateStore {
  const name = "signing_certificate";
  return {
    async getOrPut(make) {
      let row = await client.instanceSetting.findUnique({ where: { name } });
      if (!row) {
        // Instances that make one at the same time keep whichever was stored first.
        await client.instanceSetting.createMany({ data: [{ name, value: seal(instanceSecret, make()) }], skipDuplicates: true });
        row = await client.instanceSetting.findUniqueOrThrow({ where: { name } });
      }
      return open(instanceSecret, row.value);
    },
  };
}

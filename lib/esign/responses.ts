// Response shapes of the signing API (docs/contract.md "Signing documents", "Embedded signing").
import { z } from "zod";
import { FILE_LINK_TTL_SECONDS } from "@/lib/esign/file-links";
import { timestamp, uuid } from "@/lib/http/response-schemas";
import { LANGUAGES } from "@/lib/i18n";

/** declined: a signer refused (final, like voided). */
export const DOCUMENT_STATUSES = ["draft", "sent", "completed", "voided", "declined"] as const;
export const documentStatusSchema = z.enum(DOCUMENT_STATUSES).meta({ id: "DocumentStatus" });
export const recipientStatusSchema = z
  .enum(["ready", "pending", "completed"])
  .meta({ id: "RecipientStatus", description: "ready: their turn; pending: an earlier signer has not signed; completed: signed" });
export const identityModeSchema = z.enum(["otp", "external_idv", "override"]).meta({ id: "IdentityVerificationMode" });

const preparedRecipient = {
  id: uuid,
  name: z.string(),
  email: z.string(),
  externalId: z.string().nullable(),
  signingOrder: z.number().int(),
  status: recipientStatusSchema,
};
export const preparedRecipientSchema = z.object(preparedRecipient).meta({ id: "PreparedRecipient" });

/** Reply of prepare-for-signing and send. */
export const prepareReplySchema = z
  .object({ success: z.boolean(), documentId: uuid, status: documentStatusSchema, message: z.string(), recipients: z.array(preparedRecipientSchema) })
  .meta({ id: "PrepareReply" });
/** Reply of prepare-for-review. */
export const reviewReplySchema = prepareReplySchema
  .extend({
    previewUrl: z.string().meta({
      description: `A signed link a person can open without an API key: the PDF shown in the browser, for ${FILE_LINK_TTL_SECONDS.preview / 3600} hours`,
    }),
  })
  .meta({ id: "ReviewReply" });

/** GET /esign/documents/{id}/download when the request prefers JSON. */
export const downloadLinkSchema = z
  .object({
    downloadUrl: z.string().meta({
      description: `Fetch without an API key; expires in ${FILE_LINK_TTL_SECONDS.download / 60} minutes (an S3 presigned URL when files are on S3)`,
    }),
    fileName: z.string(),
    expiresAt: timestamp,
  })
  .meta({ id: "DownloadLink" });

export const signingDocumentSchema = z
  .object({
    id: uuid,
    name: z.string(),
    description: z.string(),
    status: documentStatusSchema,
    pageCount: z.number().int(),
    documentHash: z.string().meta({ description: "SHA-256 (hex) of the original PDF" }),
    senderName: z.string().nullable(),
    senderEmail: z.string().nullable(),
    ccEmails: z.array(z.string()),
    sendEmail: z.boolean(),
    language: z.enum(LANGUAGES).meta({ description: "The signing page's, its emails' and passcodes' language" }),
    expiresAt: timestamp.nullable(),
    emailSubject: z.string().nullable().meta({ description: "The signing emails' subject for this send; null: the default wording" }),
    emailMessage: z.string().nullable().meta({ description: "The sender's message in the signing emails (plain text)" }),
    reminderDays: z.number().int().meta({ description: "Automatic reminder every N days to the signers whose turn it is; 0: none" }),
    createdOn: timestamp,
    updatedOn: timestamp,
    sentAt: timestamp.nullable(),
    completedAt: timestamp.nullable(),
    voidedAt: timestamp.nullable(),
    voidReason: z.string().nullable(),
    declinedAt: timestamp.nullable(),
    declineReason: z.string().nullable().meta({ description: "What the signer who declined wrote" }),
    recipients: z.array(
      z.object({ ...preparedRecipient, viewedAt: timestamp.nullable(), signedAt: timestamp.nullable() }).meta({ id: "SigningDocumentRecipient" }),
    ),
  })
  .meta({ id: "SigningDocument" });

export const documentStatusReplySchema = z.object({
  status: documentStatusSchema,
  recipients: z.array(
    z
      .object({ id: uuid, name: z.string(), email: z.string(), status: recipientStatusSchema, signedAt: timestamp.nullable() })
      .meta({ id: "DocumentStatusRecipient" }),
  ),
});

export const voidResultSchema = z
  .object({ id: uuid, name: z.string(), status: z.literal("voided"), voidReason: z.string(), voidedAt: timestamp })
  .meta({ id: "VoidResult" });
export const documentDeletedSchema = z.object({ id: uuid, name: z.string(), deleted: z.literal(true) }).meta({ id: "DocumentDeleted" });
export const resendResultSchema = z
  .object({ success: z.boolean(), recipientCount: z.number().int().meta({ description: "Signers emailed" }) })
  .meta({ id: "ResendResult" });

const auditPartySchema = z.object({ name: z.string(), email: z.string() }).meta({ id: "AuditParty" });

export const auditEntrySchema = z
  .object({
    id: uuid,
    documentId: uuid,
    actionType: z.string().meta({ description: "created, sent, viewed, signed, completed, voided, declined, signing_url_issued, …" }),
    timestamp,
    previousHash: z.string(),
    currentHash: z.string().meta({ description: "SHA-256 of previousHash and the entry's canonical JSON" }),
    details: z.record(z.string(), z.unknown()),
    recipientId: z.string().nullable(),
    userId: z.string().nullable().meta({ description: "The person or API key's user who acted; null for signers and for Quire itself" }),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    hashVersion: z
      .number()
      .int()
      .meta({ description: "1: the hash covers id, documentId, actionType, timestamp, recipientId, ip, userAgent, details; 2: also userId and hashVersion" }),
    createdOn: timestamp,
    user: auditPartySchema.nullable().meta({ description: "Who acted, when a person (dashboard) or an API key did" }),
    recipient: auditPartySchema.nullable().meta({ description: "The recipient the entry concerns: the signer, when a signer acted" }),
  })
  .meta({ id: "AuditEntry" });
export const auditTrailSchema = z
  .object({ document: z.object({ id: uuid, name: z.string() }), auditTrail: z.array(auditEntrySchema) })
  .meta({ id: "AuditTrail" });

/** 2.11 */
export const signingUrlResultSchema = z
  .object({
    url: z.string().meta({ description: "Absolute HTTPS link carrying an opaque token in its query" }),
    expiresAt: timestamp
      .nullable()
      .meta({ description: "otp or none: the document's own expiry (null if none); external_idv or override: about five minutes after issue" }),
    recipientId: z.string(),
    externalId: z.string().nullable().meta({ description: "The recipient's externalId; null when it has none" }),
    identityVerificationMode: identityModeSchema.nullable(),
    pendingChecks: z.array(z.enum(["email_otp", "sms_otp"])).meta({ description: "The passcode step that remains; empty otherwise" }),
  })
  .meta({ id: "SigningUrlResult" });

/** The switches of 2.12, shared with the settings form's input schema (lib/esign/settings.ts). */
export const signingSettingsFlags = {
  enabled: z.boolean(),
  allowExternalIdv: z.boolean(),
  allowIdentityOverride: z.boolean(),
  defaultChannel: z.enum(["none", "email", "sms"]),
  allowChannelOverride: z.boolean(),
};

/** 2.12 */
export const embeddedSigningSettingsSchema = z
  .object({
    ...signingSettingsFlags,
    allowedFrameAncestors: z.array(z.string()).meta({ description: "Origins allowed to frame the signing page; empty denies all framing" }),
  })
  .meta({ id: "EmbeddedSigningSettings" });

export const retryFinalizationSchema = z.object({ id: z.string(), status: documentStatusSchema }).meta({ id: "RetryFinalizationResult" });

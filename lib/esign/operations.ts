// The signing operations (docs/contract.md 4.3): one record each, bound by the route files under app/esign.
// lib/openapi/document.ts renders them; apiRoute() takes them, so roles, feature, family and
// idempotency are declared here only.
import { ANY_ROLE, SENDERS, WRITERS } from "@/lib/auth/roles";
import { FILE_LINK_TTL_SECONDS } from "@/lib/esign/file-links";
import { listDocumentsQuery, prepareSchema, resendSchema, signingUrlSchema, voidSchema } from "@/lib/esign/schemas";
import {
  auditTrailSchema,
  documentDeletedSchema,
  documentStatusReplySchema,
  downloadLinkSchema,
  embeddedSigningSettingsSchema,
  prepareReplySchema,
  resendResultSchema,
  reviewReplySchema,
  signingDocumentSchema,
  signingUrlResultSchema,
  retryFinalizationSchema,
  voidResultSchema,
} from "@/lib/esign/responses";
import { signingErrorBody } from "@/lib/http/error-schemas";
import { dataOf, pageOf, resultsOf } from "@/lib/http/response-schemas";

import { CONTENT_TYPES } from "@/lib/files/content-types";
import { contentDisposition, defineOperations, fileField } from "@/lib/openapi/types";

export const signingOperations = defineOperations({
  prepareForSigning: {
    method: "post",
    path: "/esign/single/prepare-for-signing",
    summary: "Send a document for signing",
    description:
      "Exactly one source: file (multipart), fileLink, templateId or deliverableId. With sendEmail false no signing-link emails are sent (no reminders or expiry warnings either): request a signing URL per recipient. emailSubject and emailMessage set the signing emails' wording; reminderDays reminds the signers whose turn it is every N days (default: the organization's setting); a warning goes out a day before expiresAt; ccEmails receive the completed document.",
    tag: "Signing",
    auth: { family: "signing", roles: SENDERS },
    idempotent: true,
    body: { json: prepareSchema, multipart: prepareSchema.extend({ file: fileField("A PDF, DOCX or PPTX").optional() }), required: true },
    success: { status: 200, description: "The document, sent", json: dataOf(prepareReplySchema) },
    errors: [400, 402, 404, 409],
  },
  prepareForReview: {
    method: "post",
    path: "/esign/single/prepare-for-review",
    summary: "Create a document for review before sending",
    description: "As prepare-for-signing, but the document stays a draft until POST /esign/documents/{id}/send.",
    tag: "Signing",
    auth: { family: "signing", roles: SENDERS },
    idempotent: true,
    body: { json: prepareSchema, multipart: prepareSchema.extend({ file: fileField("A PDF, DOCX or PPTX").optional() }), required: true },
    success: { status: 200, description: "The draft document", json: dataOf(reviewReplySchema) },
    errors: [400, 402, 404, 409],
  },
  listSigningDocuments: {
    method: "get",
    path: "/esign/documents",
    summary: "List documents for signing",
    tag: "Signing",
    auth: { family: "signing", roles: ANY_ROLE },
    query: listDocumentsQuery,
    success: { status: 200, description: "One page of documents, newest first", json: dataOf(pageOf(signingDocumentSchema)) },
    errors: [400],
  },
  getSigningDocument: {
    method: "get",
    path: "/esign/documents/{id}",
    summary: "Get a document for signing",
    tag: "Signing",
    auth: { family: "signing", roles: ANY_ROLE },
    success: { status: 200, description: "The document and its recipients", json: dataOf(signingDocumentSchema) },
    errors: [404],
  },
  deleteSigningDocument: {
    method: "delete",
    path: "/esign/documents/{id}",
    summary: "Delete a draft",
    description:
      "Only a draft (prepared for review, never sent) can be deleted: the document, its recipients, fields and audit trail, and its stored PDF are removed. Anything sent keeps its record: 409 DocumentNotDeletable (void it instead).",
    tag: "Signing",
    auth: { family: "signing", roles: SENDERS },
    success: { status: 200, description: "Deleted", json: dataOf(documentDeletedSchema) },
    errors: [404, 409],
  },
  getSigningDocumentStatus: {
    method: "get",
    path: "/esign/documents/{id}/status",
    summary: "Get a document's status",
    tag: "Signing",
    auth: { family: "signing", roles: ANY_ROLE },
    success: { status: 200, description: "The status", json: dataOf(documentStatusReplySchema) },
    errors: [404],
  },
  sendSigningDocument: {
    method: "post",
    path: "/esign/documents/{id}/send",
    summary: "Send a reviewed document",
    tag: "Signing",
    auth: { family: "signing", roles: SENDERS },
    success: { status: 200, description: "The document, sent", json: dataOf(prepareReplySchema) },
    errors: [400, 402, 404, 409],
  },
  voidSigningDocument: {
    method: "post",
    path: "/esign/documents/{id}/void",
    summary: "Void a document",
    tag: "Signing",
    auth: { family: "signing", roles: SENDERS },
    body: { json: voidSchema, required: true },
    success: { status: 200, description: "Voided", json: dataOf(voidResultSchema) },
    errors: [400, 404, 409],
  },
  retrySigningDocumentFinalization: {
    method: "post",
    path: "/esign/documents/{id}/retry-finalization",
    summary: "Retry completing a signed document whose sealing failed",
    description:
      "When every signer has signed, Quire seals the PDF, records the completion and emails every party as a retried job. After 5 failed attempts it stops and sends signature.document.finalization_failed; this runs it again with fresh attempts. 409 NothingToRetry when the document's finalization has not failed.",
    tag: "Signing",
    auth: { family: "signing", roles: SENDERS },
    success: { status: 200, description: "Retried: status is completed when it worked this time", json: dataOf(retryFinalizationSchema) },
    errors: [404, 409],
  },
  resendSigningEmail: {
    method: "post",
    path: "/esign/documents/{id}/resend-email",
    summary: "Email the signing link again",
    description: "Emails the chosen signers (default: those whose turn it is) even when the document was sent with sendEmail false, and lifts a passcode lock.",
    tag: "Signing",
    auth: { family: "signing", roles: SENDERS },
    body: { json: resendSchema },
    success: { status: 200, description: "Emailed", json: dataOf(resendResultSchema) },
    errors: [400, 404, 409],
  },
  getAuditTrail: {
    method: "get",
    path: "/esign/documents/{id}/audit-trail",
    summary: "Get a document's hash-chained audit trail",
    tag: "Signing",
    auth: { family: "signing", roles: ANY_ROLE },
    success: { status: 200, description: "Every entry, oldest first", json: dataOf(auditTrailSchema) },
    errors: [404],
  },
  downloadSigningDocument: {
    method: "get",
    path: "/esign/documents/{id}/download",
    summary: "Download a document's PDF",
    description: `The signed PDF once completed, else the current PDF. When the request prefers application/json (Accept), or sends Content-Type: application/json on the GET as the hosted service's SDKs do, the reply is instead \`{ data: { downloadUrl, fileName, expiresAt } }\`: a link that needs no API key and expires in ${FILE_LINK_TTL_SECONDS.download / 60} minutes.`,
    tag: "Signing",
    auth: { family: "signing", roles: WRITERS },
    success: {
      status: 200,
      description: "The PDF, or a keyless link to it",
      file: [CONTENT_TYPES.pdf],
      json: dataOf(downloadLinkSchema),
      headers: contentDisposition,
    },
    errors: [404],
  },
  getLinkedFile: {
    method: "get",
    path: "/esign/files/{token}",
    summary: "Fetch a PDF through a signed link",
    description:
      "Where downloadUrl (GET /esign/documents/{id}/download as JSON) and previewUrl (prepare-for-review) point. The token is the credential: no API key. A download link answers the PDF as an attachment, a preview link shows it inline.",
    tag: "Signing",
    auth: null,
    success: { status: 200, description: "The PDF", file: [CONTENT_TYPES.pdf], headers: contentDisposition },
    errorBodies: {
      403: { description: "FileLinkInvalid: the link was altered or is incomplete", json: signingErrorBody },
      410: {
        description: "FileLinkExpired: past its expiry; FileLinkReplaced: the document has another file now (e.g. it was completed)",
        json: signingErrorBody,
      },
    },
  },
  createSigningUrl: {
    method: "post",
    path: "/esign/documents/{id}/signing-url",
    summary: "Create a signing URL for one recipient",
    description:
      "Exactly one of recipientId and externalId. otp or no verification: a reusable link; external_idv or override: a single-use link valid about five minutes. Request the URL when the signer clicks; do not store it.",
    tag: "Signing",
    auth: { family: "signing", roles: SENDERS },
    idempotent: true,
    body: { json: signingUrlSchema, required: true },
    success: { status: 200, description: "The signing URL", json: resultsOf(signingUrlResultSchema) },
    errors: [400, 402, 404, 409, 423],
  },
  getSigningLink: {
    method: "get",
    path: "/esign/documents/{id}/recipients/{recipientId}/signing-link",
    summary: "Get a signing link (deprecated)",
    description:
      "Use POST /esign/documents/{id}/signing-url. Same checks and audit trail; fails with 409 RecipientRequiresSingleUseUrl for external_idv or override recipients.",
    tag: "Signing",
    deprecated: true,
    auth: { family: "signing", roles: SENDERS },
    success: {
      status: 200,
      description: "The signing URL",
      json: resultsOf(signingUrlResultSchema),
      headers: {
        Deprecation: { description: "Always true", schema: { type: "string", const: "true" } },
        Link: { description: 'The successor: <…/esign/documents/{id}/signing-url>; rel="successor-version"', schema: { type: "string" } },
      },
    },
    errors: [400, 402, 404, 409, 423],
  },
  getEmbeddedSigningSettings: {
    method: "get",
    path: "/esign/embedded-signing-settings",
    summary: "Get the organization's embedded signing settings",
    tag: "Signing",
    auth: { family: "signing", roles: ANY_ROLE },
    success: { status: 200, description: "The settings", json: resultsOf(embeddedSigningSettingsSchema) },
    onlyErrors: [401],
  },
});

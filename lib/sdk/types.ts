// Shapes of the Quire REST API (interface.md section 2, decisions.md). Timestamps are ISO 8601
// strings in UTC with milliseconds; ids are UUID strings.

export type Timestamp = string;

// ---------------------------------------------------------------------------------------------
// Tags (2.5)

export interface Tag {
  id: string;
  label: string;
  isActive: boolean;
  updatedOn: Timestamp;
  createdOn: Timestamp;
  createdBy: string;
  orgId: string;
}

// ---------------------------------------------------------------------------------------------
// Deliverables (2.1 - 2.4)

export interface Font {
  name: string;
  usage: number;
}

export type VariableMimeType = "text" | "html" | "image" | "markdown";

/** One entry of a variableStack: a repeated instance of the placeholder's paragraph or table row. */
export interface VariableStackEntry {
  text: string;
  mimeType: VariableMimeType;
}

/** A variable of a create request (2.4). */
export interface Variable extends Subvariable {
  /** For a parent with mimeType html whose text holds `{Token}` placeholders: one value per token (one level deep). */
  subvariables?: Subvariable[];
}

/** A variable without subvariables of its own: an entry of a parent's subvariables. */
export interface Subvariable {
  /** The template placeholder written with braces, e.g. `{ClientName}`. */
  placeholder: string;
  /** Required unless variableStack is present or isDisabled is true. */
  text?: string;
  /**
   * Alias of `text`. For a placeholder that carries data for paths, loops, conditions and expressions
   * (`{client}` for `{client.address.city}`, `{items}` for `{#items}…{/items}`): a JSON string.
   */
  value?: string;
  mimeType: VariableMimeType;
  isDisabled?: boolean;
  /** An array, or an object keyed by zero-based index strings ("0", "1", ...). */
  variableStack?: VariableStackEntry[] | Record<string, VariableStackEntry>;
  /** Up to 16,000 characters. */
  aiPrompt?: string;
}

/** List item (2.1). */
export interface DeliverableListItem {
  id: string;
  name: string;
  description: string;
  templateId: string;
  createdBy: string;
  email: string;
  fileSize: number;
  fileType: string;
  defaultFont: string;
  fonts: Font[] | null;
  isActive: boolean;
  createdOn: Timestamp;
  updatedOn: Timestamp;
  /** Only with showTags=true. */
  tags?: Tag[];
}

/** One deliverable (2.2). */
export interface Deliverable {
  id: string;
  name: string;
  description: string;
  templateId: string;
  templateName: string;
  templateNotDeleted: boolean;
  defaultFont: string;
  fonts: Font[] | null;
  email: string;
  fileType: string;
  isActive: boolean;
  createdOn: Timestamp;
  updatedOn: Timestamp;
  variables: Variable[];
  /** Only with showTags=true. */
  tags?: Tag[];
}

/** The create reply (2.3). */
export interface CreatedDeliverable {
  id: string;
  name: string;
  description: string;
  templateId: string;
  createdBy: string;
  createdOn: Timestamp;
  updatedOn: Timestamp;
  isActive: boolean;
  defaultFont: string;
  fonts: Font[] | null;
}

export interface ListDeliverablesParams {
  /** 1 to 100, default 6. */
  limit?: number;
  offset?: number;
  query?: string;
  showTags?: boolean;
  /** Tag ids; every listed tag must match. */
  selectedTags?: string | string[];
}

export interface CreateDeliverableInput {
  /** 3 to 255 characters. */
  name: string;
  templateId: string;
  variables: Variable[];
  description?: string;
  /** Tag labels. */
  tags?: string[];
  defaultFont?: string;
}

export interface UpdateDeliverableInput {
  name?: string;
  description?: string;
  /** Replaces every tag; [] removes all. */
  tags?: string[];
}

export interface DeliverableMessage {
  message: string;
  deliverableId: string;
}

// ---------------------------------------------------------------------------------------------
// Templates and folders (2.6, decisions.md "Templates and folders")

/** A template or folder of the listing (2.6). Folder items carry only the folder fields. */
export interface TemplateItem {
  id: string;
  name: string;
  type: "template" | "folder";
  isActive: boolean;
  templateFolderId: string | null;
  templateCount: number;
  deliverableCount: number;
  description?: string;
  createdBy?: string;
  email?: string;
  fileSize?: number;
  fileType?: string;
  createdOn?: Timestamp;
  updatedOn?: Timestamp;
  /** With showTags (the default): tag labels. */
  tags?: string[];
}

export interface ListTemplateItemsParams {
  /** Default 9. */
  limit?: number;
  offset?: number;
  query?: string;
  selectedTags?: string | string[];
  column0?: "name" | "createdOn" | "updatedOn" | "email" | "templateCount";
  order0?: "asc" | "desc";
  /** Default true. */
  showTags?: boolean;
  /** `template` lists every template in every folder (no folders). */
  type?: "template";
  /** A folder's direct children (the root without it). */
  folderId?: string;
}

export interface TemplatePlaceholder {
  /** As written in the template, e.g. `{@Scope}`. */
  placeholder: string;
  /** Without braces and prefix, e.g. `Scope`. */
  name: string;
  /** What the tag does. */
  kind: "text" | "html" | "image" | "loop" | "condition" | "path" | "expression";
  /** Top-level data names a path, expression, loop or condition reads: send each as a variable `{name}` whose value is JSON. */
  data?: string[];
  /** A loop's fields: what its tags read from each item. */
  fields?: string[];
  /** The loop this tag sits in. */
  loop?: string;
}

/** A template record (GET /template/{id}, upload and update replies). */
export interface Template {
  id: string;
  name: string;
  description: string;
  type: "template";
  isActive: boolean;
  templateFolderId: string | null;
  createdBy: string;
  email: string;
  deliverableCount: number;
  templateCount: number;
  fileSize: number;
  fileType: string;
  createdOn: Timestamp;
  updatedOn: Timestamp;
  folderName: string | null;
  variables: TemplatePlaceholder[];
  tags: Tag[];
}

export interface UploadTemplateInput {
  /** The .docx or .pptx file. */
  file: BinaryInput;
  /** File name with its extension (.docx or .pptx); defaults to the File's own name. */
  fileName?: string;
  /** Defaults to the file name. */
  name?: string;
  description?: string;
  templateFolderId?: string | null;
  /** Tag labels. */
  tags?: string[];
}

export interface UpdateTemplateInput {
  name?: string;
  description?: string;
  /** null moves the template to the root. */
  templateFolderId?: string | null;
  /** Replaces every tag; [] clears. */
  tags?: string[];
}

export interface TemplateFolder {
  id: string;
  name: string;
  type: "folder";
  isActive: boolean;
  templateFolderId: string | null;
  createdBy: string;
  createdOn: Timestamp;
  updatedOn: Timestamp;
}

/** A folder as GET /template-folder/{id} returns it. */
export interface TemplateFolderDetail extends TemplateFolder {
  /** The folder's ancestors and itself, root first. */
  path: { id: string; name: string }[];
}

export interface CreateFolderInput {
  name: string;
  /** Parent folder; the root when omitted or null. */
  parentId?: string | null;
}

export interface UpdateFolderInput {
  name?: string;
  parentId?: string | null;
}

// ---------------------------------------------------------------------------------------------
// Paged lists

export interface Page<T> {
  results: T[];
  totalRecords: number;
}

/** A downloaded file. */
export interface DownloadedFile {
  data: Uint8Array;
  contentType: string;
  /** From Content-Disposition, when the server named one. */
  fileName: string | null;
}

/** File content accepted for uploads. A Node.js Buffer is a Uint8Array. */
export type BinaryInput = Blob | Uint8Array | ArrayBuffer;

// ---------------------------------------------------------------------------------------------
// Signing (2.9 - 2.12, decisions.md "Signing documents")

export type OtpChannel = "email" | "sms";

export type IdentityVerification =
  | { mode: "otp"; channel?: OtpChannel }
  | { mode: "external_idv"; provider: string; maxAgeMinutes?: number }
  | { mode: "override"; overrideIdentityVerification: true; reason?: string };

export type IdentityVerificationMode = IdentityVerification["mode"];

/** A recipient of a document sent for signing (2.9). */
export interface SigningRecipientInput {
  name: string;
  email: string;
  signingOrder?: number;
  /** International format starting with +; required when the passcode goes by SMS. */
  phone?: string;
  externalId?: string;
  /** Omit to take the organization default. */
  identityVerification?: IdentityVerification;
}

export type FieldType =
  | "signature"
  | "initial"
  | "date"
  | "text"
  | "full_name"
  | "title"
  | "company"
  | "first_name"
  | "last_name"
  | "email"
  | "checkbox";

/** Places a field on a text anchor found in the document. */
export interface FieldTemplate {
  anchor?: string;
  searchText?: string;
  placement?: "replace" | "before" | "after" | "above" | "below";
  size?: { width: number; height: number };
  offset?: { x: number; y: number };
  caseSensitive?: boolean;
  useRegex?: boolean;
}

/** A field: on coordinates (page, x, y, width, height in PDF points from the top-left) or on a text anchor. */
export interface SigningField {
  type: FieldType;
  recipientEmail?: string;
  recipientExternalId?: string;
  page?: number;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  template?: FieldTemplate;
  required?: boolean;
  defaultValue?: string;
  isReadonly?: boolean;
  isMultiline?: boolean;
}

/** The document source: exactly one of file, fileLink, templateId, deliverableId. */
export interface DocumentSource {
  /** A PDF, DOCX or PPTX. */
  file?: BinaryInput;
  /** The file's name; its extension tells a DOCX from a PPTX. Defaults to the File's own name, else "document.pdf". */
  fileName?: string;
  /** A public https URL of a PDF, DOCX or PPTX. */
  fileLink?: string;
  templateId?: string;
  deliverableId?: string;
}

export interface PrepareDocumentInput extends DocumentSource {
  recipients: SigningRecipientInput[];
  fields?: SigningField[];
  documentName?: string;
  documentDescription?: string;
  senderName?: string;
  senderEmail?: string;
  ccEmails?: string[];
  /** Default true for prepare-for-signing. false: no signing-link emails; request signing URLs instead. */
  sendEmail?: boolean;
  /** HTTPS URL the signer returns to. */
  returnUrl?: string;
  expiresAt?: string | Date;
  /** A pipeline or integration sending: exempt from the organization's default passcode. */
  automated?: boolean;
}

export type RecipientStatus = "ready" | "pending" | "completed";

export type DocumentStatus = "draft" | "sent" | "completed" | "voided";

export interface PreparedRecipient {
  id: string;
  name: string;
  email: string;
  externalId: string | null;
  signingOrder: number;
  status: RecipientStatus;
}

/** Reply of prepare-for-signing and send. */
export interface PrepareReply {
  success: boolean;
  documentId: string;
  status: DocumentStatus;
  message: string;
  recipients: PreparedRecipient[];
}

/** Reply of prepare-for-review. */
export interface ReviewReply extends PrepareReply {
  /** Where to download the document for review. */
  previewUrl: string;
}

export interface SigningDocumentRecipient extends PreparedRecipient {
  viewedAt: Timestamp | null;
  signedAt: Timestamp | null;
}

export interface SigningDocument {
  id: string;
  name: string;
  description: string;
  status: DocumentStatus;
  pageCount: number;
  documentHash: string;
  senderName: string | null;
  senderEmail: string | null;
  ccEmails: string[];
  sendEmail: boolean;
  expiresAt: Timestamp | null;
  createdOn: Timestamp;
  updatedOn: Timestamp;
  sentAt: Timestamp | null;
  completedAt: Timestamp | null;
  voidedAt: Timestamp | null;
  voidReason: string | null;
  recipients: SigningDocumentRecipient[];
}

export interface ListDocumentsParams {
  limit?: number;
  offset?: number;
  status?: DocumentStatus;
  query?: string;
}

export interface VoidResult {
  id: string;
  name: string;
  status: "voided";
  voidReason: string;
  voidedAt: Timestamp;
}

export interface ResendResult {
  success: boolean;
  recipientCount: number;
}

export interface AuditEntry {
  id: string;
  documentId: string;
  actionType: string;
  timestamp: Timestamp;
  previousHash: string;
  currentHash: string;
  details: Record<string, unknown>;
  recipientId: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface AuditTrail {
  document: { id: string; name: string };
  auditTrail: AuditEntry[];
}

/** Body of POST /esign/documents/{id}/signing-url: exactly one of recipientId and externalId. */
export interface SigningUrlInput {
  recipientId?: string;
  externalId?: string;
  /** HTTPS; stored for this request only (a request without it clears the earlier one). */
  returnUrl?: string;
  /** For external_idv recipients: the compact JWS from your identity provider. */
  identityAssertion?: string;
}

/** 2.11 */
export interface SigningUrlResult {
  url: string;
  expiresAt: Timestamp | null;
  recipientId: string;
  externalId: string | null;
  identityVerificationMode: IdentityVerificationMode | null;
  /** `email_otp` or `sms_otp` while a passcode step remains. */
  pendingChecks: ("email_otp" | "sms_otp")[];
}

/** 2.12 */
export interface EmbeddedSigningSettings {
  enabled: boolean;
  allowExternalIdv: boolean;
  allowIdentityOverride: boolean;
  defaultChannel: "none" | OtpChannel;
  allowChannelOverride: boolean;
  allowedFrameAncestors: string[];
}

// ---------------------------------------------------------------------------------------------
// createEmbeddedSignature (4.3, 2.10)

/**
 * Passcode shorthand of a recipient:
 * - `{ emailOtp: true }`: a one-time passcode by email;
 * - `{ smsOtp: { phone: "+14155550100" } }`: a one-time passcode by SMS (the phone may instead be the
 *   recipient's own `phone`; without either, PhoneRequiredForSmsOtp is thrown before any request).
 * Omit for no passcode of the recipient's own (the organization default then applies).
 */
export type EmbeddedSignerAuth = { emailOtp: true } | { smsOtp: { phone?: string } };

/** Fields shorthand: each value is a text anchor in the document (or a full anchor template). */
export interface EmbeddedSignerFields {
  signature?: string | FieldTemplate;
  date?: string | FieldTemplate;
  initials?: string | FieldTemplate;
  fullName?: string | FieldTemplate;
}

export interface EmbeddedSigner {
  name: string;
  email: string;
  phone?: string;
  /** Default: position in the list plus one. */
  signingOrder?: number;
  auth?: EmbeddedSignerAuth;
  fields?: EmbeddedSignerFields;
}

export interface CreateEmbeddedSignatureInput extends DocumentSource {
  /** Ordered signers. */
  recipients: EmbeddedSigner[];
  documentName?: string;
  documentDescription?: string;
  senderName?: string;
  senderEmail?: string;
  ccEmails?: string[];
  /** Full field list; replaces every recipient's fields shorthand. */
  fields?: SigningField[];
  /** Default false. */
  sendEmail?: boolean;
  /** HTTPS URL the signer returns to. */
  returnUrl?: string;
}

/** One recipient of the helper's result (2.10). */
export interface EmbeddedSignatureRecipient {
  recipientId: string;
  /** The URL to frame; set only when status is `ready`, otherwise null. */
  embedUrl: string | null;
  status: RecipientStatus;
  /**
   * Ready: the mode resolved for the URL. Pending or completed: the mode requested through auth
   * (null when none was requested, even if an organization default applies).
   */
  identityVerificationMode: IdentityVerificationMode | null;
}

/** 2.10 */
export interface EmbeddedSignatureResult {
  documentId: string;
  /** One entry per recipient, in signing order. */
  recipients: EmbeddedSignatureRecipient[];
}

// ---------------------------------------------------------------------------------------------
// Webhooks (2.7, 2.8, decisions.md "Webhooks")

export type WebhookEvent =
  | "signature.document.sent"
  | "signature.document.viewed"
  | "signature.document.recipient_signed"
  | "signature.document.completed"
  | "signature.document.finalization_failed"
  | "signature.document.voided";

interface WebhookFields {
  id: string;
  orgId: string;
  name: string;
  urls: string[];
  events: string[];
  secretExists: boolean;
  isActive: boolean;
  /** Why Quire paused it (a receiver answered 410 Gone); null otherwise. */
  pausedReason: string | null;
  createdBy: string;
  createdOn: Timestamp;
  updatedOn: Timestamp;
}

/** A webhook as every endpoint but create and regenerate shows it: the secret masked. */
export interface Webhook extends WebhookFields {
  /** `whsec_…` and the secret's last four characters. */
  maskedSecret: string;
}

/** A webhook with its full secret (create, regenerate): shown this once. */
export interface WebhookWithSecret extends WebhookFields {
  secret: string;
  /** The same key in standard base64 (`whsec_…`), for Standard Webhooks libraries and verifyStandardWebhook. */
  standardSecret: string;
}

export interface WebhookDeliveryStats {
  total: number;
  delivered: number;
  retrying: number;
  failed: number;
  lastDeliveryAt: Timestamp | null;
}

export interface WebhookDetail extends Webhook {
  deliveryStats: WebhookDeliveryStats;
  availableEvents: string[];
}

/** 2.8 plus the fields of the delivery list. */
export interface WebhookDelivery {
  id: string;
  eventType: string;
  url: string;
  httpStatus: number | null;
  attemptCount: number;
  maxAttempts: number;
  isDelivered: boolean;
  status: "delivered" | "retrying" | "failed";
  /** Present with details on failure. */
  errorMessage?: string;
  webhookId: string;
  /** The body sent to the receiver. */
  payload: WebhookEnvelope;
  /** The receiver's answer, first 2 KB. */
  responseBody: string | null;
  nextAttemptAt: Timestamp | null;
  createdOn: Timestamp;
  updatedOn: Timestamp;
}

export interface CreateWebhookInput {
  /** Default "signature", as every client library sends. */
  name?: string;
  /** Up to 10 HTTPS URLs. */
  urls: string[];
  events: WebhookEvent[];
}

export interface UpdateWebhookInput {
  /** A new name (must be unique among active webhooks). */
  name?: string;
  /** Replaces the full list. */
  urls?: string[];
  /** Replaces the full list. */
  events?: WebhookEvent[];
  isActive?: boolean;
}

export interface TestWebhookInput {
  eventType?: WebhookEvent;
  payload?: Record<string, unknown>;
}

export interface TestWebhookResult {
  deliveries: WebhookDelivery[];
  /** failed and errors count only database errors, not HTTP failures: check each delivery. */
  summary: { total: number; successful: number; failed: number; errors: string[] };
}

export interface ListDeliveriesParams {
  limit?: number;
  offset?: number;
  status?: "pending" | "delivered" | "retrying" | "failed";
  eventType?: string;
}

/** Body of a webhook delivery (decisions.md). */
export interface WebhookEnvelope<D = Record<string, unknown>> {
  id: string;
  event: string;
  createdOn: Timestamp;
  orgId: string;
  data: D;
}

// Shapes of the Quire REST API. The request and response types are aliases of the types
// openapi-typescript generates from the OpenAPI document (openapi-types.ts, written by
// `npm run sdk:types`; field documentation lives there, from the zod schemas' descriptions).
// Only the SDK's own shapes (file inputs, paging, the embedded-signature helper) are written here.
// Timestamps are ISO 8601 strings in UTC with milliseconds; ids are UUID strings.
import type { components, operations, webhooks } from "./openapi-types.js";

type C = components["schemas"];
/** An operation's request body of a content type (JSON unless given). */
type Body<Op extends keyof operations, Ct extends string = "application/json"> = operations[Op] extends { requestBody?: infer B }
  ? NonNullable<B> extends { content: infer Co }
    ? Ct extends keyof Co
      ? Co[Ct]
      : never
    : never
  : never;
/** An operation's query parameters. */
type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;

export type Timestamp = C["Timestamp"];

// ---------------------------------------------------------------------------------------------
// Tags

export type Tag = C["Tag"];

// ---------------------------------------------------------------------------------------------
// Deliverables

export type Font = C["Font"];
export type VariableMimeType = C["Variable"]["mimeType"];
/** One entry of a variableStack: a repeated instance of the placeholder's paragraph or table row. */
export type VariableStackEntry = C["VariableStackEntry"];
/** A variable of a create request. */
export type Variable = C["Variable"];
/** A variable without subvariables of its own: an entry of a parent's subvariables. */
export type Subvariable = C["Subvariable"];
export type DeliverableListItem = C["DeliverableListItem"];
export type Deliverable = C["Deliverable"];
/** The create reply. */
export type CreatedDeliverable = C["CreatedDeliverable"];
export type ListDeliverablesParams = Query<"listDeliverables">;
export type CreateDeliverableInput = Body<"createDeliverable">;
export type UpdateDeliverableInput = Body<"updateDeliverable">;
export type DeliverableMessage = C["DeliverableMessage"];

// ---------------------------------------------------------------------------------------------
// Templates and folders

/** A template or folder of the listing. Folder items carry only the folder fields. */
export type TemplateItem = C["TemplateItem"];
export type ListTemplateItemsParams = Query<"listTemplateItems">;
export type TemplatePlaceholder = C["TemplatePlaceholder"];
/** A template record (GET /template/{id}, upload and update replies). */
export type Template = C["Template"];

/** The multipart fields of an upload, with the file as the SDK takes it. */
export type UploadTemplateInput = Omit<Body<"uploadTemplate", "multipart/form-data">, "file"> & {
  /** The .docx or .pptx file. */
  file: BinaryInput;
  /** File name with its extension (.docx or .pptx); defaults to the File's own name. */
  fileName?: string;
};

export type UpdateTemplateInput = Body<"updateTemplate">;
export type TemplateFolder = C["TemplateFolder"];
/** A folder as GET /template-folder/{id} returns it. */
export type TemplateFolderDetail = C["TemplateFolderDetail"];
export type CreateFolderInput = Body<"createTemplateFolder">;
export type UpdateFolderInput = Body<"updateTemplateFolder">;

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
// Signing

export type IdentityVerification = C["IdentityVerification"];
export type IdentityVerificationMode = C["IdentityVerificationMode"];
export type OtpChannel = NonNullable<Extract<IdentityVerification, { mode: "otp" }>["channel"]>;
/** A recipient of a document sent for signing. */
export type SigningRecipientInput = C["SigningRecipientInput"];
/** A field: on coordinates (page, x, y, width, height in PDF points from the top-left) or on a text anchor. */
export type SigningField = C["SigningField"];
export type FieldType = SigningField["type"];
/** Places a field on a text anchor found in the document. */
export type FieldTemplate = NonNullable<SigningField["template"]>;

type PrepareBody = Body<"prepareForSigning">;

/** The document source: exactly one of file, fileLink, templateId, deliverableId. */
export type DocumentSource = Pick<PrepareBody, "fileLink" | "templateId" | "deliverableId"> & {
  /** A PDF, DOCX or PPTX. */
  file?: BinaryInput;
  /** The file's name; its extension tells a DOCX from a PPTX. Defaults to the File's own name, else "document.pdf". */
  fileName?: string;
};

/** The prepare body, with the file as the SDK takes it and expiresAt also as a Date. */
export type PrepareDocumentInput = DocumentSource & Omit<PrepareBody, "expiresAt"> & { expiresAt?: string | Date };

export type RecipientStatus = C["RecipientStatus"];
export type DocumentStatus = C["DocumentStatus"];
/** GET /esign/documents/{id}/status: the document's state and each signer's. */
export type DocumentStatusReply = { status: DocumentStatus; recipients: C["DocumentStatusRecipient"][] };
export type PreparedRecipient = C["PreparedRecipient"];
/** Reply of prepare-for-signing and send. */
export type PrepareReply = C["PrepareReply"];
/** Reply of prepare-for-review. */
export type ReviewReply = C["ReviewReply"];
export type SigningDocumentRecipient = C["SigningDocumentRecipient"];
export type SigningDocument = C["SigningDocument"];
export type ListDocumentsParams = Query<"listSigningDocuments">;
export type VoidResult = C["VoidResult"];
export type ResendResult = C["ResendResult"];
export type AuditEntry = C["AuditEntry"];
export type AuditTrail = C["AuditTrail"];
/** A keyless link to a document's PDF that expires in minutes. */
export type DownloadLink = C["DownloadLink"];
/** Body of POST /esign/documents/{id}/signing-url: exactly one of recipientId and externalId. */
export type SigningUrlInput = Body<"createSigningUrl">;
export type SigningUrlResult = C["SigningUrlResult"];
export type EmbeddedSigningSettings = C["EmbeddedSigningSettings"];

// ---------------------------------------------------------------------------------------------
// createEmbeddedSignature

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
  /** The signing page's, emails' and passcodes' language; the organization's default when omitted. */
  language?: PrepareBody["language"];
  /** HTTPS URL the signer returns to. */
  returnUrl?: string;
}

/** One recipient of the helper's result. */
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

/** The helper's result: the document and one embed URL per ready recipient. */
export interface EmbeddedSignatureResult {
  documentId: string;
  /** One entry per recipient, in signing order. */
  recipients: EmbeddedSignatureRecipient[];
}

// ---------------------------------------------------------------------------------------------
// Webhooks

type CreateWebhookBody = Body<"createWebhook">;

export type WebhookEvent = CreateWebhookBody["events"][number];
/** A webhook as every endpoint but create and regenerate shows it: the secret masked. */
export type Webhook = C["Webhook"];
/** A webhook with its full secret (create, regenerate): shown this once. */
export type WebhookWithSecret = C["WebhookWithSecret"];
export type WebhookDeliveryStats = C["WebhookDeliveryStats"];
export type WebhookDetail = C["WebhookDetail"];
export type WebhookDelivery = C["WebhookDelivery"];

/** The create body; the SDK fills name in. */
export type CreateWebhookInput = Omit<CreateWebhookBody, "name"> & {
  /** Default "signature", as every client library sends. */
  name?: string;
};

export type UpdateWebhookInput = Body<"updateWebhook">;
export type TestWebhookInput = Body<"testWebhook">;
export type TestWebhookResult = C["TestWebhookResult"];
export type ListDeliveriesParams = Query<"listWebhookDeliveries">;

/** Body of a webhook delivery, with `data` typed by the caller when it knows the event. */
export type WebhookEnvelope<D = C["WebhookEnvelope"]["data"]> = Omit<C["WebhookEnvelope"], "data"> & { data: D };
/** What Quire posts for each event type, keyed by event name (the OpenAPI document's webhooks section). */
export type WebhookEventBodies = { [E in keyof webhooks]: webhooks[E]["post"]["requestBody"]["content"]["application/json"] };
/** Any event's body: narrow on `event` to get that event's `data`. */
export type WebhookEventBody = WebhookEventBodies[keyof WebhookEventBodies];

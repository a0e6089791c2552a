// Size: one published client whose areas share a transport and error mapping; it ships as one module.
// The Quire REST client: deliverables, templates and folders, tags, signing (with the
// createEmbeddedSignature helper of docs/contract.md "Embedded signing") and the signature webhook. Standard fetch,
// FormData and Blob only; runs on Node.js 20+ and any runtime with those globals. Server-side only:
// the API key must not reach a browser.
import { apiErrorFrom, PhoneRequiredForSmsOtp, QuireApiError, QuireError, QuireInputError } from "./errors.js";
import type {
  AuditTrail,
  DownloadLink,
  BinaryInput,
  CreatedDeliverable,
  CreateDeliverableInput,
  CreateEmbeddedSignatureInput,
  CreateFolderInput,
  CreateWebhookInput,
  Deliverable,
  DeliverableListItem,
  DeliverableMessage,
  DownloadedFile,
  EmbeddedSignatureRecipient,
  EmbeddedSignatureResult,
  EmbeddedSigner,
  EmbeddedSignerFields,
  EmbeddedSigningSettings,
  FieldTemplate,
  FieldType,
  IdentityVerificationMode,
  ListDeliverablesParams,
  ListDeliveriesParams,
  ListDocumentsParams,
  ListTemplateItemsParams,
  Page,
  PrepareDocumentInput,
  PrepareReply,
  ResendResult,
  ReviewReply,
  SigningDocument,
  DocumentStatusReply,
  SigningField,
  SigningRecipientInput,
  SigningUrlInput,
  SigningUrlResult,
  Tag,
  Template,
  TemplateFolder,
  TemplateFolderDetail,
  TemplateItem,
  TestWebhookInput,
  TestWebhookResult,
  UpdateDeliverableInput,
  UpdateFolderInput,
  UpdateTemplateInput,
  UpdateWebhookInput,
  UploadTemplateInput,
  VoidResult,
  Webhook,
  WebhookDelivery,
  WebhookDetail,
  WebhookWithSecret,
} from "./types.js";

export const SDK_VERSION = "0.1.0";

/** The webhook name every client library uses. */
export const DEFAULT_WEBHOOK_NAME = "signature";

export interface QuireClientOptions {
  /** e.g. `https://quire.example.com` (no trailing path needed). */
  baseUrl: string;
  /** An API key (`qk_…`). Keep it on the server. */
  apiKey: string;
  /** The organization id, sent as `x-service-org-id`. */
  orgId: string;
  /** A fetch implementation; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Sent as User-Agent; defaults to `quire-sdk-typescript/<version>`. */
  userAgent?: string;
}

type QueryValue = string | number | boolean | readonly string[] | null | undefined;
type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query | object;
  /** A JSON body (sent with Content-Type: application/json). */
  json?: unknown;
  /** A multipart body (fetch sets the boundary). */
  form?: FormData;
}

function queryString(query: Query | object | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

const seg = (value: string) => encodeURIComponent(value);

function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"/i.exec(disposition) ?? /filename\s*=\s*([^;]+)/i.exec(disposition);
  return plain ? plain[1].trim() : null;
}

function toBlob(data: BinaryInput): Blob {
  if (typeof Blob !== "undefined" && data instanceof Blob) return data;
  if (data instanceof ArrayBuffer) return new Blob([data]);
  if (data instanceof Uint8Array) return new Blob([new Uint8Array(data)]);
  throw new QuireInputError("file must be a Blob, a Uint8Array (or Buffer) or an ArrayBuffer", "file");
}

function defaultFileName(data: BinaryInput, fallback: string): string {
  const name = (data as { name?: unknown }).name;
  return typeof name === "string" && name ? name : fallback;
}

/** A text value of a multipart form: strings as is, dates as ISO, lists and objects as JSON. */
function formValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** The body of prepare-for-signing/-review: multipart when a file is given, JSON otherwise. */
function prepareBody(input: PrepareDocumentInput): RequestOptions {
  const { file, fileName, ...rest } = input;
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) fields[k] = v instanceof Date ? v.toISOString() : v;
  if (file === undefined || file === null) return { json: fields };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, formValue(v));
  form.set("file", toBlob(file), fileName ?? defaultFileName(file, "document.pdf"));
  return { form };
}

/** Shared by the resource groups. */
interface Transport {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  download(path: string): Promise<DownloadedFile>;
}

export class QuireClient implements Transport {
  readonly baseUrl: string;
  readonly orgId: string;
  readonly deliverables: DeliverablesApi;
  readonly templates: TemplatesApi;
  readonly tags: TagsApi;
  readonly esign: EsignApi;
  readonly webhooks: WebhooksApi;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #userAgent: string;

  constructor(options: QuireClientOptions) {
    if (!options || typeof options.baseUrl !== "string" || !options.baseUrl) throw new QuireInputError("baseUrl is required", "baseUrl");
    if (typeof options.apiKey !== "string" || !options.apiKey) throw new QuireInputError("apiKey is required", "apiKey");
    if (typeof options.orgId !== "string" || !options.orgId) throw new QuireInputError("orgId is required", "orgId");
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new QuireInputError("baseUrl must be an absolute URL", "baseUrl");
    }
    this.baseUrl = url.toString().replace(/\/+$/, "");
    this.orgId = options.orgId;
    this.#apiKey = options.apiKey;
    if (options.fetch !== undefined && typeof options.fetch !== "function") throw new QuireInputError("fetch must be a function", "fetch");
    if (options.fetch === undefined && typeof globalThis.fetch !== "function") throw new QuireInputError("No global fetch: pass options.fetch", "fetch");
    // Looked up at call time, so a fetch replaced later (mocks, instrumentation) is used.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#userAgent = options.userAgent ?? `quire-sdk-typescript/${SDK_VERSION}`;
    this.deliverables = new DeliverablesApi(this);
    this.templates = new TemplatesApi(this);
    this.tags = new TagsApi(this);
    this.esign = new EsignApi(this);
    this.webhooks = new WebhooksApi(this);
  }

  /** Shorthand for `esign.createEmbeddedSignature`. */
  createEmbeddedSignature(input: CreateEmbeddedSignatureInput): Promise<EmbeddedSignatureResult> {
    return this.esign.createEmbeddedSignature(input);
  }

  async #send(method: string, path: string, options: RequestOptions, accept: string): Promise<Response> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#apiKey}`,
      "x-service-org-id": this.orgId,
      Accept: accept,
      "User-Agent": this.#userAgent,
    };
    let body: BodyInit | undefined;
    if (options.form !== undefined) body = options.form;
    else if (options.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    const res = await this.#fetch(`${this.baseUrl}${path}${queryString(options.query)}`, { method, headers, body, redirect: "manual" });
    if (res.status < 200 || res.status > 299) {
      const text = await res.text().catch(() => "");
      throw apiErrorFrom(res.status, res.statusText, text, method, path, res.headers.get("retry-after"));
    }
    return res;
  }

  /** Any JSON endpoint; returns the whole parsed body (most replies are `{ data }`). */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const res = await this.#send(method, path, options, "application/json");
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A binary download (GET). */
  async download(path: string): Promise<DownloadedFile> {
    const res = await this.#send("GET", path, {}, "*/*");
    return {
      data: new Uint8Array(await res.arrayBuffer()),
      contentType: res.headers.get("content-type") ?? "application/octet-stream",
      fileName: fileNameOf(res.headers.get("content-disposition")),
    };
  }
}

type Data<T> = { data: T };

// ---------------------------------------------------------------------------------------------

/** `/v1/deliverable`. */
export class DeliverablesApi {
  readonly #t: Transport;

  constructor(t: Transport) {
    this.#t = t;
  }

  async list(params: ListDeliverablesParams = {}): Promise<Page<DeliverableListItem>> {
    return (await this.#t.request<Data<Page<DeliverableListItem>>>("GET", "/v1/deliverable", { query: params })).data;
  }

  /** Generates the document and its PDF; returns the created deliverable (2.3). */
  async create(input: CreateDeliverableInput): Promise<CreatedDeliverable> {
    return (await this.#t.request<Data<{ results: { deliverable: CreatedDeliverable } }>>("POST", "/v1/deliverable", { json: input })).data.results.deliverable;
  }

  async get(id: string, params: { showTags?: boolean } = {}): Promise<Deliverable> {
    return (await this.#t.request<Data<{ results: Deliverable }>>("GET", `/v1/deliverable/${seg(id)}`, { query: params })).data.results;
  }

  async update(id: string, changes: UpdateDeliverableInput): Promise<DeliverableMessage> {
    return (await this.#t.request<Data<DeliverableMessage>>("PATCH", `/v1/deliverable/${seg(id)}`, { json: changes })).data;
  }

  /** Soft delete. */
  async delete(id: string): Promise<DeliverableMessage> {
    return (await this.#t.request<Data<DeliverableMessage>>("DELETE", `/v1/deliverable/${seg(id)}`)).data;
  }

  /** The generated DOCX/PPTX (needs the hasFileDownload license feature). */
  downloadFile(id: string): Promise<DownloadedFile> {
    return this.#t.download(`/v1/deliverable/file/${seg(id)}`);
  }

  downloadPdf(id: string): Promise<DownloadedFile> {
    return this.#t.download(`/v1/deliverable/file/pdf/${seg(id)}`);
  }
}

/** Template folders (docs/contract.md "Templates and folders"). */
export class FoldersApi {
  readonly #t: Transport;

  constructor(t: Transport) {
    this.#t = t;
  }

  async create(input: CreateFolderInput): Promise<TemplateFolder> {
    return (await this.#t.request<Data<TemplateFolder>>("POST", "/template-folder", { json: input })).data;
  }

  /** With `path` (root first). */
  async get(id: string): Promise<TemplateFolderDetail> {
    return (await this.#t.request<Data<TemplateFolderDetail>>("GET", `/template-folder/${seg(id)}`)).data;
  }

  /** Rename and/or move (`parentId`, null = root). */
  async update(id: string, changes: UpdateFolderInput): Promise<TemplateFolder> {
    return (await this.#t.request<Data<TemplateFolder>>("PATCH", `/template-folder/${seg(id)}`, { json: changes })).data;
  }

  /** Only an empty folder (else 409 FolderNotEmpty). */
  async delete(id: string): Promise<{ message: string; folderId: string }> {
    return (await this.#t.request<Data<{ message: string; folderId: string }>>("DELETE", `/template-folder/${seg(id)}`)).data;
  }
}

/** Templates (docs/contract.md "Templates and folders"). */
export class TemplatesApi {
  readonly folders: FoldersApi;

  readonly #t: Transport;

  constructor(t: Transport) {
    this.#t = t;
    this.folders = new FoldersApi(t);
  }

  /** `GET /template-item`: the root (or `folderId`'s children), or with `type: "template"` every template. */
  async listItems(params: ListTemplateItemsParams = {}): Promise<Page<TemplateItem>> {
    return (await this.#t.request<Data<Page<TemplateItem>>>("GET", "/template-item", { query: params })).data;
  }

  /** The template with its extracted placeholders (`variables`). */
  async get(id: string): Promise<Template> {
    return (await this.#t.request<Data<Template>>("GET", `/template/${seg(id)}`)).data;
  }

  /** Uploads a .docx or .pptx (multipart); placeholders are extracted at upload. */
  async upload(input: UploadTemplateInput): Promise<Template> {
    const form = new FormData();
    form.set("file", toBlob(input.file), input.fileName ?? defaultFileName(input.file, "template.docx"));
    if (input.name !== undefined) form.set("name", input.name);
    if (input.description !== undefined) form.set("description", input.description);
    if (input.templateFolderId) form.set("templateFolderId", input.templateFolderId);
    if (input.tags !== undefined) form.set("tags", JSON.stringify(input.tags));
    return (await this.#t.request<Data<Template>>("POST", "/template", { form })).data;
  }

  async update(id: string, changes: UpdateTemplateInput): Promise<Template> {
    return (await this.#t.request<Data<Template>>("PATCH", `/template/${seg(id)}`, { json: changes })).data;
  }

  /** Soft delete: deliverables made from it keep working. */
  async delete(id: string): Promise<{ message: string; templateId: string }> {
    return (await this.#t.request<Data<{ message: string; templateId: string }>>("DELETE", `/template/${seg(id)}`)).data;
  }

  /** The original file. */
  downloadFile(id: string): Promise<DownloadedFile> {
    return this.#t.download(`/template/${seg(id)}/file`);
  }
}

/** `GET /tag`. */
export class TagsApi {
  readonly #t: Transport;

  constructor(t: Transport) {
    this.#t = t;
  }

  async list(): Promise<Tag[]> {
    return (await this.#t.request<Data<{ results: Tag[] }>>("GET", "/tag")).data.results;
  }
}

// ---------------------------------------------------------------------------------------------
// Signing

const SHORTHAND_TYPES: Record<keyof EmbeddedSignerFields, FieldType> = { signature: "signature", date: "date", initials: "initial", fullName: "full_name" };

interface PlannedSigner {
  index: number;
  email: string;
  signingOrder: number;
  requestedMode: IdentityVerificationMode | null;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value.trim().length > 0;
}

/** Turns a recipient's `auth` shorthand into the 2.9 block (and the phone it needs). */
function authOf(r: EmbeddedSigner, i: number): { identityVerification?: SigningRecipientInput["identityVerification"]; phone?: string } {
  const auth = r.auth as Record<string, unknown> | undefined | null;
  const field = `recipients.${i}.auth`;
  if (auth === undefined || auth === null) return { phone: r.phone };
  if (typeof auth !== "object") throw new QuireInputError(`${field} must be { emailOtp: true } or { smsOtp: { phone } }`, field);
  const unknown = Object.keys(auth).filter((k) => k !== "emailOtp" && k !== "smsOtp");
  if (unknown.length) throw new QuireInputError(`${field} has unknown key(s) ${unknown.join(", ")}: use { emailOtp: true } or { smsOtp: { phone } }`, field);
  const email = auth.emailOtp === true;
  const sms = auth.smsOtp !== undefined && auth.smsOtp !== null && auth.smsOtp !== false;
  if (auth.emailOtp !== undefined && typeof auth.emailOtp !== "boolean") throw new QuireInputError(`${field}.emailOtp must be true or false`, field);
  if (email && sms) throw new QuireInputError(`${field}: choose one of emailOtp and smsOtp`, field);
  if (email) return { identityVerification: { mode: "otp", channel: "email" }, phone: r.phone };
  if (!sms) return { phone: r.phone };
  const smsOtp = auth.smsOtp === true ? {} : (auth.smsOtp as { phone?: unknown });
  if (typeof smsOtp !== "object") throw new QuireInputError(`${field}.smsOtp must be an object holding the phone number`, field);
  if (smsOtp.phone !== undefined && typeof smsOtp.phone !== "string") throw new QuireInputError(`${field}.smsOtp.phone must be a string`, field);
  const authPhone = nonEmpty(smsOtp.phone) ? smsOtp.phone.trim() : undefined;
  const ownPhone = nonEmpty(r.phone) ? r.phone.trim() : undefined;
  if (authPhone && ownPhone && authPhone !== ownPhone)
    throw new QuireInputError(`Recipient ${i} has two different phone numbers (phone and auth.smsOtp.phone)`, `recipients.${i}.phone`);
  const phone = authPhone ?? ownPhone;
  if (!phone) throw new PhoneRequiredForSmsOtp(i, r.email);
  return { identityVerification: { mode: "otp", channel: "sms" }, phone };
}

function shorthandFields(r: EmbeddedSigner, i: number): SigningField[] {
  if (r.fields === undefined || r.fields === null) return [];
  if (typeof r.fields !== "object") throw new QuireInputError(`recipients.${i}.fields must be an object of anchors`, `recipients.${i}.fields`);
  const out: SigningField[] = [];
  for (const [key, value] of Object.entries(r.fields)) {
    const type = SHORTHAND_TYPES[key as keyof EmbeddedSignerFields];
    const field = `recipients.${i}.fields.${key}`;
    if (!type) throw new QuireInputError(`${field}: unknown field; use signature, date, initials or fullName`, field);
    if (value === undefined || value === null) continue;
    let template: FieldTemplate;
    if (typeof value === "string") {
      if (!value) throw new QuireInputError(`${field} must be a non-empty anchor text`, field);
      template = { anchor: value };
    } else if (typeof value === "object" && (nonEmpty(value.anchor) || nonEmpty(value.searchText))) template = value;
    else throw new QuireInputError(`${field} must be an anchor text (or { anchor, placement, … })`, field);
    out.push({ type, recipientEmail: r.email, template });
  }
  return out;
}

/** Checks the helper's input and builds the prepare-for-signing request; throws before any request. */
export function planEmbeddedSignature(input: CreateEmbeddedSignatureInput): { request: PrepareDocumentInput; signers: PlannedSigner[] } {
  if (!input || typeof input !== "object") throw new QuireInputError("createEmbeddedSignature needs an input object", "input");
  if (!Array.isArray(input.recipients) || input.recipients.length === 0) throw new QuireInputError("recipients must list at least one signer", "recipients");
  const sources = (["file", "fileLink", "templateId", "deliverableId"] as const).filter((k) => input[k] !== undefined && input[k] !== null && input[k] !== "");
  if (sources.length !== 1) {
    throw new QuireInputError(
      `Give exactly one document source (file, fileLink, templateId or deliverableId)${sources.length ? `; got ${sources.join(", ")}` : ""}`,
      "source",
    );
  }
  if (input.fileName !== undefined && sources[0] !== "file") throw new QuireInputError("fileName goes with file only", "fileName");

  const seen = new Set<string>();
  const recipients: SigningRecipientInput[] = [];
  const signers: PlannedSigner[] = [];
  const shorthand: SigningField[] = [];
  for (const [i, r] of input.recipients.entries()) {
    if (!r || typeof r !== "object") throw new QuireInputError(`recipients.${i} must be an object`, `recipients.${i}`);
    if (!nonEmpty(r.name)) throw new QuireInputError(`recipients.${i}.name is required`, `recipients.${i}.name`);
    if (!nonEmpty(r.email)) throw new QuireInputError(`recipients.${i}.email is required`, `recipients.${i}.email`);
    const key = r.email.trim().toLowerCase();
    if (seen.has(key)) throw new QuireInputError(`${r.email} is listed twice; each recipient signs once`, `recipients.${i}.email`);
    seen.add(key);
    if (r.signingOrder !== undefined && !(Number.isInteger(r.signingOrder) && r.signingOrder >= 1)) {
      throw new QuireInputError(`recipients.${i}.signingOrder must be a whole number from 1`, `recipients.${i}.signingOrder`);
    }
    const signingOrder = r.signingOrder ?? i + 1;
    const { identityVerification, phone } = authOf(r, i);
    recipients.push({
      name: r.name,
      email: r.email,
      signingOrder,
      ...(phone !== undefined ? { phone } : {}),
      ...(identityVerification ? { identityVerification } : {}),
    });
    signers.push({ index: i, email: key, signingOrder, requestedMode: identityVerification ? identityVerification.mode : null });
    shorthand.push(...shorthandFields(r, i));
  }

  const fields = input.fields !== undefined ? input.fields : shorthand;
  const request: PrepareDocumentInput = {
    recipients,
    ...(fields.length || input.fields !== undefined ? { fields } : {}),
    ...(input.file !== undefined ? { file: input.file, fileName: input.fileName } : {}),
    fileLink: input.fileLink,
    templateId: input.templateId,
    deliverableId: input.deliverableId,
    documentName: input.documentName,
    documentDescription: input.documentDescription,
    senderName: input.senderName,
    senderEmail: input.senderEmail,
    ccEmails: input.ccEmails,
    sendEmail: input.sendEmail ?? false,
    language: input.language,
    returnUrl: input.returnUrl,
  };
  // In signing order; equal orders (parallel signers) keep the input order.
  signers.sort((a, b) => a.signingOrder - b.signingOrder || a.index - b.index);
  return { request, signers };
}

/** `/esign/...` (docs/contract.md "Signing documents"). */
export class EsignApi {
  readonly #t: Transport;

  constructor(t: Transport) {
    this.#t = t;
  }

  /** Creates the document and sends it for signing (emails signing links unless sendEmail is false). */
  async prepareForSigning(input: PrepareDocumentInput): Promise<PrepareReply> {
    return (await this.#t.request<Data<PrepareReply>>("POST", "/esign/single/prepare-for-signing", prepareBody(input))).data;
  }

  /** Creates a draft to review (`previewUrl`); send it with `send`. */
  async prepareForReview(input: PrepareDocumentInput): Promise<ReviewReply> {
    return (await this.#t.request<Data<ReviewReply>>("POST", "/esign/single/prepare-for-review", prepareBody(input))).data;
  }

  /** Sends a reviewed draft. */
  async send(documentId: string): Promise<PrepareReply> {
    return (await this.#t.request<Data<PrepareReply>>("POST", `/esign/documents/${seg(documentId)}/send`)).data;
  }

  async list(params: ListDocumentsParams = {}): Promise<Page<SigningDocument>> {
    return (await this.#t.request<Data<Page<SigningDocument>>>("GET", "/esign/documents", { query: params })).data;
  }

  async get(documentId: string): Promise<SigningDocument> {
    return (await this.#t.request<Data<SigningDocument>>("GET", `/esign/documents/${seg(documentId)}`)).data;
  }

  /** The document's state and each signer's (status, signedAt). */
  async status(documentId: string): Promise<DocumentStatusReply> {
    return (await this.#t.request<Data<DocumentStatusReply>>("GET", `/esign/documents/${seg(documentId)}/status`)).data;
  }

  async void(documentId: string, reason: string): Promise<VoidResult> {
    return (await this.#t.request<Data<VoidResult>>("POST", `/esign/documents/${seg(documentId)}/void`, { json: { reason } })).data;
  }

  /** Emails the signers (the ones whose turn it is, or those named), lifting a passcode lock. */
  async resendEmail(documentId: string, recipientIds?: string[]): Promise<ResendResult> {
    return (
      await this.#t.request<Data<ResendResult>>("POST", `/esign/documents/${seg(documentId)}/resend-email`, { json: recipientIds ? { recipientIds } : {} })
    ).data;
  }

  async auditTrail(documentId: string): Promise<AuditTrail> {
    return (await this.#t.request<Data<AuditTrail>>("GET", `/esign/documents/${seg(documentId)}/audit-trail`)).data;
  }

  /** The signed PDF once completed, else the current PDF. */
  download(documentId: string): Promise<DownloadedFile> {
    return this.#t.download(`/esign/documents/${seg(documentId)}/download`);
  }

  /** A link to the same PDF that needs no API key and expires in minutes (hand it to a browser or another service). */
  async downloadLink(documentId: string): Promise<DownloadLink> {
    return (await this.#t.request<Data<DownloadLink>>("GET", `/esign/documents/${seg(documentId)}/download`)).data;
  }

  /** A signing URL for one recipient (exactly one of recipientId, externalId). Request it when the signer clicks; do not store it. */
  async createSigningUrl(documentId: string, input: SigningUrlInput): Promise<SigningUrlResult> {
    return (await this.#t.request<Data<{ results: SigningUrlResult }>>("POST", `/esign/documents/${seg(documentId)}/signing-url`, { json: input })).data
      .results;
  }

  async getEmbeddedSigningSettings(): Promise<EmbeddedSigningSettings> {
    return (await this.#t.request<Data<{ results: EmbeddedSigningSettings }>>("GET", "/esign/embedded-signing-settings")).data.results;
  }

  /**
   * docs/contract.md "Embedded signing": sends the document (sendEmail false unless given), then returns one entry per
   * recipient in signing order (2.10): `ready` with an embedUrl for the signers whose turn it is,
   * `pending` (embedUrl null) for the others, `completed` for those who signed.
   *
   * Local checks run first and throw before any request: QuireInputError for a bad input (not
   * exactly one source, unknown auth or fields keys, duplicate emails), PhoneRequiredForSmsOtp for
   * an SMS recipient without a phone. API failures throw QuireApiError; when the document was
   * already sent and a signing URL failed, the error carries `documentId`.
   */
  async createEmbeddedSignature(input: CreateEmbeddedSignatureInput): Promise<EmbeddedSignatureResult> {
    const { request, signers } = planEmbeddedSignature(input);
    const reply = await this.prepareForSigning(request);
    const byEmail = new Map(reply.recipients.map((r) => [r.email.toLowerCase(), r]));
    const recipients: EmbeddedSignatureRecipient[] = [];
    try {
      for (const s of signers) {
        const r = byEmail.get(s.email);
        if (!r) throw new QuireError(`The service's reply does not list recipient ${s.email}`);
        if (r.status === "ready") {
          const url = await this.createSigningUrl(reply.documentId, {
            recipientId: r.id,
            ...(input.returnUrl !== undefined ? { returnUrl: input.returnUrl } : {}),
          });
          recipients.push({ recipientId: r.id, embedUrl: url.url, status: "ready", identityVerificationMode: url.identityVerificationMode });
        } else {
          recipients.push({ recipientId: r.id, embedUrl: null, status: r.status, identityVerificationMode: s.requestedMode });
        }
      }
    } catch (err) {
      if (err instanceof QuireApiError) err.documentId = reply.documentId;
      throw err;
    }
    return { documentId: reply.documentId, recipients };
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * `/api/webhooks` (docs/contract.md "Webhooks"); administrator keys only. Methods
 * address the webhook by name, "signature" unless given.
 */
export class WebhooksApi {
  readonly #t: Transport;

  constructor(t: Transport) {
    this.#t = t;
  }

  /** Returns the webhook with its full `secret`: save it, it is not shown again. */
  async create(input: CreateWebhookInput): Promise<WebhookWithSecret> {
    const body = { name: input.name ?? DEFAULT_WEBHOOK_NAME, urls: input.urls, events: input.events };
    return (await this.#t.request<Data<WebhookWithSecret>>("POST", "/api/webhooks", { json: body })).data;
  }

  /** Every webhook of the organization. */
  async list(): Promise<Webhook[]> {
    return (await this.#t.request<Data<{ results: Webhook[] }>>("GET", "/api/webhooks")).data.results;
  }

  /** With maskedSecret, deliveryStats and availableEvents. */
  async get(name: string = DEFAULT_WEBHOOK_NAME): Promise<WebhookDetail> {
    return (await this.#t.request<Data<WebhookDetail>>("GET", `/api/webhooks/${seg(name)}`)).data;
  }

  /** `urls` and `events` replace the full lists; `changes.name` renames. */
  async update(changes: UpdateWebhookInput, name: string = DEFAULT_WEBHOOK_NAME): Promise<Webhook> {
    return (await this.#t.request<Data<Webhook>>("PATCH", `/api/webhooks/${seg(name)}`, { json: changes })).data;
  }

  async delete(name: string = DEFAULT_WEBHOOK_NAME): Promise<{ id: string }> {
    return (await this.#t.request<Data<{ id: string }>>("DELETE", `/api/webhooks/${seg(name)}`)).data;
  }

  /** A new secret (returned in full); the old one stops signing deliveries. */
  async regenerateSecret(name: string = DEFAULT_WEBHOOK_NAME): Promise<WebhookWithSecret> {
    return (await this.#t.request<Data<WebhookWithSecret>>("POST", `/api/webhooks/${seg(name)}/regenerate-secret`)).data;
  }

  /** Sends a sample delivery to every URL now. A failing receiver shows only in each delivery's isDelivered/status/errorMessage. */
  async test(input: TestWebhookInput = {}, name: string = DEFAULT_WEBHOOK_NAME): Promise<TestWebhookResult> {
    return (await this.#t.request<Data<TestWebhookResult>>("POST", `/api/webhooks/${seg(name)}/test`, { json: input })).data;
  }

  /** Newest first. */
  async listDeliveries(params: ListDeliveriesParams = {}, name: string = DEFAULT_WEBHOOK_NAME): Promise<Page<WebhookDelivery>> {
    return (await this.#t.request<Data<Page<WebhookDelivery>>>("GET", `/api/webhooks/${seg(name)}/deliveries`, { query: params })).data;
  }

  /** Sends the same event again as a new delivery. */
  async replay(deliveryId: string, name: string = DEFAULT_WEBHOOK_NAME): Promise<WebhookDelivery> {
    return (await this.#t.request<Data<WebhookDelivery>>("POST", `/api/webhooks/${seg(name)}/deliveries/${seg(deliveryId)}/replay`)).data;
  }
}

// @quire/sdk: the typed TypeScript client of Quire's REST API and webhook verification.
// The browser embed (./embed, ./react) is a separate entry point and is not imported here.
export { QuireClient, DEFAULT_WEBHOOK_NAME, SDK_VERSION, planEmbeddedSignature } from "./client.js";
export type { QuireClientOptions, RequestOptions, DeliverablesApi, TemplatesApi, FoldersApi, TagsApi, EsignApi, WebhooksApi } from "./client.js";
export { QuireError, QuireApiError, QuireInputError, PhoneRequiredForSmsOtp } from "./errors.js";
export {
  verifyStandardWebhook,
  verifyWebhookSignature,
  signWebhookPayload,
  parseSignatureHeader,
  constructWebhookEvent,
  WebhookSignatureError,
  WEBHOOK_SIGNATURE_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
} from "./webhooks.js";
export type { VerifyWebhookOptions, ParsedSignatureHeader } from "./webhooks.js";
export type * from "./types.js";

// Response shapes of the signature webhook endpoints (docs/contract.md
// "Webhooks"), and the body Quire posts to receivers.
import { z } from "zod";
import { timestamp, uuid } from "@/lib/http/response-schemas";
import { AVAILABLE_EVENTS } from "@/lib/webhooks/webhooks";

const base = {
  id: uuid,
  orgId: uuid,
  name: z.string().meta({ description: "Unique among the organization's active webhooks; addresses the webhook in paths" }),
  urls: z.array(z.string()),
  events: z.array(z.string()),
  secretExists: z.boolean(),
  isActive: z.boolean(),
  pausedReason: z
    .string()
    .nullable()
    .meta({ description: "Why Quire paused the webhook (a receiver answered 410 Gone); null when it is active or was paused by a person" }),
  createdBy: z.string(),
  createdOn: timestamp,
  updatedOn: timestamp,
};

/** 2.7 as every endpoint but create and regenerate shows it: the secret masked. */
export const webhookSchema = z
  .object({ ...base, maskedSecret: z.string().meta({ description: "whsec_… and the secret's last four characters" }) })
  .meta({ id: "Webhook" });
/** 2.7 right after create or secret regeneration: the full secret, shown this once. */
export const webhookWithSecretSchema = z
  .object({
    ...base,
    secret: z.string().meta({ description: "whsec_ and 32 random bytes in base64url; verifies X-Service-Signature. Not shown again." }),
    standardSecret: z
      .string()
      .meta({ description: "The same key as whsec_ + standard base64: give it to a Standard Webhooks library to verify webhook-signature. Not shown again." }),
  })
  .meta({ id: "WebhookWithSecret" });

export const webhookDeliveryStatsSchema = z
  .object({ total: z.number().int(), delivered: z.number().int(), retrying: z.number().int(), failed: z.number().int(), lastDeliveryAt: timestamp.nullable() })
  .meta({ id: "WebhookDeliveryStats" });

export const webhookDetailSchema = webhookSchema
  .extend({
    deliveryStats: webhookDeliveryStatsSchema,
    availableEvents: z.array(z.string()).meta({ description: `The event types a webhook may subscribe to: ${AVAILABLE_EVENTS.join(", ")}` }),
  })
  .meta({ id: "WebhookDetail" });

/** The body of every call to a receiver (docs/contract.md "Webhooks"), signed in X-Service-Signature. */
export const webhookEnvelopeSchema = z
  .object({
    id: z.string().meta({ description: "Event id; the same for every delivery and retry of one event" }),
    event: z.string().meta({ description: "Event type, e.g. signature.document.completed" }),
    createdOn: timestamp,
    orgId: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "WebhookEnvelope" });

// -- Each event's `data` (docs/contract.md "Webhook events") ------------------------------------------
// One entry per event type, keyed by its name: the OpenAPI webhooks section, the SDK's types and the
// tests read this table, and the compiler refuses an event in AVAILABLE_EVENTS without its entry here.

/** In every event's data. */
const eventDocument = {
  documentId: uuid,
  name: z.string().meta({ description: "The document's name" }),
  test: z.literal(true).optional().meta({ description: "Present only on Test Webhook deliveries" }),
};
const eventSigner = {
  recipientId: uuid,
  email: z.string(),
};

export type WebhookEventType = (typeof AVAILABLE_EVENTS)[number];

export const WEBHOOK_EVENT_PAYLOADS: Record<WebhookEventType, { description: string; data: z.ZodObject }> = {
  "signature.document.sent": {
    description: "The document went out for signing (prepare-for-signing, or send after review).",
    data: z
      .object({
        ...eventDocument,
        recipients: z.array(z.object({ id: uuid, email: z.string(), name: z.string(), signingOrder: z.number().int() })),
      })
      .meta({ id: "DocumentSentEventData" }),
  },
  "signature.document.viewed": {
    description: "A signer opened the document: once per signer, on the first open.",
    data: z.object({ ...eventDocument, ...eventSigner, viewedAt: timestamp }).meta({ id: "DocumentViewedEventData" }),
  },
  "signature.document.recipient_signed": {
    description: "One signer finished signing.",
    data: z
      .object({
        ...eventDocument,
        ...eventSigner,
        signedAt: timestamp,
        isFinalSigner: z.boolean().meta({ description: "Whether this was the last signature (completion follows)" }),
        remainingSigners: z.number().int().meta({ description: "Signers who have not signed yet" }),
      })
      .meta({ id: "DocumentRecipientSignedEventData" }),
  },
  "signature.document.completed": {
    description: "Every signer signed and the PDF is sealed; download it with GET /esign/documents/{id}/download.",
    data: z
      .object({
        ...eventDocument,
        completedAt: timestamp,
        documentHash: z.string().meta({ description: "SHA-256 (hex) of the sealed PDF" }),
        recipients: z.array(z.object({ id: uuid, email: z.string(), name: z.string(), signedAt: timestamp.optional() })),
      })
      .meta({ id: "DocumentCompletedEventData" }),
  },
  "signature.document.finalization_failed": {
    description: "Sealing the completed document kept failing; the dashboard offers a retry (POST /esign/documents/{id}/retry-finalization).",
    data: z
      .object({ ...eventDocument, attempts: z.number().int(), error: z.string().meta({ description: "The last failure, in Quire's words" }) })
      .meta({ id: "DocumentFinalizationFailedEventData" }),
  },
  "signature.document.voided": {
    description: "The sender voided the document.",
    data: z.object({ ...eventDocument, reason: z.string(), voidedAt: timestamp }).meta({ id: "DocumentVoidedEventData" }),
  },
  "signature.document.declined": {
    description: "A signer declined to sign, with a reason; the document is final (like voided).",
    data: z
      .object({
        ...eventDocument,
        ...eventSigner,
        reason: z.string().meta({ description: "The signer's reason, 1 to 1,000 characters" }),
        declinedAt: timestamp,
      })
      .meta({ id: "DocumentDeclinedEventData" }),
  },
};

/** The body posted for one event type: the envelope with that event's data. */
export function webhookEventSchema(event: WebhookEventType) {
  return webhookEnvelopeSchema.extend({ event: z.literal(event), data: WEBHOOK_EVENT_PAYLOADS[event].data });
}

/** 2.8 plus the fields of the delivery list. */
export const webhookDeliverySchema = z
  .object({
    id: uuid,
    webhookId: uuid,
    eventType: z.string(),
    url: z.string(),
    httpStatus: z.number().int().nullable().meta({ description: "Status the receiver returned; null when it never answered" }),
    attemptCount: z.number().int(),
    maxAttempts: z.number().int(),
    isDelivered: z.boolean(),
    status: z.enum(["delivered", "retrying", "failed"]),
    errorMessage: z.string().optional().meta({ description: "Present with details on failure" }),
    payload: webhookEnvelopeSchema,
    responseBody: z.string().nullable().meta({ description: "The receiver's answer, first 2 KB" }),
    nextAttemptAt: timestamp.nullable(),
    createdOn: timestamp,
    updatedOn: timestamp,
  })
  .meta({ id: "WebhookDelivery" });

export const testWebhookResultSchema = z
  .object({
    deliveries: z.array(webhookDeliverySchema),
    summary: z
      .object({ total: z.number().int(), successful: z.number().int(), failed: z.number().int(), errors: z.array(z.string()) })
      .meta({ description: "failed and errors count only database errors while recording a delivery, not HTTP failures: check each delivery" }),
  })
  .meta({ id: "TestWebhookResult" });

/** 7.3: create or rename to a name another active webhook holds. */
export const webhookNameTakenSchema = z
  .object({ message: z.string(), error: z.literal("WebhookNameTaken"), data: z.object({ constraint: z.string(), orgId: z.string(), name: z.string() }) })
  .meta({ id: "WebhookNameTaken" });

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

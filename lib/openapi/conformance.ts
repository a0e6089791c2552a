// Compile-time checks that what the domain code returns fits the documented response schemas:
// every value it can send is valid, and it sends no field the schema does not name. `tsc` (and so
// `next build`) fails here when a domain reply and its schema drift apart. Fields stored as JSON
// (typed JsonValue by Prisma) or as plain strings where the schema names the values are left out here
// and left to the runtime check of tests/integration/openapi.test.ts.
import type { z } from "zod";
import type { getDeliverable, CreatedDeliverableJson } from "@/lib/deliverables/deliverables";
import type { listDeliverables } from "@/lib/deliverables/list";
import type { createdDeliverableSchema, deliverableListItemSchema, deliverableSchema } from "@/lib/deliverables/responses";
import type { AuditTrailEntry } from "@/lib/esign/audit";
import type { documentJson, PrepareReply, voidDocument, resendDocument } from "@/lib/esign/documents";
import type { settingsJson } from "@/lib/esign/identity";
import type {
  auditEntrySchema,
  embeddedSigningSettingsSchema,
  prepareReplySchema,
  resendResultSchema,
  reviewReplySchema,
  signingDocumentSchema,
  signingUrlResultSchema,
  voidResultSchema,
} from "@/lib/esign/responses";
import type { issueSigningUrl } from "@/lib/esign/signing-urls";
import type { OutboxMessageJson } from "@/lib/mail/outbox";
import type { outboxMessageSchema } from "@/lib/mail/schemas";
import type { Health, Readiness } from "@/lib/server/health";
import type { healthSchema, readinessSchema } from "@/lib/server/responses";
import type { TagJson } from "@/lib/tags/tags";
import type { tagSchema } from "@/lib/tags/responses";
import type { FolderJson } from "@/lib/templates/folders";
import type { TemplateItemJson } from "@/lib/templates/listing";
import type { templateFolderSchema, templateItemSchema, templateSchema } from "@/lib/templates/responses";
import type { TemplateDetailJson } from "@/lib/templates/templates";
import type { deliveryJson } from "@/lib/webhooks/delivery-admin";
import type { webhookDeliverySchema, webhookDetailSchema, webhookSchema, webhookWithSecretSchema } from "@/lib/webhooks/responses";
import type { getWebhook, webhookJson } from "@/lib/webhooks/webhooks";

/** `Domain` fits `Schema`'s output and has no key it lacks. */
type Fits<Domain, Schema extends z.ZodType> = [Domain] extends [z.output<Schema>]
  ? [Exclude<keyof Domain, keyof z.output<Schema>>] extends [never]
    ? true
    : { undocumented: Exclude<keyof Domain, keyof z.output<Schema>> }
  : { doesNotFit: Domain };
type Assert<T extends true> = T;
type Item<T> = T extends readonly (infer U)[] ? U : never;
type Reply<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type WithoutJson<T, K extends keyof T> = Omit<T, K>;
/** The replies of a function with two overloads. */
type Overloaded<F> = F extends { (...a: never[]): infer R1; (...a: never[]): infer R2 } ? R1 | R2 : never;
type WebhookReply = Overloaded<typeof webhookJson>;
type SchemaWithout<S extends z.ZodObject, K extends keyof S["shape"]> = z.ZodObject<Omit<S["shape"], K>>;

export type Conformance = [
  Assert<Fits<TagJson, typeof tagSchema>>,
  Assert<Fits<WithoutJson<Item<Reply<typeof listDeliverables>["results"]>, "fonts">, SchemaWithout<typeof deliverableListItemSchema, "fonts">>>,
  Assert<Fits<WithoutJson<Reply<typeof getDeliverable>, "fonts" | "variables">, SchemaWithout<typeof deliverableSchema, "fonts" | "variables">>>,
  Assert<Fits<CreatedDeliverableJson, typeof createdDeliverableSchema>>,
  Assert<Fits<TemplateItemJson, typeof templateItemSchema>>,
  Assert<Fits<TemplateDetailJson, typeof templateSchema>>,
  Assert<Fits<FolderJson, typeof templateFolderSchema>>,
  Assert<Fits<Omit<PrepareReply, "previewUrl">, typeof prepareReplySchema>>,
  Assert<Fits<PrepareReply & { previewUrl: string }, typeof reviewReplySchema>>,
  Assert<Fits<WithoutJson<ReturnType<typeof documentJson>, "ccEmails">, SchemaWithout<typeof signingDocumentSchema, "ccEmails">>>,
  Assert<Fits<Reply<typeof voidDocument>, typeof voidResultSchema>>,
  Assert<Fits<Reply<typeof resendDocument>, typeof resendResultSchema>>,
  Assert<Fits<AuditTrailEntry, typeof auditEntrySchema>>,
  Assert<Fits<WithoutJson<Reply<typeof issueSigningUrl>, "pendingChecks">, SchemaWithout<typeof signingUrlResultSchema, "pendingChecks">>>,
  Assert<Fits<ReturnType<typeof settingsJson>, typeof embeddedSigningSettingsSchema>>,
  Assert<Fits<Extract<WebhookReply, { maskedSecret: string }>, typeof webhookSchema>>,
  Assert<Fits<Extract<WebhookReply, { secret: string }>, typeof webhookWithSecretSchema>>,
  Assert<Fits<Reply<typeof getWebhook>, typeof webhookDetailSchema>>,
  Assert<Fits<WithoutJson<ReturnType<typeof deliveryJson>, "payload" | "status">, SchemaWithout<typeof webhookDeliverySchema, "payload" | "status">>>,
  Assert<Fits<OutboxMessageJson, typeof outboxMessageSchema>>,
  Assert<Fits<Health, typeof healthSchema>>,
  Assert<Fits<Readiness, typeof readinessSchema>>,
];

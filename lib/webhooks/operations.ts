// The webhook operations (docs/contract.md 4.4): one record each, bound by the route files under app/api/webhooks.
// lib/openapi/document.ts renders them; apiRoute() takes them, so roles, feature, family and
// idempotency are declared here only.
import { z } from "zod";
import { ADMINS } from "@/lib/auth/roles";
import { dataOf, pageOf, resultsOf } from "@/lib/http/response-schemas";
import {
  testWebhookResultSchema,
  webhookDeliverySchema,
  webhookDetailSchema,
  webhookNameTakenSchema,
  webhookSchema,
  webhookWithSecretSchema,
} from "@/lib/webhooks/responses";
import { createWebhookSchema, listDeliveriesQuery, testWebhookSchema, updateWebhookSchema } from "@/lib/webhooks/webhooks";
import { defineOperations } from "@/lib/openapi/types";

const webhookMessage = <T extends z.ZodType>(data: T) => z.object({ data, message: z.string() });
const webhookNameTaken = { 409: { description: "Another active webhook holds the name", json: webhookNameTakenSchema } };

export const webhookOperations = defineOperations({
  createWebhook: {
    method: "post",
    path: "/api/webhooks",
    summary: "Create a webhook",
    description: "Save the secret from the reply: it is not shown again. Every client library sends the name signature.",
    tag: "Webhooks",
    auth: { family: "webhook", roles: ADMINS },
    body: { json: createWebhookSchema, required: true },
    success: { status: 201, description: "The webhook with its full secret", json: webhookMessage(webhookWithSecretSchema) },
    errors: [400, 409],
    errorBodies: webhookNameTaken,
  },
  listWebhooks: {
    method: "get",
    readsOnly: true,
    path: "/api/webhooks",
    summary: "List webhooks",
    description: "Active webhooks first, then the most recently updated.",
    tag: "Webhooks",
    auth: { family: "webhook", roles: ADMINS },
    success: { status: 200, description: "Every webhook of the organization", json: resultsOf(z.array(webhookSchema)) },
  },
  getWebhook: {
    method: "get",
    readsOnly: true,
    path: "/api/webhooks/{name}",
    summary: "Get a webhook with its delivery statistics",
    tag: "Webhooks",
    auth: { family: "webhook", roles: ADMINS },
    success: { status: 200, description: "The webhook", json: dataOf(webhookDetailSchema) },
    errors: [404],
  },
  updateWebhook: {
    method: "patch",
    path: "/api/webhooks/{name}",
    summary: "Update a webhook",
    description: "urls and events replace the full list; isActive false pauses it.",
    tag: "Webhooks",
    auth: { family: "webhook", roles: ADMINS },
    body: { json: updateWebhookSchema, required: true },
    success: { status: 200, description: "The updated webhook", json: webhookMessage(webhookSchema) },
    errors: [400, 404, 409],
    errorBodies: webhookNameTaken,
  },
  deleteWebhook: {
    method: "delete",
    path: "/api/webhooks/{name}",
    summary: "Delete a webhook",
    tag: "Webhooks",
    auth: { family: "webhook", roles: ADMINS },
    success: { status: 200, description: "Deleted", json: webhookMessage(z.object({ id: z.string() })) },
    errors: [404],
  },
  testWebhook: {
    method: "post",
    path: "/api/webhooks/{name}/test",
    summary: "Send a test event to every URL",
    description:
      "Creates a real delivery per URL. summary.failed and summary.errors count only errors while recording a delivery: a receiver that fails still counts as successful, so check each delivery's isDelivered, status and errorMessage.",
    tag: "Webhooks",
    auth: { family: "webhook", roles: ADMINS },
    idempotent: true,
    body: { json: testWebhookSchema },
    success: { status: 200, description: "The deliveries made", json: webhookMessage(testWebhookResultSchema) },
    errors: [400, 404],
  },
  regenerateWebhookSecret: {
    method: "post",
    path: "/api/webhooks/{name}/regenerate-secret",
    summary: "Regenerate a webhook's secret",
    tag: "Webhooks",
    auth: { family: "webhook", roles: ADMINS },
    success: { status: 200, description: "The webhook with its new full secret", json: webhookMessage(webhookWithSecretSchema) },
    errors: [404],
  },
  listWebhookDeliveries: {
    method: "get",
    readsOnly: true,
    path: "/api/webhooks/{name}/deliveries",
    summary: "List a webhook's deliveries",
    tag: "Webhooks",
    auth: { family: "webhook", roles: ADMINS },
    query: listDeliveriesQuery,
    success: { status: 200, description: "One page of deliveries, newest first", json: dataOf(pageOf(webhookDeliverySchema)) },
    errors: [400, 404],
  },
  replayWebhookDelivery: {
    method: "post",
    path: "/api/webhooks/{name}/deliveries/{deliveryId}/replay",
    summary: "Send a delivery's event again",
    description: "A new delivery to the same URL, sent now.",
    tag: "Webhooks",
    auth: { family: "webhook", roles: ADMINS },
    success: { status: 200, description: "The new delivery", json: webhookMessage(webhookDeliverySchema) },
    errors: [404],
  },
});

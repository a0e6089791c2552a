// Health, readiness, the calling key, the mail outbox and the OpenAPI document: one record each.
// lib/openapi/document.ts renders them; apiRoute() takes them, so roles, feature, family and
// idempotency are declared here only.
import { z } from "zod";
import { ADMINS, ANY_ROLE } from "@/lib/auth/roles";
import { dataOf, pageOf } from "@/lib/http/response-schemas";
import { listOutboxQuery, outboxMessageSchema } from "@/lib/mail/schemas";
import { healthSchema, readinessSchema, whoamiSchema } from "@/lib/server/responses";
import { defineOperations } from "@/lib/openapi/types";

export const serviceOperations = defineOperations({
  getHealth: {
    method: "get",
    path: "/api/health",
    summary: "Liveness",
    description: "200 while the database answers, else 503 with the same body.",
    tag: "Service",
    auth: null,
    success: { status: 200, description: "Healthy", json: healthSchema },
    errorBodies: { 503: { description: "Degraded", json: healthSchema } },
  },
  getReadiness: {
    method: "get",
    path: "/api/ready",
    summary: "Readiness",
    description: "200 when the database, storage and PDF converter all answer, else 503 with the same body.",
    tag: "Service",
    auth: null,
    success: { status: 200, description: "Ready", json: readinessSchema },
    errorBodies: { 503: { description: "Not ready", json: readinessSchema } },
  },
  whoami: {
    method: "get",
    path: "/api/whoami",
    summary: "The calling key's organization and role",
    tag: "Service",
    auth: { family: "deliverable", roles: ANY_ROLE },
    success: { status: 200, description: "The key", json: dataOf(whoamiSchema) },
  },
  listOutbox: {
    method: "get",
    readsOnly: true,
    path: "/api/outbox",
    summary: "List the emails the organization's documents caused",
    description: "Newest first: a mail catcher in development, an audit of what was sent in production.",
    tag: "Service",
    auth: { family: "deliverable", roles: ADMINS },
    query: listOutboxQuery,
    success: { status: 200, description: "One page of messages", json: dataOf(pageOf(outboxMessageSchema)) },
    errors: [400],
  },
  getOpenApiDocument: {
    method: "get",
    path: "/api/openapi.json",
    summary: "This OpenAPI document",
    tag: "Service",
    auth: null,
    success: { status: 200, description: "OpenAPI 3.1", json: z.record(z.string(), z.unknown()) },
  },
});

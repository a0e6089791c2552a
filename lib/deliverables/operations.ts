// The deliverable operations (docs/contract.md 4.1): one record each, bound by the route files under app/v1/deliverable.
// lib/openapi/document.ts renders them; apiRoute() takes them, so roles, feature, family and
// idempotency are declared here only.
import { z } from "zod";
import { ANY_ROLE, WRITERS } from "@/lib/auth/roles";
import { createDeliverableBody, getDeliverableQuery, listDeliverablesQuery, updateDeliverableBody } from "@/lib/deliverables/schemas";
import { createdDeliverableSchema, deliverableListItemSchema, deliverableMessageSchema, deliverableSchema } from "@/lib/deliverables/responses";
import { dataOf, pageOf, resultsOf } from "@/lib/http/response-schemas";

import { CONTENT_TYPES } from "@/lib/files/content-types";
import { contentDisposition, defineOperations } from "@/lib/openapi/types";

export const deliverableOperations = defineOperations({
  listDeliverables: {
    method: "get",
    readsOnly: true,
    foldsAdmission: true,
    path: "/v1/deliverable",
    summary: "List deliverables",
    description: "Active deliverables, newest first.",
    tag: "Deliverables",
    auth: { family: "deliverable", roles: ANY_ROLE },
    query: listDeliverablesQuery,
    success: { status: 200, description: "One page of deliverables", json: dataOf(pageOf(deliverableListItemSchema)) },
    errors: [400],
  },
  createDeliverable: {
    method: "post",
    path: "/v1/deliverable",
    summary: "Create a deliverable from a template",
    description:
      "Substitutes the variables into the template and generates the PDF. The template must exist, be active and have its placeholders extracted; the organization's deliverable and storage quotas are checked. A client that disconnects during generation gets 499 and nothing is kept.",
    tag: "Deliverables",
    auth: { family: "deliverable", roles: WRITERS },
    idempotent: true,
    foldsAdmission: true,
    body: { json: createDeliverableBody, required: true },
    success: { status: 200, description: "The new deliverable", json: dataOf(z.object({ results: z.object({ deliverable: createdDeliverableSchema }) })) },
    errors: [400, 404, 422, 499],
  },
  getDeliverable: {
    method: "get",
    readsOnly: true,
    path: "/v1/deliverable/{id}",
    summary: "Get a deliverable",
    tag: "Deliverables",
    auth: { family: "deliverable", roles: ANY_ROLE },
    query: getDeliverableQuery,
    success: { status: 200, description: "The deliverable with its variables", json: resultsOf(deliverableSchema) },
    errors: [400, 404],
  },
  updateDeliverable: {
    method: "patch",
    path: "/v1/deliverable/{id}",
    summary: "Update a deliverable's name, description and tags",
    description: "Only sent fields change. tags replaces every tag; an empty array removes all.",
    tag: "Deliverables",
    auth: { family: "deliverable", roles: WRITERS },
    body: { json: updateDeliverableBody, required: true },
    success: { status: 200, description: "Updated", json: dataOf(deliverableMessageSchema) },
    errors: [400, 404, 422],
  },
  deleteDeliverable: {
    method: "delete",
    path: "/v1/deliverable/{id}",
    summary: "Delete a deliverable (soft delete)",
    tag: "Deliverables",
    auth: { family: "deliverable", roles: WRITERS },
    success: { status: 200, description: "Deleted", json: dataOf(deliverableMessageSchema) },
    errors: [404],
  },
  downloadDeliverableFile: {
    method: "get",
    path: "/v1/deliverable/file/{deliverableId}",
    summary: "Download a deliverable's source file (DOCX or PPTX)",
    description: "Needs the license feature hasFileDownload.",
    tag: "Deliverables",
    auth: { family: "deliverable", roles: WRITERS, feature: "hasFileDownload" },
    success: { status: 200, description: "The generated DOCX or PPTX", file: [CONTENT_TYPES.docx, CONTENT_TYPES.pptx], headers: contentDisposition },
    errors: [404],
  },
  downloadDeliverablePdf: {
    method: "get",
    path: "/v1/deliverable/file/pdf/{deliverableId}",
    summary: "Download a deliverable's PDF",
    tag: "Deliverables",
    auth: { family: "deliverable", roles: WRITERS },
    success: { status: 200, description: "The generated PDF", file: [CONTENT_TYPES.pdf], headers: contentDisposition },
    errors: [404],
  },
});

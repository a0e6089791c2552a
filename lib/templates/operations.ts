// The template, folder, tag and listing operations: one record each, bound by the route files under app/template*, app/tag.
// lib/openapi/document.ts renders them; apiRoute() takes them, so roles, feature, family and
// idempotency are declared here only.
import { z } from "zod";
import { ANY_ROLE, SENDERS, WRITERS } from "@/lib/auth/roles";
import { dataOf, pageOf, resultsOf } from "@/lib/http/response-schemas";
import { tagSchema } from "@/lib/tags/responses";
import { createFolderBody, listTemplateItemsQuery, updateFolderBody, updateTemplateBody, uploadTemplateFields } from "@/lib/templates/schemas";
import {
  folderDeletedSchema,
  templateDeletedSchema,
  templateFolderDetailSchema,
  templateFolderSchema,
  templateCheckSchema,
  templateItemSchema,
  templateSchema,
} from "@/lib/templates/responses";

import { CONTENT_TYPES } from "@/lib/files/content-types";
import { contentDisposition, defineOperations, fileField } from "@/lib/openapi/types";

export const templateOperations = defineOperations({
  listTemplateItems: {
    method: "get",
    readsOnly: true,
    foldsAdmission: true,
    path: "/template-item",
    summary: "List templates and folders",
    description: "The root of the workspace (or folderId's direct children); with type=template, every template across all folders.",
    tag: "Templates",
    auth: { family: "listing", roles: ANY_ROLE },
    query: listTemplateItemsQuery,
    success: { status: 200, description: "One page of templates and folders", json: dataOf(pageOf(templateItemSchema)) },
    errors: [400],
  },
  uploadTemplate: {
    method: "post",
    path: "/template",
    summary: "Upload a template",
    description:
      "A .docx or .pptx; its placeholders are extracted now. A file that is not a valid DOCX/PPTX, or whose placeholders cannot be parsed, is a 400 naming the problem.",
    tag: "Templates",
    auth: { family: "listing", roles: SENDERS },
    body: {
      multipart: uploadTemplateFields
        .extend({ file: fileField("The .docx or .pptx file") })
        .meta({ description: "tags may also be sent as a JSON array string" }),
      required: true,
    },
    success: { status: 201, description: "The new template", json: dataOf(templateSchema) },
    errors: [400],
  },
  getTemplate: {
    method: "get",
    readsOnly: true,
    path: "/template/{id}",
    summary: "Get a template with its placeholders",
    tag: "Templates",
    auth: { family: "listing", roles: ANY_ROLE },
    success: { status: 200, description: "The template", json: dataOf(templateSchema) },
    errors: [404],
  },
  checkTemplate: {
    method: "post",
    path: "/template/{id}/check",
    summary: "Check a template before generating from it (the template doctor)",
    description:
      "Reports tags Quire will not fill, sections that would leave blank lines, fonts the converter lacks, oversized images and content LibreOffice renders differently, each with where it is. Writes nothing.",
    tag: "Templates",
    auth: { family: "listing", roles: ANY_ROLE },
    success: { status: 200, description: "The findings (none: nothing to fix)", json: dataOf(templateCheckSchema) },
    errors: [404],
  },
  updateTemplate: {
    method: "patch",
    path: "/template/{id}",
    summary: "Update a template's name, description, folder or tags",
    tag: "Templates",
    auth: { family: "listing", roles: SENDERS },
    body: { json: updateTemplateBody, required: true },
    success: { status: 200, description: "The updated template", json: dataOf(templateSchema) },
    errors: [400, 404],
  },
  deleteTemplate: {
    method: "delete",
    path: "/template/{id}",
    summary: "Delete a template (soft delete)",
    description: "Deliverables made from it keep working; their templateNotDeleted becomes false.",
    tag: "Templates",
    auth: { family: "listing", roles: SENDERS },
    success: { status: 200, description: "Deleted", json: dataOf(templateDeletedSchema) },
    errors: [404],
  },
  downloadTemplateFile: {
    method: "get",
    path: "/template/{id}/file",
    summary: "Download a template's file",
    tag: "Templates",
    auth: { family: "listing", roles: WRITERS },
    success: { status: 200, description: "The template's DOCX or PPTX", file: [CONTENT_TYPES.docx, CONTENT_TYPES.pptx], headers: contentDisposition },
    errors: [404],
  },
  createTemplateFolder: {
    method: "post",
    path: "/template-folder",
    summary: "Create a template folder",
    tag: "Templates",
    auth: { family: "listing", roles: SENDERS },
    body: { json: createFolderBody, required: true },
    success: { status: 201, description: "The new folder", json: dataOf(templateFolderSchema) },
    errors: [400],
  },
  getTemplateFolder: {
    method: "get",
    readsOnly: true,
    path: "/template-folder/{id}",
    summary: "Get a template folder and its path",
    tag: "Templates",
    auth: { family: "listing", roles: ANY_ROLE },
    success: { status: 200, description: "The folder", json: dataOf(templateFolderDetailSchema) },
    errors: [404],
  },
  updateTemplateFolder: {
    method: "patch",
    path: "/template-folder/{id}",
    summary: "Rename or move a template folder",
    tag: "Templates",
    auth: { family: "listing", roles: SENDERS },
    body: { json: updateFolderBody, required: true },
    success: { status: 200, description: "The updated folder", json: dataOf(templateFolderSchema) },
    errors: [400, 404],
  },
  deleteTemplateFolder: {
    method: "delete",
    path: "/template-folder/{id}",
    summary: "Delete an empty template folder",
    tag: "Templates",
    auth: { family: "listing", roles: SENDERS },
    success: { status: 200, description: "Deleted", json: dataOf(folderDeletedSchema) },
    errors: [404, 409],
  },
  listTags: {
    method: "get",
    readsOnly: true,
    path: "/tag",
    summary: "List the organization's tags",
    tag: "Templates",
    auth: { family: "listing", roles: ANY_ROLE },
    success: { status: 200, description: "Every tag", json: resultsOf(z.array(tagSchema)) },
  },
});

// The shape of one REST operation. Each area declares its records (lib/<area>/operations.ts);
// the route file binds its handler to the record (apiRoute), lib/openapi/operations.ts gathers them
// and lib/openapi/document.ts renders them into OpenAPI 3.1.
import { z } from "zod";
import type { oas31 } from "zod-openapi";
import type { LicenseFeature, Role } from "@/lib/auth/roles";
import type { DocumentedFamily } from "@/lib/http/error-schemas";

export type Method = "get" | "post" | "put" | "patch" | "delete";

export const TAGS = [
  { name: "Deliverables", description: "Documents generated from templates" },
  { name: "Templates", description: "Templates, folders, tags and the template listing" },
  { name: "Signing", description: "Documents for signing and embedded signing" },
  { name: "Webhooks", description: "The organization's signature webhooks and their deliveries" },
  { name: "Service", description: "Health, readiness, the calling key, the mail outbox and this document" },
] as const;
export type Tag = (typeof TAGS)[number]["name"];

export interface SuccessResponse {
  status: 200 | 201 | 303;
  description: string;
  /** A JSON body. */
  json?: z.ZodType;
  /** A file: its possible content types. */
  file?: string[];
  headers?: oas31.HeadersObject;
}

export interface OperationAuth {
  family: DocumentedFamily;
  roles: readonly Role[];
  feature?: LicenseFeature;
}

export interface Operation {
  /** The record's key in its area's defineOperations(). */
  operationId: string;
  method: Method;
  /** OpenAPI form: `{param}` segments. */
  path: string;
  summary: string;
  description?: string;
  tag: Tag;
  /** null: public, no API key. */
  auth: OperationAuth | null;
  /** Honours an Idempotency-Key header (docs/contract.md "Idempotency"): apiRoute applies it, the document shows it. */
  idempotent?: true;
  /**
   * The handler only reads (no write, no side effect): apiRoute runs it while the key's admission is
   * under way and answers once the key is admitted (ADR 0020), unless it carries the admission itself
   * (foldsAdmission) where the database can.
   */
  readsOnly?: true;
  /**
   * A statement of the handler carries the key's admission (ADR 0022), settled before anything else can
   * fail: apiRoute hands it the admission to fold in and answers the admission's 401 or 429 before
   * whatever the handler answered (a handler that answered before that statement is admitted by the
   * key's own).
   */
  foldsAdmission?: true;
  deprecated?: boolean;
  /** The query schema the route parses with. */
  query?: z.ZodObject;
  /** The body schemas the route parses with, per content type. */
  body?: { json?: z.ZodType; multipart?: z.ZodType; required?: boolean; description?: string };
  success: SuccessResponse;
  /** Error statuses beyond 401, 403 and 429 (which every keyed operation may answer). */
  errors?: number[];
  /** Replaces the default error statuses entirely (e.g. an endpoint whose only error is 401). */
  onlyErrors?: number[];
  /** A status whose body is more specific than the family's. */
  errorBodies?: Record<number, { description: string; json: z.ZodType }>;
}

export type OperationSpec = Omit<Operation, "operationId">;

/** An area's operations, keyed by operationId (the key is the id: it is not written twice). */
export function defineOperations<const T extends Record<string, OperationSpec>>(specs: T): { [K in keyof T]: T[K] & { operationId: K } } {
  return Object.fromEntries(Object.entries(specs).map(([operationId, spec]) => [operationId, { operationId, ...spec }])) as {
    [K in keyof T]: T[K] & { operationId: K };
  };
}

/** The Content-Disposition header of a file download. */
export const contentDisposition: oas31.HeadersObject = {
  "Content-Disposition": { description: 'attachment; filename="<name>.<extension>"', schema: { type: "string" } },
};

/** A file part next to the text fields of a multipart body. */
export const fileField = (description: string) => z.file().meta({ description });

// The error bodies of lib/http/errors.ts as zod schemas (docs/contract.md "Error bodies"), one set per
// endpoint family, so the OpenAPI document states exactly what each family answers.
import { z } from "zod";
import type { ErrorFamily } from "@/lib/http/errors";

const message = z.string().meta({ description: "Human-readable description of the problem" });
const code = z.string().meta({ description: "Stable machine-readable code, e.g. ValidationError, DeliverableNotFound" });

/** 7.1 and our own management endpoints. */
export const errorBody = z
  .object({ error: code, message })
  .meta({ id: "Error", description: "An error from the deliverable and template endpoints: a code and a message" });

const issue = z.object({ field: z.string().meta({ description: "Dotted path of the offending input, e.g. limit or urls.0" }), message: z.string() });
/** 7.2, 7.3: a request that fails validation. */
export const validationErrorBody = z
  .object({ message, type: z.literal("ValidationError"), data: z.object({ errors: z.array(issue) }) })
  .meta({ id: "ValidationErrorBody", description: "Every field problem at once, each naming its field" });
/** 7.3: `{ error: "Webhook not found" }`, `{ error: "Cannot test inactive webhook" }`. */
export const simpleErrorBody = z
  .object({ error: message })
  .meta({ id: "SimpleError", description: "A resource that does not exist, or a request its state refuses" });
/** 7.3: a name or other unique value already taken; `data` says which. */
export const conflictErrorBody = z
  .object({ message, error: code, data: z.record(z.string(), z.unknown()).meta({ description: "What conflicts, e.g. { constraint, orgId, name }" }) })
  .meta({ id: "ConflictError" });
/** Template-listing and webhook errors with no shape of their own (rate limit, server error). */
export const typedErrorBody = z.object({ message, type: code }).meta({ id: "TypedError" });

/** 7.4: message equals error and type equals code. */
export const signingErrorBody = z
  .object({ message, type: code, error: message, code })
  .meta({ id: "SigningError", description: "An error from the signing endpoints: message equals error, type equals code" });
/** 7.4: a key whose role may not do this gets a plain 403. */
export const plainForbiddenBody = z.object({ message: z.literal("Forbidden") }).meta({ id: "PlainForbidden" });

export type DocumentedFamily = Exclude<ErrorFamily, "signer">;

/**
 * The body each family sends for a status; null for the empty 401/403 of the listing and webhook
 * families (7.2, 7.3).
 */
export function errorBodyFor(family: DocumentedFamily, status: number): z.ZodType | null {
  switch (family) {
    case "deliverable":
      return errorBody;
    case "listing":
    case "webhook":
      if (status === 401 || status === 403) return null;
      if (status === 400) return z.union([validationErrorBody, simpleErrorBody]);
      if (status === 404) return simpleErrorBody;
      if (status === 409) return conflictErrorBody;
      return typedErrorBody;
    case "signing":
      if (status === 403) return z.union([signingErrorBody, plainForbiddenBody]);
      // DocumentNotFound is `{ message, type }`; RecipientNotFound carries the full body.
      if (status === 404) return z.union([signingErrorBody, typedErrorBody]);
      return signingErrorBody;
  }
}

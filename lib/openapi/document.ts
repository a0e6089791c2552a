// Renders the operation registry into an OpenAPI 3.1 document. zod-openapi does the schema work on
// top of zod 4's own z.toJSONSchema (draft 2020-12): request schemas render as their input side,
// response schemas as their output side, and schemas with `.meta({ id })` become
// components/schemas referenced by $ref.
import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from "zod-openapi";
import pkg from "@/package.json";
import { identityVerificationDoc } from "@/lib/esign/schemas";
import { errorBodyFor } from "@/lib/http/error-schemas";
import { operations } from "@/lib/openapi/operations";
import { TAGS, type Operation } from "@/lib/openapi/types";
import { WEBHOOK_EVENT_PAYLOADS, webhookEventSchema } from "@/lib/webhooks/responses";
import { AVAILABLE_EVENTS } from "@/lib/webhooks/webhooks";

export type OpenApiDocument = ReturnType<typeof createDocument>;

const STATUS_TEXT: Record<number, string> = {
  400: "Validation error, or a request the resource's state refuses",
  401: "Missing or invalid API key, or the organization cannot be resolved",
  402: "The plan does not include this, or its allowance is used up",
  403: "The key's role may not do this, a license feature is missing, or the organization id is not the key's",
  404: "Not found",
  409: "Conflict with the resource's current state",
  410: "Gone",
  422: "A field constraint is violated (length limits, quotas)",
  423: "Locked",
  429: "Rate limit exceeded; Retry-After says when to try again",
  499: "The client closed the request during generation; nothing was kept",
  503: "Unavailable",
};

const PATH_PARAMS: Record<string, string> = {
  id: "The resource's id (UUID)",
  deliverableId: "The deliverable's id (UUID)",
  recipientId: "The recipient's id (UUID)",
  deliveryId: "The delivery's id (UUID)",
  name: "The webhook's name (every client library uses signature)",
  token: "The signed link's token, as handed out",
};

function pathParams(path: string) {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (!names.length) return undefined;
  return z.object(Object.fromEntries(names.map((n) => [n, z.string().meta({ description: PATH_PARAMS[n] ?? n })])));
}

function errorStatuses(op: Operation): number[] {
  if (op.onlyErrors) return op.onlyErrors;
  const keyed = op.auth ? [401, 403, 429] : [];
  const idempotency = op.idempotent ? Object.keys(IDEMPOTENCY_ERRORS).map(Number) : [];
  return [...new Set([...keyed, ...(op.errors ?? []), ...idempotency, ...Object.keys(op.errorBodies ?? {}).map(Number)])].sort((a, b) => a - b);
}

// docs/contract.md "Idempotency": the header, the replay marker and the two refusals, on each operation that honours it.
const IDEMPOTENCY_HEADER = z.object({
  "Idempotency-Key": z.string().min(1).max(255).optional().meta({
    description:
      "1-255 printable characters. The same key from the same organization with the same body within 24 hours returns the first reply (status and body) without doing the work again.",
  }),
});
const IDEMPOTENCY_ERRORS: Record<number, string> = {
  400: "InvalidIdempotencyKey: the Idempotency-Key is empty, too long or not printable",
  409: "IdempotencyKeyInFlight: a request with this Idempotency-Key is still running",
  422: "IdempotencyKeyReused: this Idempotency-Key was used with another body",
};
const REPLAYED_HEADER = {
  "Idempotent-Replayed": {
    description: "true when this is the stored reply to an earlier request with the same Idempotency-Key",
    schema: { type: "string" as const, enum: ["true"] },
  },
};

function responses(op: Operation): ZodOpenApiResponsesObject {
  const out: Record<string, ZodOpenApiResponseObject> = {};
  const { success } = op;
  // A file download may also answer JSON (a link to the file), so both kinds of content can be listed.
  const content = {
    ...(success.file ? Object.fromEntries(success.file.map((type) => [type, { schema: { type: "string" as const, contentMediaType: type } }])) : {}),
    ...(success.json ? { "application/json": { schema: success.json } } : {}),
  };
  const headers = { ...success.headers, ...(op.idempotent ? REPLAYED_HEADER : {}) };
  out[`${success.status}`] = {
    description: success.description,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
  for (const status of errorStatuses(op)) {
    const specific = op.errorBodies?.[status];
    const schema = specific?.json ?? (op.auth ? errorBodyFor(op.auth.family, status) : null);
    const general = specific?.description ?? STATUS_TEXT[status] ?? "Error";
    const idempotency = op.idempotent ? IDEMPOTENCY_ERRORS[status] : undefined;
    out[`${status}`] = {
      description: idempotency ? `${general}; ${idempotency}` : general,
      ...(status === 429 ? { headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } } } : {}),
      ...(schema ? { content: { "application/json": { schema } } } : {}),
    };
  }
  return out;
}

function roleNote(op: Operation): string {
  if (!op.auth) return "Public: no API key.";
  const roles = op.auth.roles.length === 4 ? "any role" : `role ${op.auth.roles.join(", ")}`;
  return `Needs an API key with ${roles}${op.auth.feature ? ` and the license feature ${op.auth.feature}` : ""}.`;
}

function operationObject(op: Operation): ZodOpenApiOperationObject {
  const path = pathParams(op.path);
  const content: Record<string, { schema: z.ZodType }> = {};
  if (op.body?.json) content["application/json"] = { schema: op.body.json };
  if (op.body?.multipart) content["multipart/form-data"] = { schema: op.body.multipart };
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: [op.description, roleNote(op)].filter(Boolean).join("\n\n"),
    tags: [op.tag],
    ...(op.deprecated ? { deprecated: true } : {}),
    ...(op.auth ? {} : { security: [] }),
    ...(path || op.query || op.idempotent
      ? { requestParams: { ...(path ? { path } : {}), ...(op.query ? { query: op.query } : {}), ...(op.idempotent ? { header: IDEMPOTENCY_HEADER } : {}) } }
      : {}),
    ...(op.body ? { requestBody: { required: op.body.required ?? false, ...(op.body.description ? { description: op.body.description } : {}), content } } : {}),
    responses: responses(op),
  };
}

/**
 * Receivers' side (docs/contract.md "Webhooks"): what Quire posts for each event type, with that event's
 * data schema (lib/webhooks/responses.ts WEBHOOK_EVENT_PAYLOADS: adding an event there documents it here).
 */
function webhookCalls(): ZodOpenApiPathsObject {
  const header = (name: string, description: string) => ({ in: "header" as const, name, required: true, description, schema: { type: "string" as const } });
  return Object.fromEntries(
    AVAILABLE_EVENTS.map((event) => [
      event,
      {
        post: {
          summary: `The ${event} event`,
          description: `${WEBHOOK_EVENT_PAYLOADS[event].description}\n\nSent to every URL of each active webhook subscribed to the event. Verify X-Service-Signature with the webhook's secret, or the Standard Webhooks headers with standardSecret (any Standard Webhooks library); reject timestamps older than five minutes. The event id (body id, webhook-id) stays the same across retries and replays: use it to drop duplicates. A 2xx answer means delivered; 410 Gone pauses the webhook; otherwise Quire retries (at most 6 attempts).`,
          parameters: [
            header("X-Service-Event", "The event type"),
            header("X-Service-Delivery", "The delivery id"),
            header("X-Service-Timestamp", "Unix seconds"),
            header("X-Service-Signature", 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the secret>'),
            header("webhook-id", "Standard Webhooks: the event id"),
            header("webhook-timestamp", "Standard Webhooks: unix seconds"),
            header(
              "webhook-signature",
              'Standard Webhooks: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>"> keyed by the secret\'s 32 bytes',
            ),
          ],
          requestBody: { required: true, content: { "application/json": { schema: webhookEventSchema(event) } } },
          responses: { "200": { description: "Any 2xx: delivered" }, "410": { description: "Gone: Quire pauses the webhook and stops delivering to it" } },
        },
      },
    ]),
  );
}

function build(baseUrl: string): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    item[op.method] = operationObject(op);
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Quire API",
      version: pkg.version,
      description:
        "Document generation from templates, embedded e-signing and signature webhooks. JSON over HTTPS except file downloads. Send `Authorization: Bearer <API key>` and `x-service-org-id: <organization id>` on every keyed request.",
      license: { name: "AGPL-3.0-only", identifier: "AGPL-3.0-only" },
    },
    servers: [{ url: baseUrl }],
    tags: TAGS.map((t) => ({ ...t })),
    security: [{ apiKey: [], organization: [] }],
    paths,
    webhooks: webhookCalls(),
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key from the dashboard's API keys page: `Authorization: Bearer <API key>`" },
        organization: { type: "apiKey", in: "header", name: "x-service-org-id", description: "The key's own organization id; any other value is 403" },
      },
      schemas: { IdentityVerification: identityVerificationDoc },
    },
  });
}

const cache = new Map<string, OpenApiDocument>();

/** The document for this base URL (built once: the registry does not change at run time). */
export function openApiDocument(baseUrl: string): OpenApiDocument {
  let doc = cache.get(baseUrl);
  if (!doc) cache.set(baseUrl, (doc = build(baseUrl)));
  return doc;
}

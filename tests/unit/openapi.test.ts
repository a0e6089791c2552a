// The OpenAPI document: valid OpenAPI 3.1, every schema a valid JSON Schema, every public REST
// route file documented (and nothing documented that has no route), error bodies as lib/http/errors.ts
// really sends them.
import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import {
  ClientClosedError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  UnprocessableError,
  ValidationError,
  BadRequestError,
  type QuireError,
} from "@/lib/errors";
import { SigningRuleError } from "@/lib/esign/errors";
import { errorResponse } from "@/lib/http/errors";
import { openApiDocument } from "@/lib/openapi/document";
import { operationGroups, operations } from "@/lib/openapi/operations";
import { AVAILABLE_EVENTS } from "@/lib/webhooks/webhooks";
import { describeErrors, openApiValidator } from "@/tests/support/openapi";

const root = path.resolve(__dirname, "../..");
const doc = openApiDocument("https://quire.example");

/**
 * Route files that are not part of the public REST API, and why. A new route file must either be
 * declared in its area's operations.ts (gathered by lib/openapi/operations.ts) or be listed here.
 */
const NOT_PUBLIC_REST: Record<string, string> = {
  "/api/auth/{...nextauth}": "next-auth's dashboard login",
  "/api/dashboard/": "dashboard-only, authenticated by the login session",
  "/api/internal/": "test-only (clock, seed), off in production",
  "/api/cron/webhooks": "the scheduler's call (CRON_SECRET), not a client API",
  "/api/signer/": "the hosted signing page's own endpoints (the link's token is the credential)",
  "/sign/open": "where signing URLs open in a browser: a redirect, not JSON",
  "/embed.js": "the embed script asset",
  "/api/branding/logo/{hash}": "an organization's logo image for its signing page and emails (by its SHA-256)",
};

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [full] : [];
  });
}

/** app/v1/deliverable/[id]/route.ts -> /v1/deliverable/{id}; route groups (x) vanish. */
function apiPath(file: string): string {
  const segments = path.relative(path.join(root, "app"), path.dirname(file)).split(path.sep);
  return (
    "/" +
    segments
      .filter((s) => !/^\(.*\)$/.test(s))
      .map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))
      .join("/")
  );
}

function exportedMethods(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  return METHODS.filter((m) => new RegExp(`export\\s+(const|async\\s+function|function)\\s+${m}\\b`).test(source));
}

const routes = routeFiles(path.join(root, "app")).map((file) => ({ file: path.relative(root, file), path: apiPath(file), methods: exportedMethods(file) }));
const isPublicRest = (p: string) => !Object.keys(NOT_PUBLIC_REST).some((prefix) => (prefix.endsWith("/") ? p.startsWith(prefix) : p === prefix));

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "https://quire.example" }]);
  });

  it("has a valid draft 2020-12 JSON Schema wherever it names one", () => {
    expect(openApiValidator(doc).compileAll()).toBeGreaterThan(100);
  });

  it("asks for the API key and organization header, except on public operations", () => {
    expect(doc.components?.securitySchemes).toMatchObject({
      apiKey: { type: "http", scheme: "bearer" },
      organization: { type: "apiKey", in: "header", name: "x-service-org-id" },
    });
    expect(doc.security).toEqual([{ apiKey: [], organization: [] }]);
    const publicOps = Object.entries(doc.paths ?? {}).flatMap(([p, item]) =>
      Object.entries(item as Record<string, { security?: unknown[] }>)
        .filter(([, op]) => Array.isArray(op.security) && op.security.length === 0)
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    // The signed file link is keyless: its token is the credential.
    expect(publicOps.sort()).toEqual(["GET /api/health", "GET /api/openapi.json", "GET /api/ready", "GET /esign/files/{token}"]);
  });

  it("has each route handler bind its own record, so roles, family and schemas are declared once", () => {
    const unbound: string[] = [];
    for (const [group, records] of Object.entries(operationGroups))
      for (const op of Object.values(records)) {
        const route = routes.find((r) => r.path === op.path);
        const source = route ? fs.readFileSync(path.join(root, route.file), "utf8") : "";
        // apiRoute(<group>.<id>, …) or publicRoute(<group>.<id>, …): the route takes its record.
        const binding = new RegExp(`\\b(apiRoute|publicRoute)\\(\\s*${group}\\.${op.operationId}\\b`);
        if (!binding.test(source)) unbound.push(`${op.method.toUpperCase()} ${op.path} (${group}.${op.operationId})`);
      }
    expect(unbound, "routes that do not bind their operation record").toEqual([]);
    // And nothing declares roles by hand any more.
    const handRolled = routes.filter((r) => /apiRoute(<[^>]*>)?\(\s*\{/.test(fs.readFileSync(path.join(root, r.file), "utf8")));
    expect(handRolled.map((r) => r.file)).toEqual([]);
  });

  it("documents every public REST route file, and only those", () => {
    const routed = new Set(routes.filter((r) => isPublicRest(r.path)).flatMap((r) => r.methods.map((m) => `${m} ${r.path}`)));
    const documented = new Set(operations.map((op) => `${op.method.toUpperCase()} ${op.path}`));
    expect(
      [...routed].filter((k) => !documented.has(k)),
      "route handlers without an operation in lib/openapi/operations.ts",
    ).toEqual([]);
    expect(
      [...documented].filter((k) => !routed.has(k)),
      "documented operations without a route handler",
    ).toEqual([]);
    // And every exclusion still names something that exists.
    for (const prefix of Object.keys(NOT_PUBLIC_REST))
      expect(
        routes.some((r) => (prefix.endsWith("/") ? r.path.startsWith(prefix) : r.path === prefix)),
        prefix,
      ).toBe(true);
  });

  it("covers every endpoint the contract names", () => {
    const documented = new Set(operations.map((op) => `${op.method.toUpperCase()} ${op.path}`));
    const contract = [
      "GET /v1/deliverable",
      "POST /v1/deliverable",
      "GET /v1/deliverable/{id}",
      "PATCH /v1/deliverable/{id}",
      "DELETE /v1/deliverable/{id}",
      "GET /v1/deliverable/file/{deliverableId}",
      "GET /v1/deliverable/file/pdf/{deliverableId}",
      "GET /template-item",
      "POST /esign/documents/{id}/signing-url",
      "GET /esign/embedded-signing-settings",
      "POST /esign/documents/{id}/resend-email",
      "GET /esign/documents/{id}/recipients/{recipientId}/signing-link",
      "POST /api/webhooks",
      "PATCH /api/webhooks/{name}",
      "POST /api/webhooks/{name}/test",
      "GET /api/webhooks/{name}",
      "DELETE /api/webhooks/{name}",
      "POST /api/webhooks/{name}/regenerate-secret",
      "GET /api/webhooks/{name}/deliveries",
      "POST /api/webhooks/{name}/deliveries/{deliveryId}/replay",
    ];
    expect(contract.filter((k) => !documented.has(k))).toEqual([]);
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
  });

  it("marks the deprecated signing-link endpoint with its headers", () => {
    const op = (
      doc.paths?.["/esign/documents/{id}/recipients/{recipientId}/signing-link"] as Record<
        string,
        { deprecated?: boolean; responses: Record<string, { headers?: object }> }
      >
    ).get;
    expect(op.deprecated).toBe(true);
    expect(Object.keys(op.responses["200"].headers ?? {})).toEqual(["Deprecation", "Link"]);
  });

  it("describes the error bodies each family really sends", async () => {
    const v = openApiValidator(doc);
    // One operation per family, and the errors lib/http/errors.ts makes for it.
    const cases: { op: [string, string]; family: "deliverable" | "listing" | "webhook" | "signing"; errors: QuireError[] }[] = [
      {
        op: ["post", "/v1/deliverable"],
        family: "deliverable",
        errors: [
          new ValidationError("bad", [{ field: "name", message: "is required" }]),
          new UnauthenticatedError(),
          new ForbiddenError(),
          new NotFoundError("Template not found", "TemplateNotFound"),
          new UnprocessableError("too long", "FieldTooLong"),
          new RateLimitedError(3),
          new ClientClosedError(),
        ],
      },
      {
        op: ["patch", "/template/{id}"],
        family: "listing",
        errors: [
          new ValidationError("bad", [{ field: "name", message: "must not be empty" }]),
          new UnauthenticatedError(),
          new ForbiddenError(),
          new NotFoundError("Template not found", "TemplateNotFound"),
          new RateLimitedError(3),
        ],
      },
      {
        op: ["patch", "/api/webhooks/{name}"],
        family: "webhook",
        errors: [
          new ValidationError("bad", [{ field: "urls.0", message: "must be https" }]),
          new BadRequestError("Cannot test inactive webhook", "WebhookInactive"),
          new NotFoundError("Webhook not found", "WebhookNotFound"),
          new ConflictError('A webhook named "signature" is already active', "WebhookNameTaken", {
            constraint: "webhook_active_name_key",
            orgId: "o",
            name: "signature",
          }),
          new UnauthenticatedError(),
          new ForbiddenError(),
        ],
      },
      {
        op: ["post", "/esign/documents/{id}/signing-url"],
        family: "signing",
        errors: [
          new ValidationError("bad", [{ field: "recipientId", message: "x" }]),
          new SigningRuleError("validation", "exactly one of recipientId and externalId", "RecipientSelectorInvalid"),
          new SigningRuleError("payment_required", "no", "OtpNotEntitled"),
          new ForbiddenError("This action requires one of the roles: administrator, contributor", "MissingRole"),
          new SigningRuleError("forbidden", "off", "EmbeddedSigningNotEnabled"),
          new NotFoundError("Document not found", "DocumentNotFound"),
          new SigningRuleError("not_found", "no such recipient", "RecipientNotFound"),
          new SigningRuleError("conflict", "not signable", "DocumentNotSignable"),
          new SigningRuleError("locked", "locked", "locked"),
          new UnauthenticatedError(),
          new RateLimitedError(1),
        ],
      },
    ];
    for (const c of cases) {
      for (const err of c.errors) {
        const res = errorResponse(err, c.family);
        const text = await res.text();
        const label = `${c.family} ${err.code} -> ${res.status}`;
        const op = (doc.paths?.[c.op[1]] as Record<string, { responses: Record<string, { content?: object }> }>)[c.op[0]];
        expect(op.responses[String(res.status)], `${label}: status not documented`).toBeDefined();
        if (!text) {
          expect(op.responses[String(res.status)].content, `${label}: empty body documented as JSON`).toBeUndefined();
          continue;
        }
        const errors = v.responseErrors(c.op[0], c.op[1], res.status, JSON.parse(text));
        expect(errors, `${label}: ${describeErrors(errors)}`).toEqual([]);
      }
    }
  });

  it("serves components for the API's resource shapes", () => {
    const names = Object.keys(doc.components?.schemas ?? {});
    for (const n of [
      "DeliverableListItem",
      "Deliverable",
      "CreatedDeliverable",
      "Variable",
      "Tag",
      "TemplateItem",
      "Webhook",
      "WebhookWithSecret",
      "WebhookDelivery",
      "IdentityVerification",
      "SigningUrlResult",
      "EmbeddedSigningSettings",
      "SigningRecipientInput",
    ]) {
      expect(names).toContain(n);
    }
  });

  it("documents the download as a PDF or a JSON link, and the keyless link's own errors", () => {
    const download = (doc.paths?.["/esign/documents/{id}/download"] as { get: { responses: Record<string, { content?: Record<string, unknown> }> } }).get;
    expect(Object.keys(download.responses["200"].content ?? {}).sort()).toEqual(["application/json", "application/pdf"]);
    expect(JSON.stringify(download.responses["200"].content?.["application/json"])).toMatch(/DownloadLink/);
    const linked = (doc.paths?.["/esign/files/{token}"] as { get: { responses: Record<string, { description: string }> } }).get;
    expect(Object.keys(linked.responses).sort()).toEqual(["200", "403", "410"]);
    expect(linked.responses["410"].description).toMatch(/FileLinkExpired/);
  });

  it("documents each webhook event with its own data schema, keyed by event name, and the Standard Webhooks headers", () => {
    const webhooks = doc.webhooks as Record<
      string,
      { post: { parameters: { name: string }[]; requestBody: { content: Record<string, { schema: unknown }> } } }
    >;
    expect(Object.keys(webhooks).sort()).toEqual([...AVAILABLE_EVENTS].sort());
    const components = doc.components?.schemas as Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    for (const event of AVAILABLE_EVENTS) {
      const post = webhooks[event].post;
      expect(post.parameters.map((p) => p.name)).toEqual(
        expect.arrayContaining(["X-Service-Signature", "webhook-id", "webhook-timestamp", "webhook-signature"]),
      );
      const body = post.requestBody.content["application/json"].schema as { properties: { event: { const: string }; data: { $ref: string } } };
      expect(body.properties.event.const).toBe(event);
      const data = components[body.properties.data.$ref.replace("#/components/schemas/", "")];
      expect(data.required, event).toEqual(expect.arrayContaining(["documentId", "name"]));
    }
    const signed = components.DocumentRecipientSignedEventData;
    expect(signed.required).toEqual(expect.arrayContaining(["recipientId", "isFinalSigner", "remainingSigners"]));
    expect(components.DocumentCompletedEventData.required).toContain("documentHash");
  });

  it("documents Idempotency-Key, Idempotent-Replayed, 409 and 422 on exactly the operations whose route honours it", () => {
    // apiRoute honours Idempotency-Key exactly where the record says idempotent (and routes bind their records: above).
    const honoured = operations
      .filter((op) => op.idempotent)
      .map((op) => `${op.method.toUpperCase()} ${op.path}`)
      .sort();
    expect(honoured).toEqual([
      "POST /api/webhooks/{name}/test",
      "POST /esign/documents/{id}/signing-url",
      "POST /esign/single/prepare-for-review",
      "POST /esign/single/prepare-for-signing",
      "POST /v1/deliverable",
    ]);
    type Op = { parameters?: { name: string; in: string }[]; responses: Record<string, { description: string; headers?: Record<string, unknown> }> };
    const documented = Object.entries(doc.paths ?? {})
      .flatMap(([p, item]) => Object.entries(item as Record<string, Op>).map(([m, op]) => [`${m.toUpperCase()} ${p}`, op] as const))
      .filter(([, op]) => op.parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key"));
    expect(documented.map(([k]) => k).sort()).toEqual(honoured);
    for (const [key, op] of documented) {
      const success = Object.entries(op.responses).find(([status]) => status.startsWith("2"))![1];
      expect(Object.keys(success.headers ?? {}), key).toContain("Idempotent-Replayed");
      expect(op.responses["409"].description, key).toMatch(/IdempotencyKeyInFlight/);
      expect(op.responses["422"].description, key).toMatch(/IdempotencyKeyReused/);
    }
  });
});

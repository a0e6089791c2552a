// An example call for each operation of the OpenAPI document, built from the same schemas the server
// validates with: a curl command and, for JSON bodies, a sample body (examples, defaults and enums first,
// then a placeholder per type). Shown by the dashboard's API reference.
import type { oas31 } from "zod-openapi";

type Schema = oas31.SchemaObject | oas31.ReferenceObject;

function resolve(doc: oas31.OpenAPIObject, schema: Schema): oas31.SchemaObject {
  if (!("$ref" in schema) || !schema.$ref) return schema as oas31.SchemaObject;
  const name = schema.$ref.split("/").pop() as string;
  return (doc.components?.schemas?.[name] ?? {}) as oas31.SchemaObject;
}

/** A plausible value for `schema`: its example, default or first enum value, else one per type (required properties only). */
export function sampleValue(doc: oas31.OpenAPIObject, raw: Schema, depth = 0, key = ""): unknown {
  const schema = resolve(doc, raw);
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const choice = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema.allOf?.[0];
  if (choice) return sampleValue(doc, choice, depth + 1, key);
  if (depth > 6) return null;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key)) out[key] = sampleValue(doc, value, depth + 1, key);
      }
      return out;
    }
    case "array":
      return schema.items ? [sampleValue(doc, schema.items as Schema, depth + 1, key.replace(/s$/, ""))] : [];
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    case "string":
      if (schema.format === "uuid") return "00000000-0000-4000-8000-000000000000";
      if (schema.format === "uri" || schema.format === "url") return "https://example.com/";
      if (schema.format === "email") return "ada@example.com";
      if (schema.format === "date-time") return "2026-01-31T12:00:00Z";
      // By the property's name, so the sample reads like a real call.
      if (/email/i.test(key)) return "ada@example.com";
      if (/url/i.test(key)) return "https://example.com/webhook";
      if (/id$/i.test(key)) return "00000000-0000-4000-8000-000000000000";
      if (/name/i.test(key)) return "Example";
      return "text";
    default:
      return null;
  }
}

export interface OperationExample {
  /** The JSON body to send, pretty-printed; null for an operation without one (or a file upload). */
  jsonBody: string | null;
  /** Multipart form fields of an upload, each as curl's -F argument. */
  formFields: string[];
  curl: string;
}

/** The example call of one operation, with the caller's organization id already filled in. */
export function operationExample(
  doc: oas31.OpenAPIObject,
  baseUrl: string,
  orgId: string,
  method: string,
  path: string,
  op: oas31.OperationObject,
): OperationExample {
  const body = op.requestBody as oas31.RequestBodyObject | undefined;
  const json = body?.content["application/json"]?.schema;
  const multipart = body?.content["multipart/form-data"]?.schema;
  const jsonBody = json ? JSON.stringify(sampleValue(doc, json), null, 2) : null;
  // An operation taking JSON or a form is shown with JSON; a file upload with its form fields.
  const formFields =
    multipart && !json
      ? Object.entries(resolve(doc, multipart).properties ?? {})
          .filter(([name]) => resolve(doc, multipart).required?.includes(name))
          .map(([name, schema]) => {
            const s = resolve(doc, schema);
            const binary = s.format === "binary" || s.contentMediaType !== undefined;
            return binary ? `${name}=@./your-file` : `${name}=${JSON.stringify(sampleValue(doc, s, 0, name))}`;
          })
      : [];
  const query = ((op.parameters ?? []) as oas31.ParameterObject[]).filter((p) => p.in === "query" && p.required);
  const url = `${baseUrl}${path}${query.length ? `?${query.map((p) => `${p.name}=${encodeURIComponent(String(sampleValue(doc, p.schema ?? {})))}`).join("&")}` : ""}`;
  const lines = [`curl -X ${method.toUpperCase()} '${url}'`];
  if (op.security === undefined || op.security.length > 0) {
    lines.push(`-H 'Authorization: Bearer <API key>'`, `-H 'x-service-org-id: ${orgId}'`);
  }
  if (jsonBody) lines.push(`-H 'Content-Type: application/json'`, `-d '${jsonBody.replace(/'/g, "'\\''")}'`);
  for (const field of formFields) lines.push(`-F '${field.replace(/'/g, "'\\''")}'`);
  return { jsonBody, formFields, curl: lines.join(" \\\n  ") };
}

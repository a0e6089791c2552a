// zod at the edge: turn query strings and bodies into typed input or a ValidationError that lists
// every problem (field + message), never just the first.
import { refuseUnstorable, unstorableJson } from "@/lib/http/text-safety";
import type { z, ZodError } from "zod";
import { NotFoundError, ValidationError, type ValidationIssue } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

export function zodIssues(err: ZodError): ValidationIssue[] {
  return err.issues.map((i) => ({ field: i.path.map(String).join(".") || "(root)", message: i.message }));
}

function fail(err: ZodError, what: string): never {
  const issues = zodIssues(err);
  throw new ValidationError(`Invalid ${what}: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`, issues);
}

/** Query parameters: repeated keys become arrays, single keys stay strings. */
export function parseQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): z.infer<S> {
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    // `tags[]=a&tags[]=b` (PHP/axios style) means the same as `tags=a&tags=b`.
    const name = key.endsWith("[]") ? key.slice(0, -2) : key;
    const all = [...(Array.isArray(raw[name]) ? raw[name] : raw[name] !== undefined ? [raw[name] as string] : []), ...params.getAll(key)];
    raw[name] = all.length > 1 ? all : all[0];
  }
  const result = schema.safeParse(raw);
  return result.success ? result.data : fail(result.error, "query parameters");
}

export async function parseJsonBody<S extends z.ZodType>(schema: S, req: Request): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    const text = await req.text();
    raw = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new ValidationError("Request body is not valid JSON", [{ field: "(body)", message: "not valid JSON" }]);
  }
  refuseUnstorable(unstorableJson(raw));
  const result = schema.safeParse(raw);
  return result.success ? result.data : fail(result.error, "request body");
}

/** Validates an already-assembled object (e.g. multipart fields). */
export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  refuseUnstorable(unstorableJson(raw));
  const result = schema.safeParse(raw);
  return result.success ? result.data : fail(result.error, "request");
}

/** A path id that is not a UUID cannot name anything: it is a 404, not a 400. */
export function requireUuid(value: string, message: string, code: string): string {
  if (!isUuid(value)) throw new NotFoundError(message, code);
  return value.toLowerCase();
}

// zod at the edge: turn query strings and bodies into typed input or a ValidationError that lists
// every problem (field + message), never just the first.
import type { z, ZodError } from "zod";
import { ValidationError, type ValidationIssue } from "@/lib/errors";

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
    const all = params.getAll(key);
    raw[key] = all.length > 1 ? all : all[0];
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
  const result = schema.safeParse(raw);
  return result.success ? result.data : fail(result.error, "request body");
}

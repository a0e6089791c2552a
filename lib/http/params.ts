// Reusable zod pieces for query strings, where every value arrives as a string.
import { z } from "zod";

/**
 * How a parameter reads in the API document: the integer or boolean it stands for, rather than
 * the string pattern the parser checks (query values are always strings on the wire).
 */
function documentedAs(schema: Record<string, unknown>) {
  return {
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      Object.assign(jsonSchema, schema);
    },
  };
}

export function intParam(defaultValue: number, min: number, max: number) {
  return z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .optional()
    .transform((v) => v ?? defaultValue)
    .meta(documentedAs({ type: "integer", minimum: min, maximum: max, default: defaultValue }));
}

export function boolParam(defaultValue: boolean) {
  return (
    z
      // Case-insensitive: Python clients send True/False.
      .preprocess((v) => (typeof v === "string" ? v.toLowerCase() : v), z.enum(["true", "false", "1", "0"], { message: "must be true or false" }).optional())
      .transform((v) => (v === undefined ? defaultValue : v === "true" || v === "1"))
      .meta(documentedAs({ type: "boolean", default: defaultValue }))
  );
}

/** One id, repeated ids, or a comma-separated list; every entry must be a UUID. */
export const uuidListParam = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) =>
    (v === undefined ? [] : Array.isArray(v) ? v : [v])
      .flatMap((s) => s.split(","))
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.uuid({ message: "must be a tag id (UUID)" })))
  .meta({ description: "One tag id, the parameter repeated, or a comma-separated list; every listed tag must match" });

/** order0 of the lists that sort by column0. */
export const sortOrderParam = z.enum(["asc", "desc"], { message: "must be asc or desc" }).optional();

// Reusable zod pieces for query strings, where every value arrives as a string.
import { z } from "zod";

export function intParam(defaultValue: number, min: number, max: number) {
  return z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .optional()
    .transform((v) => v ?? defaultValue);
}

export function boolParam(defaultValue: boolean) {
  return z
    .enum(["true", "false", "1", "0"], { message: "must be true or false" })
    .optional()
    .transform((v) => (v === undefined ? defaultValue : v === "true" || v === "1"));
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
  .pipe(z.array(z.uuid({ message: "must be a tag id (UUID)" })));

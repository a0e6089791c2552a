// docxtemplater reports template problems as errors carrying `properties` (one, or a "multi_error"
// with a list). They become one ValidationError with a readable line per problem; anything else is
// a bug in our code and is rethrown untouched.
import { QuireError, ValidationError } from "@/lib/errors";

interface TemplaterError {
  message?: string;
  properties?: { id?: string; explanation?: string; file?: string; xtag?: string; errors?: TemplaterError[] };
}

const MAX_LISTED = 20;

export function toRenderError(err: unknown): unknown {
  if (err instanceof QuireError) return err;
  const e = err as TemplaterError;
  if (!e || typeof e !== "object" || !e.properties) return err;
  const errors = e.properties.id === "multi_error" ? (e.properties.errors ?? []) : [e];
  const messages = errors.slice(0, MAX_LISTED).map(describe);
  const message =
    messages.length === 1
      ? `The document could not be generated: ${messages[0]}`
      : `The document could not be generated (${errors.length} problems): ${messages.slice(0, 3).join("; ")}${errors.length > 3 ? "; …" : ""}`;
  return new ValidationError(
    message,
    messages.map((m) => ({ field: "template", message: m })),
    "RenderError",
  );
}

function describe(err: TemplaterError): string {
  const p = err.properties ?? {};
  const text = p.explanation ?? err.message ?? "unknown template error";
  return p.file ? `${text} (${p.file})` : text;
}

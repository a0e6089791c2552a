// The one place where domain errors become HTTP responses. Each endpoint family of
// docs/contract.md "Error bodies" has its own body shape; statuses follow the error's kind.
import { ZodError } from "zod";
import { QuireError, RateLimitedError, ValidationError, type ErrorKind } from "@/lib/errors";
import { zodIssues } from "@/lib/http/validation";
import { type Language, signerErrorText } from "@/lib/i18n";
import { log } from "@/lib/log";
import { jsonReply } from "@/lib/http/json-reply";

/**
 * deliverable: `{ error, message }` (7.1; also used by our own management endpoints)
 * listing:     template listing and webhooks (7.2, 7.3): 401/403 empty, 400 `{ message, type, data: { errors } }`
 * signing:     `{ message, type, error, code }` (7.4)
 * signer:      signer-facing passcode endpoints, `{ error, code }` with lowercase codes; `error` in the
 *              signing page's language when it names one (x-signer-language)
 */
export type ErrorFamily = "deliverable" | "listing" | "webhook" | "signing" | "signer";

const STATUS: Record<ErrorKind, number> = {
  validation: 400,
  bad_request: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  unprocessable: 422,
  locked: 423,
  rate_limited: 429,
  client_closed: 499,
  unavailable: 503,
};

function lowerCode(code: string): string {
  return code.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

function body(err: QuireError, family: ErrorFamily, status: number, lang?: Language): Record<string, unknown> | null {
  const issues = err instanceof ValidationError ? err.issues : [];
  switch (family) {
    case "deliverable":
      return { error: err.code, message: err.message };
    case "listing":
    case "webhook":
      if (status === 401 || status === 403) return null;
      if (err.kind === "validation") return { message: err.message, type: "ValidationError", data: { errors: issues } };
      if (err.kind === "bad_request" || err.kind === "not_found") return { error: err.message };
      if (err.kind === "conflict") return { message: err.message, error: err.code, data: err.data ?? {} };
      return { message: err.message, type: err.code };
    case "signing":
      // A key whose role may not do this gets a plain 403 (docs/contract.md "Error bodies"), unlike the coded ones.
      if (err.code === "Forbidden" || err.code === "MissingRole") return { message: "Forbidden" };
      if (err.code === "DocumentNotFound") return { message: err.message, type: err.code };
      return { message: err.message, type: err.code, error: err.message, code: err.code };
    case "signer":
      return { error: lang ? signerErrorText(err, lang) : err.message, code: lowerCode(err.code) };
  }
}

export function errorResponse(err: unknown, family: ErrorFamily, lang?: Language): Response {
  if (err instanceof ZodError) err = new ValidationError("Validation failed", zodIssues(err));
  if (!(err instanceof QuireError)) {
    log.error({ err }, "unhandled error");
    const internal = new InternalError();
    return jsonReply(body(internal, family, 500, lang), { status: 500 });
  }
  const status = STATUS[err.kind];
  const headers = new Headers();
  if (err instanceof RateLimitedError) headers.set("Retry-After", String(err.retryAfterSeconds));
  const payload = body(err, family, status, lang);
  if (payload === null) return new Response(null, { status, headers });
  return jsonReply(payload, { status, headers });
}

class InternalError extends QuireError {
  readonly kind = "unavailable";
  constructor() {
    super("Internal server error", "InternalServerError");
  }
}

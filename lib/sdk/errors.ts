// Errors the SDK throws. QuireApiError: the server answered with a non-2xx status. QuireInputError:
// the SDK refused the input before sending anything (PhoneRequiredForSmsOtp is one).

/** Base class of every error the SDK throws itself. */
export class QuireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * The API answered with an error status. `code` is the machine-readable code of the body when it
 * has one (`code`, else `type`, else an identifier-like `error`: e.g. `OtpPhoneRequired`,
 * `ValidationError`, `WebhookNameTaken`), null for empty bodies (401/403 of the listing and
 * webhook endpoints) and for bodies that carry only a message.
 */
export class QuireApiError extends QuireError {
  readonly status: number;
  readonly code: string | null;
  /** The parsed JSON body, the text when it is not JSON, or null when empty. */
  readonly body: unknown;
  readonly method: string;
  readonly path: string;
  /** Seconds from Retry-After (429). */
  readonly retryAfterSeconds: number | null;
  /**
   * Set by createEmbeddedSignature when the document was already created and sent but a later
   * step (a signing URL) failed: void or retry with this id.
   */
  documentId?: string;

  constructor(init: { status: number; code: string | null; message: string; body: unknown; method: string; path: string; retryAfterSeconds?: number | null }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
    this.method = init.method;
    this.path = init.path;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }
}

/** The SDK refused the input before any request was made. */
export class QuireInputError extends QuireError {
  /** Which input, e.g. `recipients.1.auth`. */
  readonly field: string;
  readonly code: string;

  constructor(message: string, field: string, code = "InvalidInput") {
    super(message);
    this.field = field;
    this.code = code;
  }
}

/**
 * A recipient asks for an SMS passcode but has no phone number (neither `auth.smsOtp.phone` nor
 * `phone`). Thrown before any request, as the server would refuse it with 400 OtpPhoneRequired.
 */
export class PhoneRequiredForSmsOtp extends QuireInputError {
  readonly recipientIndex: number;
  readonly email: string;

  constructor(recipientIndex: number, email: string) {
    super(
      `Recipient ${recipientIndex} (${email}) asks for an SMS passcode but has no phone number`,
      `recipients.${recipientIndex}.phone`,
      "PhoneRequiredForSmsOtp",
    );
    this.recipientIndex = recipientIndex;
    this.email = email;
  }
}

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Builds the error for a non-2xx reply (each endpoint family has its own body shape, docs/contract.md "Error bodies"). */
export function apiErrorFrom(status: number, statusText: string, text: string, method: string, path: string, retryAfter: string | null): QuireApiError {
  let body: unknown = text === "" ? null : text;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      // keep the text
    }
  }
  const obj = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const str = (v: unknown) => (typeof v === "string" && v ? v : null);
  const error = str(obj.error);
  const code = str(obj.code) ?? str(obj.type) ?? (error && IDENTIFIER.test(error) ? error : null);
  const message = str(obj.message) ?? error ?? (typeof body === "string" ? body.slice(0, 500) : null) ?? `HTTP ${status}${statusText ? ` ${statusText}` : ""}`;
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : null;
  return new QuireApiError({ status, code, message, body, method, path, retryAfterSeconds: seconds });
}

// Domain errors. Domain code throws these and knows nothing about HTTP; lib/http/errors.ts maps
// each kind to a status and to the body shape of the endpoint family (docs/contract.md "Error bodies").

export type ErrorKind =
  | "validation"
  | "bad_request"
  | "unauthenticated"
  | "payment_required"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "gone"
  | "unprocessable"
  | "locked"
  | "rate_limited"
  | "client_closed"
  | "unavailable";

export interface ValidationIssue {
  /** Dotted path of the offending input, e.g. "limit" or "variables.0.placeholder". */
  field: string;
  message: string;
}

export abstract class QuireError extends Error {
  abstract readonly kind: ErrorKind;
  /** Stable machine-readable code (e.g. "ValidationError", "WebhookNameTaken"). */
  readonly code: string;
  /** Extra data the contract puts in the body for some errors. */
  readonly data?: Record<string, unknown>;
  constructor(message: string, code: string, data?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.data = data;
  }
}

export class ValidationError extends QuireError {
  readonly kind = "validation";
  readonly issues: ValidationIssue[];
  constructor(message: string, issues: ValidationIssue[] = [], code = "ValidationError") {
    super(message, code);
    this.issues = issues;
  }
}

/** A well-formed request the resource's state refuses, e.g. testing a paused webhook. */
export class BadRequestError extends QuireError {
  readonly kind = "bad_request";
}

export class UnauthenticatedError extends QuireError {
  readonly kind = "unauthenticated";
  constructor(message = "Invalid or missing API key", code = "Unauthorized") {
    super(message, code);
  }
}

export class ForbiddenError extends QuireError {
  readonly kind = "forbidden";
  constructor(message = "Forbidden", code = "Forbidden") {
    super(message, code);
  }
}

export class NotFoundError extends QuireError {
  readonly kind = "not_found";
  constructor(message = "Not found", code = "NotFound") {
    super(message, code);
  }
}

export class ConflictError extends QuireError {
  readonly kind = "conflict";
}

export class UnprocessableError extends QuireError {
  readonly kind = "unprocessable";
}

export class QuotaExceededError extends QuireError {
  readonly kind = "payment_required";
}

export class RateLimitedError extends QuireError {
  readonly kind = "rate_limited";
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("Rate limit exceeded; retry later", "RateLimitExceeded");
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The client went away while we worked; everything started for it has been undone. */
export class ClientClosedError extends QuireError {
  readonly kind = "client_closed";
  constructor() {
    super("Client closed the request; nothing was created", "ClientClosedRequest");
  }
}

export class UnavailableError extends QuireError {
  readonly kind = "unavailable";
}

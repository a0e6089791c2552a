// Signing failures with the codes of docs/contract.md "Error bodies" (and the signer page's own).
import { ConflictError, NotFoundError, QuireError, ValidationError } from "@/lib/errors";

export class DocumentNotFoundError extends NotFoundError {
  constructor() {
    super("Document not found", "DocumentNotFound");
  }
}

export class DocumentNotSignableError extends ConflictError {
  constructor(status: string) {
    super(`The document is ${status} and cannot be signed`, "DocumentNotSignable", { status });
  }
}

/** docs/contract.md "Signing documents": void of a voided (or completed, or fully signed) document is 409. */
export class DocumentNotVoidableError extends ConflictError {
  constructor(status: string) {
    const why = status === "sent" ? "every signer has signed and it is being completed" : `it is ${status}`;
    super(`The document cannot be voided: ${why}`, "DocumentNotVoidable", { status });
  }
}

/** Only a draft can be deleted; anything sent keeps its record (void it instead). */
export class DocumentNotDeletableError extends ConflictError {
  constructor(status: string) {
    super(`Only a draft can be deleted; this document is ${status} (void it instead)`, "DocumentNotDeletable", { status });
  }
}

export class RecipientAlreadySignedError extends ConflictError {
  constructor() {
    super("This recipient has already signed", "RecipientAlreadySigned");
  }
}

export class RecipientNotInTurnError extends ConflictError {
  constructor() {
    super("It is not this recipient's turn: an earlier signer has not signed yet", "RecipientNotInTurn");
  }
}

export class RecipientNotFoundError extends NotFoundError {
  constructor() {
    super("No recipient of this document matches the selector", "RecipientNotFound");
  }
}

export function invalid(message: string, code: string, field = "(body)"): ValidationError {
  return new ValidationError(message, [{ field, message }], code);
}

/** A signing rule with its own 7.4 code and status (identity, passcodes, signing URLs). */
export class SigningRuleError extends QuireError {
  readonly kind;
  constructor(kind: "validation" | "payment_required" | "forbidden" | "not_found" | "conflict" | "gone" | "locked", message: string, code: string) {
    super(message, code);
    this.kind = kind;
  }
}

/** A file link (download or preview) that was altered, cut short or made for another purpose. */
export class FileLinkInvalidError extends QuireError {
  readonly kind = "forbidden";
  constructor() {
    super("This link is not valid: it was altered or is incomplete. Ask for a new one.", "FileLinkInvalid");
  }
}

/** A file link past its expiry, or one whose document no longer has the file it was made for. */
export class FileLinkExpiredError extends QuireError {
  readonly kind = "gone";
  constructor(why: "expired" | "replaced") {
    super(
      why === "expired"
        ? "This link has expired. Ask for a new one."
        : "This link is no longer valid: the document has changed since it was made. Ask for a new one.",
      why === "expired" ? "FileLinkExpired" : "FileLinkReplaced",
    );
  }
}

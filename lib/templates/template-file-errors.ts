// Why an uploaded file is not a usable template: one error type (a 400 validation error naming the file
// field) with a code per reason, shared by the inspection and its ZIP reader.
import { ValidationError, type ValidationIssue } from "@/lib/errors";

export type TemplateFileErrorCode =
  | "TemplateEmpty"
  | "TemplateTooLarge"
  | "TemplateUnsupportedType"
  | "TemplateCorrupt"
  | "TemplateZipBomb"
  | "TemplateTagError";

export class TemplateFileError extends ValidationError {
  declare readonly code: TemplateFileErrorCode;
  constructor(message: string, code: TemplateFileErrorCode, issues: ValidationIssue[] = [{ field: "file", message }]) {
    super(message, issues, code);
  }
}

/** Refused while the upload is still streaming in, before any inspection. */
export function templateTooLarge(maxBytes: number): TemplateFileError {
  return new TemplateFileError(`The file is larger than the ${formatBytes(maxBytes)} limit`, "TemplateTooLarge");
}

export function unsupported(message: string) {
  return new TemplateFileError(message, "TemplateUnsupportedType");
}

export function corrupt(message: string) {
  return new TemplateFileError(message, "TemplateCorrupt");
}

export function zipBomb(message: string) {
  return new TemplateFileError(message, "TemplateZipBomb");
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${+(bytes / 1024 / 1024).toFixed(1)} MB`;
}

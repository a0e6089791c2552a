// What every PDF converter (lib/pdf/libreoffice.ts, lib/pdf/gotenberg.ts) offers, apart from the choice
// between them (lib/pdf/converter.ts): the implementations depend on this file, not on the chooser.
export type ConverterStatus = "ok" | "unavailable";
export type ConvertibleKind = "docx" | "pptx";

export interface ConvertOptions {
  /**
   * Aborting rejects with `signal.reason` (as fetch does): a queued job is dropped, a running one is
   * abandoned and its result discarded.
   */
  signal?: AbortSignal;
}

/**
 * Errors: UnavailableError (503) when the converter is missing, down or too slow;
 * UnprocessableError with code "DocumentNotConvertible" (422) when the input itself cannot be read.
 * A resolved Buffer always starts with `%PDF-`.
 */
export interface PdfConverter {
  readonly kind: "libreoffice" | "gotenberg";
  convert(input: Buffer, kind: ConvertibleKind, opts?: ConvertOptions): Promise<Buffer>;
  /**
   * convert(), with the PDF put at `file` (a path the caller chose, nothing there yet) instead of
   * returned: a caller that stores it as a file never holds it in memory. Resolves with its size; on any
   * failure nothing is left at `file`.
   */
  convertToFile(input: Buffer, kind: ConvertibleKind, file: string, opts?: ConvertOptions): Promise<{ size: number }>;
  status(): Promise<ConverterStatus>;
  /** Font families the converter renders with; null when it cannot tell (a remote service). */
  fonts(): Promise<string[] | null>;
  close(): Promise<void>;
}

export interface PdfConverterInfo {
  kind: "libreoffice" | "gotenberg";
  status: ConverterStatus;
}

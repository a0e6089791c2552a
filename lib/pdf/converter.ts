// PDF conversion sits behind one interface: local LibreOffice by default, Gotenberg when
// GOTENBERG_URL is set. Nothing starts at import time: the LibreOffice pool spawns soffice on its
// first conversion, so `next build` and processes that never convert pay nothing.
import { getConfig } from "@/lib/config";
import { GotenbergConverter } from "@/lib/pdf/gotenberg";
import { LibreOfficePool } from "@/lib/pdf/libreoffice";

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
  status(): Promise<ConverterStatus>;
  /** Font families the converter renders with; null when it cannot tell (a remote service). */
  fonts(): Promise<string[] | null>;
  close(): Promise<void>;
}

export interface PdfConverterInfo {
  kind: "libreoffice" | "gotenberg";
  status: ConverterStatus;
}

// On globalThis rather than in a module variable: Next.js may evaluate this module once per bundle
// (route handlers, instrumentation, server actions), and each copy would otherwise start its own pool.
const GLOBAL_KEY = Symbol.for("quire.pdfConverter");
type GlobalWithConverter = typeof globalThis & { [GLOBAL_KEY]?: PdfConverter };

/** The process-wide converter chosen from configuration. */
export function pdfConverter(): PdfConverter {
  const g = globalThis as GlobalWithConverter;
  if (!g[GLOBAL_KEY]) {
    const config = getConfig();
    g[GLOBAL_KEY] =
      config.pdfConverter.kind === "gotenberg"
        ? new GotenbergConverter({ url: config.pdfConverter.url, timeoutMs: config.pdfConvertTimeoutMs })
        : new LibreOfficePool({
            size: config.libreoffice.poolSize,
            timeoutMs: config.pdfConvertTimeoutMs,
            sofficePath: config.libreoffice.sofficePath,
            pythonPath: config.libreoffice.pythonPath,
          });
  }
  return g[GLOBAL_KEY]!;
}

/** Closes and forgets the process-wide converter (tests, graceful shutdown). */
export async function closePdfConverter(): Promise<void> {
  const g = globalThis as GlobalWithConverter;
  const converter = g[GLOBAL_KEY];
  delete g[GLOBAL_KEY];
  await converter?.close();
}

export async function pdfConverterInfo(): Promise<PdfConverterInfo> {
  const converter = pdfConverter();
  const status = await converter.status().catch(() => "unavailable" as const);
  return { kind: converter.kind, status };
}

// PDF conversion sits behind one interface: local LibreOffice by default, Gotenberg when
// GOTENBERG_URL is set. Nothing starts at import time: the LibreOffice pool spawns soffice on its
// first conversion, so `next build` and processes that never convert pay nothing.
import { getConfig } from "@/lib/config";
import { GotenbergConverter } from "@/lib/pdf/gotenberg";
import { LibreOfficePool } from "@/lib/pdf/libreoffice";
import type { PdfConverter, PdfConverterInfo } from "@/lib/pdf/converter-types";

export type { ConverterStatus, ConvertibleKind, ConvertOptions, PdfConverter, PdfConverterInfo } from "@/lib/pdf/converter-types";

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
            maxConversionsPerProcess: config.libreoffice.maxConversionsPerProcess,
            maxResidentBytes: config.libreoffice.maxResidentBytes,
            mallocLibrary: config.libreoffice.mallocLibrary,
            dladdrCache: config.libreoffice.dladdrCache,
            tmpDir: config.libreoffice.tmpDir,
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

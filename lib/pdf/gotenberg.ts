// DOCX/PPTX -> PDF through a Gotenberg 8 service (GOTENBERG_URL): POST /forms/libreoffice/convert
// with the document as multipart field "files"; GET /health for status.
//
// Written on fetch + FormData rather than the `chromiumly` client: chromiumly keeps the endpoint in
// static, process-wide state (Chromiumly.configure), so two converters cannot point at different
// services, and its LibreOffice.convert() takes no AbortSignal, so neither our timeout nor a caller's
// abort could stop a request. It also folds the HTTP status into an error string, which we need to
// tell a bad document (400) from a broken service (5xx).
import fsp from "node:fs/promises";
import { UnavailableError, UnprocessableError } from "@/lib/errors";
import type { ConvertOptions, ConvertibleKind, ConverterStatus, PdfConverter } from "@/lib/pdf/converter-types";
import { CONTENT_TYPES } from "@/lib/files/content-types";
import { forConversion } from "@/lib/pdf/for-conversion";

const MIME: Record<ConvertibleKind, string> = CONTENT_TYPES;

/** Health checks run on every /api/health; they must answer fast even when Gotenberg hangs. */
const HEALTH_TIMEOUT_MS = 5_000;

export interface GotenbergOptions {
  /** Base URL of the service, e.g. http://gotenberg:3000 */
  url: string;
  /** Limit for one conversion, upload and download included. */
  timeoutMs: number;
}

export class GotenbergConverter implements PdfConverter {
  readonly kind = "gotenberg" as const;
  /** Gotenberg's image decides its fonts; this side cannot list them. */
  readonly fonts = async (): Promise<string[] | null> => null;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(options: GotenbergOptions) {
    this.baseUrl = options.url.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs;
  }

  /** The PDF comes over HTTP either way: written once it is all here. */
  async convertToFile(input: Buffer, kind: ConvertibleKind, file: string, opts: ConvertOptions = {}): Promise<{ size: number }> {
    const pdf = await this.convert(input, kind, opts);
    try {
      await fsp.writeFile(file, pdf, { flag: "wx" });
    } catch (err) {
      // A half-written file is ours to remove; one that was there already is not.
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") await fsp.rm(file, { force: true });
      throw new UnavailableError(`Could not write the PDF: ${describe(err)}`, "PdfConverterUnavailable");
    }
    return { size: pdf.length };
  }

  async convert(input: Buffer, kind: ConvertibleKind, opts: ConvertOptions = {}): Promise<Buffer> {
    if (!Object.hasOwn(MIME, kind)) throw new UnprocessableError(`Cannot convert "${kind}" to PDF`, "DocumentNotConvertible");
    // Same early check as the local converter, so both reject the same inputs the same way.
    if (input.subarray(0, 2).toString("latin1") !== "PK") {
      throw new UnprocessableError(`The ${kind.toUpperCase()} file could not be converted to PDF: it is not a ZIP package`, "DocumentNotConvertible");
    }
    opts.signal?.throwIfAborted();
    // The same document as the local converter sees (for-conversion.ts).
    input = forConversion(input, kind);
    const form = new FormData();
    // Gotenberg picks the LibreOffice import filter from the file name's extension.
    form.append("files", new Blob([new Uint8Array(input)], { type: MIME[kind] }), `document.${kind}`);

    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    const endpoint = `${this.baseUrl}/forms/libreoffice/convert`;
    try {
      const res = await fetch(endpoint, { method: "POST", body: form, signal });
      if (!res.ok) {
        const detail = (await res.text().catch(() => "")).trim().slice(0, 300);
        const message = `Gotenberg answered ${res.status}${detail ? `: ${detail}` : ""}`;
        // Gotenberg 8 answers 400 when LibreOffice cannot process the document; 5xx (and 503 on its
        // own timeout) when the service is at fault.
        if (res.status === 400)
          throw new UnprocessableError(`The ${kind.toUpperCase()} file could not be converted to PDF (${message})`, "DocumentNotConvertible");
        throw new UnavailableError(`PDF conversion failed: ${message}`, "PdfConverterUnavailable");
      }
      const pdf = Buffer.from(await res.arrayBuffer());
      if (pdf.subarray(0, 5).toString("latin1") !== "%PDF-") {
        throw new UnavailableError(`Gotenberg at ${this.baseUrl} returned something that is not a PDF`, "PdfConverterUnavailable");
      }
      return pdf;
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      if (timeout.aborted)
        throw new UnavailableError(`PDF conversion did not finish within ${this.timeoutMs} ms (Gotenberg at ${this.baseUrl})`, "PdfConversionTimeout");
      if (err instanceof UnavailableError || err instanceof UnprocessableError) throw err;
      throw new UnavailableError(`Gotenberg at ${this.baseUrl} is unreachable: ${describe(err)}`, "PdfConverterUnavailable");
    }
  }

  async status(): Promise<ConverterStatus> {
    try {
      const res = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(Math.min(HEALTH_TIMEOUT_MS, this.timeoutMs)) });
      // Gotenberg 8 answers {"status":"up","details":{"libreoffice":{"status":"up"},"chromium":{...}}}
      // and turns the code to 503 when ANY module is down. We only use LibreOffice, so its own entry
      // decides when present; a dead Chromium must not take our PDFs down with it.
      const body = (await res.json().catch(() => null)) as { details?: { libreoffice?: { status?: string } } } | null;
      const libreoffice = body?.details?.libreoffice?.status;
      if (libreoffice !== undefined) return libreoffice === "up" ? "ok" : "unavailable";
      return res.ok ? "ok" : "unavailable";
    } catch {
      return "unavailable";
    }
  }

  async close(): Promise<void> {
    // Stateless HTTP client: nothing to release.
  }
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // undici hides the useful part (ECONNREFUSED, ENOTFOUND) in `cause`.
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
}

// A small Gotenberg-8-compatible server for tests: GET /health and POST /forms/libreoffice/convert,
// converting with a real converter (normally a LibreOfficePool) so the client is tested against
// real PDFs without a Docker daemon. Knobs make it fail or stall on demand.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { UnprocessableError } from "@/lib/errors";
import type { ConvertibleKind, PdfConverter } from "@/lib/pdf/converter";

export interface FakeGotenberg {
  url: string;
  /** Every following request answers this status (null: behave normally). */
  failWith(status: number | null): void;
  /** Delays every following answer (0: none). */
  delay(ms: number): void;
  /** File names received by the convert route, in order. */
  readonly receivedFiles: string[];
  close(): Promise<void>;
}

export async function startFakeGotenberg(converter: PdfConverter): Promise<FakeGotenberg> {
  let failure: number | null = null;
  let delayMs = 0;
  const receivedFiles: string[] = [];

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`Internal Server Error: ${err instanceof Error ? err.message : String(err)}`);
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await collect(req);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const path = new URL(req.url ?? "/", "http://localhost").pathname;

    if (req.method === "GET" && path === "/health") {
      const up = failure === null;
      res.writeHead(up ? 200 : failure!, { "content-type": "application/json" });
      const module = { status: up ? "up" : "down", timestamp: new Date().toISOString() };
      res.end(JSON.stringify({ status: module.status, details: { libreoffice: module, chromium: module } }));
      return;
    }

    if (req.method === "POST" && path === "/forms/libreoffice/convert") {
      if (failure !== null) {
        res.writeHead(failure, { "content-type": "text/plain" });
        res.end(failure >= 500 ? "Internal Server Error" : "Bad Request");
        return;
      }
      // Multipart parsed by the platform (undici's Request.formData), not by a hand-written parser.
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      }
      const init: RequestInit & { duplex: "half" } = { method: "POST", headers, body: new Uint8Array(body), duplex: "half" };
      const form = await new Request(`http://localhost${req.url}`, init).formData();
      const files = form.getAll("files").filter((f): f is File => typeof f !== "string");
      const file = files[0];
      const ext = file?.name.split(".").pop()?.toLowerCase();
      if (!file || (ext !== "docx" && ext !== "pptx")) {
        res.writeHead(400, { "content-type": "text/plain" });
        res.end("Invalid form data: no form file found for extensions: [.docx .pptx]");
        return;
      }
      receivedFiles.push(file.name);
      try {
        const pdf = await converter.convert(Buffer.from(await file.arrayBuffer()), ext as ConvertibleKind);
        const name = file.name.replace(/\.[^.]+$/, ".pdf");
        res.writeHead(200, { "content-type": "application/pdf", "content-disposition": `attachment; filename="${name}"` });
        res.end(pdf);
      } catch (err) {
        // Gotenberg 8 answers 400 when LibreOffice cannot process the document, 500 otherwise.
        const status = err instanceof UnprocessableError ? 400 : 500;
        res.writeHead(status, { "content-type": "text/plain" });
        res.end(status === 400 ? "LibreOffice failed to process a document" : "Internal Server Error");
      }
      return;
    }

    res.writeHead(404, { "content-type": "text/plain" });
    res.end("Not Found");
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failWith: (status) => {
      failure = status;
    },
    delay: (ms) => {
      delayMs = ms;
    },
    receivedFiles,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function collect(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

// Uploads stream: the multipart body is parsed as it arrives and the file spooled to a temp file
// (under the server's os.tmpdir(), here a directory of our own), so an oversized chunked upload is
// refused while the client is still sending, and no temp file, stored file or row outlives a
// refused, failed or abandoned upload. A server of its own: TMPDIR and a 2 MB template cap.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, authHeaders } from "../support/api";
import { onePagePdf } from "../support/esign";
import { buildDocx } from "../support/ooxml";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";

const MB = 1024 * 1024;
const TEMPLATE_CAP = 2 * MB;
const DOCUMENT_CAP = 25 * MB;
const uploadTmp = fs.mkdtempSync(path.join(os.tmpdir(), "quire-uploads-test-"));
let quire: RunningQuire;
let baseUrl: string;

beforeAll(async () => {
  quire = await startQuireServer((process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase, {
    extraEnv: { TMPDIR: uploadTmp, MAX_UPLOAD_BYTES: String(TEMPLATE_CAP) },
  });
  baseUrl = quire.server.baseUrl;
});

afterAll(async () => {
  await quire?.stop();
  fs.rmSync(uploadTmp, { recursive: true, force: true });
});

const contributor = () => as(baseUrl, quire.server.seed, "contributor");

/** Upload spools still on disk (the server may put other temp files there too). */
function spools(): string[] {
  return fs.readdirSync(uploadTmp).filter((name) => name.startsWith("quire-upload-"));
}

function storedFiles(...under: string[]): number {
  const dir = path.join(quire.server.dataDir, "files", ...under);
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).length : 0;
}

async function counts() {
  const { orgId } = quire.server.seed;
  return {
    templates: (await contributor()("/template-item?type=template&limit=1")).json.data.totalRecords as number,
    documents: (await contributor()("/esign/documents?limit=1")).json.data.totalRecords as number,
    templateFiles: storedFiles("templates", orgId),
    signingFiles: storedFiles("signing", orgId),
  };
}

const BOUNDARY = "----quire-upload-test";
function partHead(name: string, fileName?: string): string {
  return (
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${fileName ? `; filename="${fileName}"` : ""}\r\n` +
    (fileName ? "Content-Type: application/octet-stream\r\n" : "") +
    "\r\n"
  );
}

interface ChunkedReply {
  status: number;
  json: any;
  /** Bytes written when the response arrived. */
  sentWhenAnswered: number;
  /** Whether the whole body had been sent by then. */
  finishedSending: boolean;
  /** Bytes written when the server closed the connection; null if it did not before the body ended. */
  sentWhenClosed: number | null;
  /** Milliseconds from the answer to the server closing the connection. */
  closedAfterMs: number | null;
}

/**
 * POSTs a multipart body with Transfer-Encoding: chunked (no Content-Length): `fields`, then a file
 * part of `fileBytes` bytes (`file` first, then filler) written in 64 KB chunks as the socket takes
 * them. Like a browser, it goes on sending after an early response, until the body is done or the
 * server closes the connection; `abortAfter` makes it give up after that many bytes instead.
 */
function chunkedUpload(
  urlPath: string,
  opts: { fields?: Record<string, string>; fileName: string; file?: Buffer; fileBytes: number; abortAfter?: number },
): Promise<ChunkedReply> {
  const prelude = Buffer.from(
    Object.entries(opts.fields ?? {})
      .map(([k, v]) => `${partHead(k)}${v}\r\n`)
      .join("") + partHead("file", opts.fileName),
  );
  const epilogue = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const filler = Buffer.alloc(64 * 1024, 0x41);
  const url = new URL(urlPath, baseUrl);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let fileSent = 0;
    let finished = false;
    let closedAt: number | null = null;
    let answeredAt = 0;
    let closedAfterMs: number | null = null;
    let answer: Omit<ChunkedReply, "sentWhenClosed" | "closedAfterMs"> | null = null;
    let responseEnded = false;
    const req = http.request(url, {
      method: "POST",
      headers: {
        ...authHeaders(quire.server.seed, "contributor"),
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
        "transfer-encoding": "chunked",
      },
    });
    const settle = () => {
      if (answer && responseEnded && (finished || closedAt !== null)) {
        req.destroy();
        resolve({ ...answer, sentWhenClosed: closedAt, closedAfterMs });
      }
    };
    const write = (chunk: Buffer) => {
      sent += chunk.length;
      return req.write(chunk);
    };
    const pump = () => {
      while (closedAt === null) {
        if (opts.abortAfter !== undefined && sent >= opts.abortAfter) return void req.destroy();
        if (fileSent >= opts.fileBytes) {
          write(epilogue);
          req.end();
          finished = true;
          return settle();
        }
        const chunk =
          opts.file && fileSent < opts.file.length
            ? opts.file.subarray(fileSent, fileSent + filler.length)
            : filler.subarray(0, Math.min(filler.length, opts.fileBytes - fileSent));
        fileSent += chunk.length;
        if (!write(chunk)) return void req.once("drain", pump);
      }
    };
    req.on("socket", (socket) =>
      socket.once("close", () => {
        if (closedAt === null && answeredAt) closedAfterMs = Date.now() - answeredAt;
        closedAt ??= sent;
        settle();
      }),
    );
    req.on("response", (res) => {
      let text = "";
      answeredAt = Date.now();
      answer = { status: res.statusCode!, json: undefined, sentWhenAnswered: sent, finishedSending: finished };
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        answer!.json = text ? JSON.parse(text) : undefined;
        responseEnded = true;
        settle();
      });
    });
    req.on("error", (err) => {
      if (answer) return; // the server dropping the rest of the upload after its answer
      if (opts.abortAfter !== undefined)
        resolve({ status: 0, json: undefined, sentWhenAnswered: sent, finishedSending: false, sentWhenClosed: sent, closedAfterMs: null });
      else reject(err);
    });
    write(prelude);
    pump();
  });
}

async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe("template uploads", () => {
  it("refuses a chunked upload over the cap while the client is still sending, leaving nothing behind", async () => {
    const before = await counts();
    const reply = await chunkedUpload("/template", { fields: { name: "Huge" }, fileName: "huge.docx", fileBytes: 200 * MB });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      message: "The file is larger than the 2 MB limit",
      type: "ValidationError",
      data: { errors: [{ field: "file", message: "The file is larger than the 2 MB limit" }] },
    });
    expect(reply.finishedSending).toBe(false);
    // The cap plus what was in flight in socket buffers, nowhere near the 200 MB the client meant to send.
    expect(reply.sentWhenAnswered).toBeLessThan(TEMPLATE_CAP + 16 * MB);
    // The rest is never read: the client's writes stall until Node closes the idle connection
    // (keep-alive timeout, 5 s), which is how browsers learn to stop and read the answer.
    expect(reply.sentWhenClosed).not.toBeNull();
    expect(reply.sentWhenClosed!).toBeLessThan(reply.sentWhenAnswered + 16 * MB);
    expect(reply.closedAfterMs!).toBeLessThan(15_000);
    expect(spools()).toEqual([]);
    expect(await counts()).toEqual(before);
    expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);
  });

  it("stores a template sent chunked, and one sent with a Content-Length, removing the spool", async () => {
    const docx = buildDocx(["Hello {Name}, chunked"]);
    const chunked = await chunkedUpload("/template", {
      fields: { name: "Chunked", tags: JSON.stringify(["Streamed"]) },
      fileName: "chunked.docx",
      file: docx,
      fileBytes: docx.length,
    });
    expect(chunked.status).toBe(201);
    expect(chunked.json.data).toMatchObject({ name: "Chunked", fileSize: docx.length, variables: [{ placeholder: "{Name}", name: "Name" }] });
    expect(chunked.json.data.tags.map((t: { label: string }) => t.label)).toEqual(["Streamed"]);

    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(docx)]), "Plain.docx");
    const plain = await contributor()("/template", { method: "POST", body: form });
    expect(plain.status, plain.text).toBe(201);
    const file = await fetch(`${baseUrl}/template/${plain.json.data.id}/file`, { headers: authHeaders(quire.server.seed, "user") });
    expect(Buffer.from(await file.arrayBuffer()).equals(docx)).toBe(true);
    expect(spools()).toEqual([]);
  });

  it("refuses a declared Content-Length over the cap with the same error", async () => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(TEMPLATE_CAP + 2 * MB)]), "big.docx");
    const res = await contributor()("/template", { method: "POST", body: form });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe("The file is larger than the 2 MB limit");
    expect(spools()).toEqual([]);
  });

  it("cleans up after a client that goes away mid-upload, and keeps serving", async () => {
    const before = await counts();
    const docx = buildDocx(["Abandoned {X}"]);
    const reply = await chunkedUpload("/template", { fileName: "abandoned.docx", file: docx, fileBytes: TEMPLATE_CAP - 64 * 1024, abortAfter: MB });
    expect(reply.status).toBe(0);
    expect(await eventually(() => spools().length === 0)).toBe(true);
    expect(await counts()).toEqual(before);
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(docx)]), "after.docx");
    expect((await contributor()("/template", { method: "POST", body: form })).status).toBe(201);
  });
});

describe("signing document uploads", () => {
  const recipients = JSON.stringify([{ name: "Ada", email: "ada@example.com" }]);

  it("refuses a chunked document over 25 MB with DocumentTooLarge before the client is done", async () => {
    const before = await counts();
    const reply = await chunkedUpload("/esign/single/prepare-for-review", { fields: { recipients }, fileName: "huge.pdf", fileBytes: 200 * MB });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      message: "The file is larger than 25 MB",
      type: "DocumentTooLarge",
      error: "The file is larger than 25 MB",
      code: "DocumentTooLarge",
    });
    expect(reply.finishedSending).toBe(false);
    expect(reply.sentWhenAnswered).toBeLessThan(DOCUMENT_CAP + 16 * MB);
    expect(reply.sentWhenClosed).not.toBeNull();
    expect(reply.sentWhenClosed!).toBeLessThan(reply.sentWhenAnswered + 16 * MB);
    expect(reply.closedAfterMs!).toBeLessThan(15_000);
    expect(spools()).toEqual([]);
    expect(await counts()).toEqual(before);
  });

  it("prepares a PDF uploaded as a file, chunked or not, removing the spool", async () => {
    const pdf = await onePagePdf("Streamed upload agreement.");
    const chunked = await chunkedUpload("/esign/single/prepare-for-review", {
      fields: { recipients, documentName: "Streamed" },
      fileName: "streamed.pdf",
      file: pdf,
      fileBytes: pdf.length,
    });
    expect(chunked.status).toBe(200);
    expect(chunked.json.data).toMatchObject({ success: true, status: "draft" });

    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(pdf)]), "plain.pdf");
    form.set("recipients", recipients);
    const plain = await contributor()("/esign/single/prepare-for-review", { method: "POST", body: form });
    expect(plain.status, plain.text).toBe(200);
    const stored = await fetch(`${baseUrl}/esign/documents/${plain.json.data.documentId}/download`, { headers: authHeaders(quire.server.seed, "contributor") });
    expect(stored.status).toBe(200);
    expect(Buffer.from(await stored.arrayBuffer()).equals(pdf)).toBe(true);
    expect(spools()).toEqual([]);
  });

  it("stores nothing when the upload is refused after parsing (an invalid recipient list)", async () => {
    const before = await counts();
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await onePagePdf())]), "x.pdf");
    form.set("recipients", "[not json");
    const res = await contributor()("/esign/single/prepare-for-review", { method: "POST", body: form });
    expect(res.status).toBe(400);
    expect(spools()).toEqual([]);
    expect(await counts()).toEqual(before);
  });
});

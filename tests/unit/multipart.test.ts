// The streaming multipart reader: fields and one file spooled to a temp file, the size cap enforced
// while the body is still arriving (a 200 MB stream is refused after a few MB are pulled), and the
// temp directory removed on every path.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { ClientClosedError, ValidationError } from "@/lib/errors";
import { readMultipart, withMultipart, type MultipartOptions } from "@/lib/http/multipart";

const MB = 1024 * 1024;
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "quire-multipart-test-"));
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

class TooLarge extends ValidationError {
  constructor() {
    super("The file is larger than the 1 MB limit", [{ field: "file", message: "too large" }], "TestTooLarge");
  }
}
const options: MultipartOptions = { maxFileBytes: MB, tooLarge: () => new TooLarge(), tmpDir: tmpRoot };

function leftovers(): string[] {
  return fs.readdirSync(tmpRoot);
}

beforeEach(() => expect(leftovers()).toEqual([]));

function formRequest(form: FormData, init: RequestInit = {}): Request {
  return new Request("http://quire.test/upload", { method: "POST", body: form, ...init });
}

const BOUNDARY = "----quire-test-boundary";
const head = (name: string, fileName?: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${fileName !== undefined ? `; filename="${fileName}"` : ""}\r\n` +
  (fileName !== undefined ? "Content-Type: application/octet-stream\r\n" : "") +
  "\r\n";

/**
 * A chunked body that would produce `total` bytes after a prelude, made on demand (highWaterMark 0:
 * nothing is produced before the reader asks); counts what was pulled.
 */
function endlessUpload(
  total: number,
  prelude = `${head("name", undefined)}x\r\n${head("file", "big.docx")}`,
  repeat: Uint8Array = new Uint8Array(64 * 1024).fill(0x41),
) {
  const state = { pulled: 0, cancelled: false };
  let sentPrelude = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!sentPrelude) {
          sentPrelude = true;
          const bytes = new TextEncoder().encode(prelude);
          state.pulled += bytes.length;
          return controller.enqueue(bytes);
        }
        if (state.pulled >= total) return controller.close();
        state.pulled += repeat.length;
        controller.enqueue(repeat);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, state };
}

function rawRequest(body: BodyInit, headers: Record<string, string> = {}, signal?: AbortSignal): Request {
  return new Request("http://quire.test/upload", {
    method: "POST",
    body,
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    signal,
    duplex: "half",
  } as RequestInit);
}

describe("readMultipart", () => {
  it("parses text fields, keeps repeated ones, and spools the file to a temp file", async () => {
    const form = new FormData();
    form.append("name", "Offer letter");
    form.append("tags", "Sales");
    form.append("tags", "Offer");
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    form.append("file", new Blob([new Uint8Array(bytes)]), "Offre été.docx");

    const seen = await withMultipart(formRequest(form), options, async ({ file, fields }) => {
      expect(fields.get("name")).toEqual(["Offer letter"]);
      expect(fields.get("tags")).toEqual(["Sales", "Offer"]);
      expect(file).not.toBeNull();
      expect(file!.name).toBe("Offre été.docx");
      expect(file!.size).toBe(bytes.length);
      expect(file!.path.startsWith(tmpRoot)).toBe(true);
      expect(fs.readFileSync(file!.path).equals(bytes)).toBe(true);
      expect((await file!.readAll()).equals(bytes)).toBe(true);
      const streamed: Buffer[] = [];
      for await (const c of file!.stream()) streamed.push(c as Buffer);
      expect(Buffer.concat(streamed).equals(bytes)).toBe(true);
      return file!.path;
    });
    expect(fs.existsSync(seen)).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it("accepts a file of exactly the cap, and a form without a file", async () => {
    const atCap = new FormData();
    atCap.append("file", new Blob([new Uint8Array(MB)]), "cap.docx");
    await withMultipart(formRequest(atCap), options, async ({ file }) => expect(file?.size).toBe(MB));

    const noFile = new FormData();
    noFile.append("name", "x");
    await withMultipart(formRequest(noFile), options, async ({ file, fields }) => {
      expect(file).toBeNull();
      expect(fields.get("name")).toEqual(["x"]);
    });
    expect(leftovers()).toEqual([]);
  });

  it("removes the temp file when the caller's work fails", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(1000)]), "a.docx");
    let spooled = "";
    await expect(
      withMultipart(formRequest(form), options, async ({ file }) => {
        spooled = file!.path;
        expect(fs.existsSync(spooled)).toBe(true);
        throw new Error("storage down");
      }),
    ).rejects.toThrow("storage down");
    expect(fs.existsSync(spooled)).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it("refuses an over-cap file while the body is still streaming, pulling a few MB of a 200 MB upload", async () => {
    const { body, state } = endlessUpload(200 * MB);
    let pulledWhenRefused = -1;
    const tooLarge = () => ((pulledWhenRefused = state.pulled), new TooLarge());
    const error = await readMultipart(rawRequest(body), { ...options, tooLarge }).catch((e) => e);
    expect(error).toBeInstanceOf(TooLarge);
    expect(pulledWhenRefused).toBeGreaterThan(MB);
    expect(pulledWhenRefused).toBeLessThan(MB + 192 * 1024);
    expect(leftovers()).toEqual([]);
    // Nothing more is read, and the body is not cancelled (in Node that would reset the connection
    // before the client gets the error reply).
    await new Promise((r) => setTimeout(r, 100));
    expect(state.pulled).toBe(pulledWhenRefused);
    expect(state.cancelled).toBe(false);
  });

  it("caps the whole body too: many small file parts that are not `file` are refused past the cap", async () => {
    const part = new TextEncoder().encode(`${head("other", "x.bin") + "y".repeat(64 * 1024)}\r\n`);
    const { body, state } = endlessUpload(200 * MB, "", part);
    let pulledWhenRefused = -1;
    const tooLarge = () => ((pulledWhenRefused = state.pulled), new TooLarge());
    const error = await readMultipart(rawRequest(body), { ...options, tooLarge }).catch((e) => e);
    expect(error).toBeInstanceOf(TooLarge);
    expect(pulledWhenRefused).toBeGreaterThan(2 * MB);
    expect(pulledWhenRefused).toBeLessThan(2 * MB + 128 * 1024);
    expect(leftovers()).toEqual([]);
  });

  it("refuses a declared Content-Length over the cap without reading the body", async () => {
    const { body, state } = endlessUpload(200 * MB);
    const error = await readMultipart(rawRequest(body, { "content-length": String(200 * MB) }), options).catch((e) => e);
    expect(error).toBeInstanceOf(TooLarge);
    expect(state.pulled).toBe(0);
    expect(leftovers()).toEqual([]);
  });

  it("caps text fields: one over 1 MB, or too many of them, is a validation error", async () => {
    const long = new FormData();
    long.append("recipients", "r".repeat(MB + 1));
    const tooLong = await readMultipart(formRequest(long), { ...options, maxFileBytes: 10 * MB }).catch((e) => e);
    expect(tooLong).toBeInstanceOf(ValidationError);
    expect(tooLong.issues).toEqual([{ field: "recipients", message: "too large" }]);

    const many = new FormData();
    for (let i = 0; i < 1001; i++) many.append(`f${i}`, "v");
    const tooMany = await readMultipart(formRequest(many), options).catch((e) => e);
    expect(tooMany).toBeInstanceOf(ValidationError);
    expect(tooMany.message).toMatch(/at most 1000/);
    expect(leftovers()).toEqual([]);
  });

  it("refuses a second `file` part", async () => {
    const form = new FormData();
    form.append("file", new Blob(["a"]), "a.docx");
    form.append("file", new Blob(["b"]), "b.docx");
    const error = await readMultipart(formRequest(form), options).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toEqual([{ field: "file", message: "only one file is allowed" }]);
    expect(leftovers()).toEqual([]);
  });

  it.each([
    ["a body cut off inside the file", `${head("file", "a.docx")}partial bytes`],
    ["a body with no closing boundary", `${head("name", undefined)}x\r\n`],
    ["bytes that are not multipart at all", "hello world"],
  ])("answers %s with the malformed-body error", async (_label, text) => {
    const error = await readMultipart(rawRequest(text), options).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe("The multipart body could not be read");
    expect(error.issues).toEqual([{ field: "(body)", message: "malformed multipart body" }]);
    expect(leftovers()).toEqual([]);
  });

  it("answers a multipart type without a boundary with the malformed-body error, and other types as before", async () => {
    const noBoundary = new Request("http://quire.test/upload", { method: "POST", body: "x", headers: { "content-type": "multipart/form-data" } });
    await expect(readMultipart(noBoundary, options)).rejects.toThrow("The multipart body could not be read");
    const json = new Request("http://quire.test/upload", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    await expect(readMultipart(json, options)).rejects.toThrow("Send the upload as multipart/form-data");
    expect(leftovers()).toEqual([]);
  });

  it("treats a body that breaks midway (client gone) as a closed request and removes the partial file", async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode(head("file", "a.docx")));
        else if (sent < 5) controller.enqueue(new Uint8Array(64 * 1024));
        else controller.error(new Error("aborted"));
        sent++;
      },
    });
    const error = await readMultipart(rawRequest(body), options).catch((e) => e);
    expect(error).toBeInstanceOf(ClientClosedError);
    expect(leftovers()).toEqual([]);
  });
});

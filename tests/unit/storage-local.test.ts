// Local storage writes streams atomically; with a known size (a spooled upload) a stream that ends
// short or long stores nothing and leaves no temp file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { LocalFileStorage } from "@/lib/storage/local";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "quire-storage-test-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const storage = new LocalFileStorage(root);

describe("LocalFileStorage.put", () => {
  it("streams a Readable of the stated size into place", async () => {
    const data = Buffer.alloc(300_000, 7);
    expect(await storage.put("a/file.bin", Readable.from([data.subarray(0, 1000), data.subarray(1000)]), { size: data.length })).toEqual({ size: data.length });
    expect((await storage.get("a/file.bin")).equals(data)).toBe(true);
  });

  it.each([
    ["short", 10],
    ["long", 30],
  ])("stores nothing when the stream ends %s of the stated size", async (_label, actual) => {
    await expect(storage.put("b/file.bin", Readable.from([Buffer.alloc(actual)]), { size: 20 })).rejects.toThrow(/expected 20/);
    expect(await storage.exists("b/file.bin")).toBe(false);
    expect(fs.readdirSync(path.join(root, "b"))).toEqual([]);
  });

  it("writes into a directory that was removed after an earlier write to it", async () => {
    await storage.put("c/one.bin", Buffer.from("one"));
    fs.rmSync(path.join(root, "c"), { recursive: true, force: true });
    await storage.put("c/two.bin", Buffer.from("two"));
    expect((await storage.get("c/two.bin")).toString()).toBe("two");
    fs.rmSync(path.join(root, "c"), { recursive: true, force: true });
    await storage.put("c/three.bin", Readable.from([Buffer.from("three")]));
    expect((await storage.get("c/three.bin")).toString()).toBe("three");
  });
});

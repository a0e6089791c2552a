// Local storage writes streams atomically; with a known size (a spooled upload) a stream that ends
// short or long stores nothing and leaves no temp file. A staged file (a converter's output) is taken in
// by a rename.
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

describe("LocalFileStorage.stagingFile and putFile", () => {
  it("stages beside the key's file (its directory made), and takes the file in by renaming it", async () => {
    const staged = await storage.stagingFile("d/org/doc.pdf");
    expect(path.dirname(staged)).toBe(path.join(root, "d", "org"));
    expect(fs.existsSync(staged)).toBe(false);
    fs.writeFileSync(staged, "%PDF-1.7 staged");
    const inode = fs.statSync(staged).ino;
    await storage.putFile("d/org/doc.pdf", staged);
    expect((await storage.get("d/org/doc.pdf")).toString()).toBe("%PDF-1.7 staged");
    expect(fs.statSync(path.join(root, "d", "org", "doc.pdf")).ino).toBe(inode); // moved, not copied
    expect(fs.readdirSync(path.join(root, "d", "org"))).toEqual(["doc.pdf"]);
  });

  it("stages into a directory that was removed after an earlier write to it", async () => {
    await storage.put("f/one.pdf", Buffer.from("one"));
    fs.rmSync(path.join(root, "f"), { recursive: true, force: true });
    const staged = await storage.stagingFile("f/two.pdf");
    fs.writeFileSync(staged, "two");
    await storage.putFile("f/two.pdf", staged);
    expect((await storage.get("f/two.pdf")).toString()).toBe("two");
  });

  it("refuses a key that escapes the root before anything is staged", async () => {
    await expect(storage.stagingFile("../outside.pdf")).rejects.toThrow(/escapes the root/);
  });

  it("removes the staged file when it cannot be taken in", async () => {
    const staged = await storage.stagingFile("e/doc.pdf");
    fs.writeFileSync(staged, "%PDF-1.7");
    fs.mkdirSync(path.join(root, "e", "doc.pdf", "in-the-way"), { recursive: true }); // a directory where the file would go
    await expect(storage.putFile("e/doc.pdf", staged)).rejects.toThrow();
    expect(fs.existsSync(staged)).toBe(false);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "quire-config-"));
}

describe("parseConfig", () => {
  it("defaults to embedded PGlite under DATA_DIR and persists a generated NEXTAUTH_SECRET", () => {
    const dir = tmpDir();
    const first = parseConfig({ DATA_DIR: dir });
    expect(first.database).toEqual({ kind: "pglite", dataDir: path.join(dir, "pglite") });
    expect(first.baseUrl).toBe("http://localhost:3000");
    expect(first.nextAuthSecret.length).toBeGreaterThanOrEqual(32);
    expect(parseConfig({ DATA_DIR: dir }).nextAuthSecret).toBe(first.nextAuthSecret);
    expect(fs.statSync(path.join(dir, "secrets.json")).mode & 0o077).toBe(0);
  });

  it("selects PostgreSQL for postgres:// URLs and PGlite for pglite:<dir>", () => {
    const dir = tmpDir();
    expect(parseConfig({ DATA_DIR: dir, DATABASE_URL: "postgres://u@h:5432/db" }).database).toEqual({
      kind: "postgres",
      url: "postgres://u@h:5432/db",
      preparedStatements: true,
    });
    for (const [value, prepared] of [
      ["false", false],
      ["0", false],
      ["true", true],
      ["", true],
    ] as const)
      expect(parseConfig({ DATA_DIR: dir, DATABASE_URL: "postgres://u@h:5432/db", DATABASE_PREPARED_STATEMENTS: value }).database).toMatchObject({
        preparedStatements: prepared,
      });
    expect(parseConfig({ DATA_DIR: dir, DATABASE_URL: `pglite:${dir}/x` }).database).toEqual({ kind: "pglite", dataDir: `${dir}/x` });
  });

  it("uses GOTENBERG_URL to pick the converter and trims BASE_URL", () => {
    const c = parseConfig({
      DATA_DIR: tmpDir(),
      GOTENBERG_URL: "http://gotenberg:3000",
      BASE_URL: "https://quire.example.com/",
      NEXTAUTH_SECRET: "x".repeat(32),
    });
    expect(c.pdfConverter).toEqual({ kind: "gotenberg", url: "http://gotenberg:3000" });
    expect(c.baseUrl).toBe("https://quire.example.com");
    expect(c.nextAuthSecret).toBe("x".repeat(32));
  });

  it("names the variable when a value is invalid", () => {
    expect(() => parseConfig({ DATA_DIR: tmpDir(), PORT: "http" })).toThrow(ConfigError);
    expect(() => parseConfig({ DATA_DIR: tmpDir(), DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
  });

  // Libraries preloaded into soffice: unset leaves the pool's default, one word turns it off, else an existing library's absolute path.
  it.each([
    { variable: "LIBREOFFICE_MALLOC", field: "mallocLibrary", off: "system", bad: ["libjemalloc.so.2", "jemalloc"] },
    { variable: "LIBREOFFICE_DLADDR_CACHE", field: "dladdrCache", off: "off", bad: ["build/native/libquire-dladdr-cache.so", "on"] },
  ] as const)("$variable: unset, $off, or an existing library's absolute path", ({ variable, field, off, bad }) => {
    const dir = tmpDir();
    expect(parseConfig({ DATA_DIR: dir }).libreoffice[field]).toBeUndefined();
    expect(parseConfig({ DATA_DIR: dir, [variable]: off }).libreoffice[field]).toBeNull();
    const library = path.join(dir, "libfake.so");
    fs.writeFileSync(library, "");
    expect(parseConfig({ DATA_DIR: dir, [variable]: library }).libreoffice[field]).toBe(library);
    for (const value of [path.join(dir, "missing.so"), ...bad])
      expect(() => parseConfig({ DATA_DIR: dir, [variable]: value })).toThrow(new RegExp(`${variable}.*"${off}" or the absolute path`));
  });

  it("LIBREOFFICE_TMPDIR: an existing directory's absolute path, else unset (the pool's choice)", () => {
    const dir = tmpDir();
    expect(parseConfig({ DATA_DIR: dir }).libreoffice.tmpDir).toBeUndefined();
    expect(parseConfig({ DATA_DIR: dir, LIBREOFFICE_TMPDIR: dir }).libreoffice.tmpDir).toBe(dir);
    fs.writeFileSync(path.join(dir, "file"), "");
    for (const bad of [path.join(dir, "missing"), path.join(dir, "file"), "relative/dir"])
      expect(() => parseConfig({ DATA_DIR: dir, LIBREOFFICE_TMPDIR: bad })).toThrow(/LIBREOFFICE_TMPDIR.*existing directory/);
  });

  it("picks S3 storage with its options and refuses half-given credentials", () => {
    const c = parseConfig({
      DATA_DIR: tmpDir(),
      STORAGE_DRIVER: "s3",
      S3_BUCKET: "quire-files",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: "ak",
      S3_SECRET_ACCESS_KEY: "sk",
      S3_PREFIX: "prod/",
    });
    expect(c.storage).toEqual({
      driver: "s3",
      bucket: "quire-files",
      region: "us-east-1",
      endpoint: "http://127.0.0.1:9000",
      forcePathStyle: true,
      credentials: { accessKeyId: "ak", secretAccessKey: "sk" },
      prefix: "prod/",
    });
    expect(() => parseConfig({ DATA_DIR: tmpDir(), STORAGE_DRIVER: "s3" })).toThrow(/S3_BUCKET/);
    expect(() => parseConfig({ DATA_DIR: tmpDir(), STORAGE_DRIVER: "s3", S3_BUCKET: "bucket", S3_ACCESS_KEY_ID: "ak" })).toThrow(/S3_SECRET_ACCESS_KEY/);
  });

  it("refuses the embedded database, local disk, a generated secret and local LibreOffice on a serverless platform", () => {
    let message = "";
    try {
      parseConfig({ DATA_DIR: tmpDir(), VERCEL: "1" });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/serverless/);
    for (const name of ["DATABASE_URL", "STORAGE_DRIVER", "NEXTAUTH_SECRET", "GOTENBERG_URL"]) expect(message).toContain(name);
    const ok = parseConfig({
      DATA_DIR: tmpDir(),
      AWS_LAMBDA_FUNCTION_NAME: "quire",
      DATABASE_URL: "postgres://u@db/quire",
      STORAGE_DRIVER: "s3",
      S3_BUCKET: "quire",
      NEXTAUTH_SECRET: "s".repeat(32),
      GOTENBERG_URL: "https://gotenberg.internal",
    });
    expect(ok.serverless).toBe(true);
    expect(parseConfig({ DATA_DIR: tmpDir() }).serverless).toBe(false);
  });
});

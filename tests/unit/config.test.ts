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
    });
    expect(parseConfig({ DATA_DIR: dir, DATABASE_URL: `pglite:${dir}/x` }).database).toEqual({ kind: "pglite", dataDir: `${dir}/x` });
  });

  it("uses GOTENBERG_URL to pick the converter and trims BASE_URL", () => {
    const c = parseConfig({ DATA_DIR: tmpDir(), GOTENBERG_URL: "http://gotenberg:3000", BASE_URL: "https://quire.example.com/", NEXTAUTH_SECRET: "x".repeat(32) });
    expect(c.pdfConverter).toEqual({ kind: "gotenberg", url: "http://gotenberg:3000" });
    expect(c.baseUrl).toBe("https://quire.example.com");
    expect(c.nextAuthSecret).toBe("x".repeat(32));
  });

  it("names the variable when a value is invalid", () => {
    expect(() => parseConfig({ DATA_DIR: tmpDir(), PORT: "http" })).toThrow(ConfigError);
    expect(() => parseConfig({ DATA_DIR: tmpDir(), DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
  });
});

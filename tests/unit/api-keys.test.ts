import { describe, expect, it } from "vitest";
import { generateApiKey, parseApiKey } from "@/lib/auth/api-keys";
import { hashPassword, verifyPassword } from "@/lib/auth/password";

describe("API key format", () => {
  it("generates keys whose public prefix parses back and whose hash is not the key", () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key.startsWith(`${prefix}_`)).toBe(true);
    expect(parseApiKey(key)).toEqual({ prefix });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key.slice(16));
  });

  it("never generates the same key twice", () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));
    expect(keys.size).toBe(200);
  });

  it.each(["", "qk_", "qk_123_abc", `Bearer qk_0123456789ab_${"A".repeat(43)}`, `qk_0123456789AB_${"A".repeat(43)}`, `qk_0123456789ab_${"A".repeat(42)}`])(
    "rejects %j",
    (value) => expect(parseApiKey(value)).toBeNull(),
  );
});

describe("password hashing", () => {
  it("verifies the right password and rejects others", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(stored.startsWith("scrypt$")).toBe(true);
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", stored)).toBe(false);
    expect(await verifyPassword("x", "not-a-hash")).toBe(false);
  });

  it("salts: the same password hashes differently", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });
});

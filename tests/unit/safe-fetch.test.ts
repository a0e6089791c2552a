import { describe, expect, it } from "vitest";
import { isPrivateAddress, parseHttpsUrl, safeGet, UnsafeUrlError } from "@/lib/net/safe-fetch";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "fe80::1",
    "fd00::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    // IPv4-compatible IPv6, NAT64, 6to4, Teredo, benchmarking, documentation, reserved, broadcast.
    "::7f00:1",
    "::127.0.0.1",
    "::a00:1",
    "64:ff9b::a00:1",
    "2002:a00:1::",
    "2001::1",
    "198.18.0.1",
    "192.0.2.1",
    "2001:db8::1",
    "240.0.0.1",
    "255.255.255.255",
    "100::1",
  ])("blocks %s", (ip) => expect(isPrivateAddress(ip)).toBe(true));
  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows %s", (ip) => expect(isPrivateAddress(ip)).toBe(false));
  it("treats garbage as unsafe", () => expect(isPrivateAddress("not-an-ip")).toBe(true));
});

describe("parseHttpsUrl", () => {
  it.each(["http://example.com/a.png", "ftp://example.com", "javascript:alert(1)", "not a url", "https://user:pw@example.com/"])("refuses %s", (url) => {
    expect(() => parseHttpsUrl(url, "image")).toThrow(UnsafeUrlError);
  });
  it("accepts https", () => expect(parseHttpsUrl("https://example.com/a.png", "image").hostname).toBe("example.com"));
});

describe("safeGet", () => {
  it.each(["https://127.0.0.1/x", "https://[::1]/x", "https://169.254.169.254/latest/meta-data", "https://localhost/x"])(
    "refuses %s before sending anything",
    async (url) => {
      await expect(safeGet(url, { field: "image", maxBytes: 1000 })).rejects.toBeInstanceOf(UnsafeUrlError);
    },
  );
});

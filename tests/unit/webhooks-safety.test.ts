// Webhook receivers must be public HTTPS hosts (docs/contract.md "Webhooks"): refused when saved if the
// host resolves to a loopback, private, link-local or metadata address, and again when connecting,
// so a DNS answer that changes after the save (rebinding) cannot reach inside. The integration
// server allows loopback receivers (WEBHOOK_ALLOW_PRIVATE=true), so these rules are checked here.
import dns from "node:dns";
import dnsPromises from "node:dns/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ValidationError } from "@/lib/errors";
import { safeRequest, UnsafeUrlError } from "@/lib/net/safe-fetch";
import { signatureHeader } from "@/lib/webhooks/delivery";
import { checkReceiverUrls, createWebhookSchema } from "@/lib/webhooks/webhooks";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("receiver URLs when a webhook is saved", () => {
  it.each([
    "https://127.0.0.1/hook",
    "https://localhost/hook",
    "https://10.1.2.3/hook",
    "https://192.168.0.9/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/hook",
    "https://[fd00::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
  ])("refuses %s", async (url) => {
    const err = await checkReceiverUrls([url], false).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues).toEqual([{ field: "urls.0", message: expect.stringMatching(/private or local|does not resolve/) }]);
  });

  it("lists every refused URL, and WEBHOOK_ALLOW_PRIVATE lets loopback through", async () => {
    const err = (await checkReceiverUrls(["https://127.0.0.1/a", "https://10.0.0.1/b"], false).catch((e: unknown) => e)) as ValidationError;
    expect(err.issues.map((i) => i.field)).toEqual(["urls.0", "urls.1"]);
    await expect(checkReceiverUrls(["https://127.0.0.1/a", "https://localhost/b"], true)).resolves.toHaveLength(2);
  });

  it("refuses a host whose DNS answer includes a private address", async () => {
    vi.spyOn(dnsPromises, "lookup").mockResolvedValue([
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.8", family: 4 },
    ] as never);
    const err = (await checkReceiverUrls(["https://hooks.example.com/q"], false).catch((e: unknown) => e)) as ValidationError;
    expect(err.issues).toEqual([{ field: "urls.0", message: expect.stringMatching(/private or local/) }]);
  });

  it("checks the form with the other fields: https only, no credentials", () => {
    const r = createWebhookSchema.safeParse({
      name: "signature",
      urls: ["http://hooks.example.com", "https://u:p@hooks.example.com", "https://hooks.example.com"],
      events: ["signature.document.completed"],
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join("."))).toEqual(["urls.0", "urls.1"]);
  });
});

describe("receiver URLs when a delivery is sent", () => {
  it("refuses a host that now resolves to loopback (DNS rebinding) before connecting", async () => {
    const lookup = vi
      .spyOn(dns, "lookup")
      .mockImplementation(((_host: string, _opts: unknown, cb: (e: null, a: dns.LookupAddress[]) => void) =>
        cb(null, [{ address: "127.0.0.1", family: 4 }])) as never);
    const err = await safeRequest("https://hooks.example.com/q", { method: "POST", body: "{}" }, { field: "url", maxBytes: 2048, timeoutMs: 2000 }).catch(
      (e: unknown) => e,
    );
    expect(lookup).toHaveBeenCalled();
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toMatch(/private or local address \(127\.0\.0\.1\)/);
  });

  it("refuses a literal private address without any lookup", async () => {
    await expect(safeRequest("https://169.254.169.254/latest", { method: "POST", body: "{}" }, { field: "url", maxBytes: 2048 })).rejects.toBeInstanceOf(
      UnsafeUrlError,
    );
  });
});

describe("signature header", () => {
  it("is t=<unix seconds>,v1=<hex HMAC-SHA256 of '<t>.<body>'>", async () => {
    const crypto = await import("node:crypto");
    const header = signatureHeader("whsec_test", 1700000000, '{"a":1}');
    expect(header).toBe(`t=1700000000,v1=${crypto.createHmac("sha256", "whsec_test").update('1700000000.{"a":1}').digest("hex")}`);
  });
});

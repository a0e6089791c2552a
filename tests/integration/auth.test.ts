import crypto from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ROLES } from "@/lib/auth/roles";
import { orgWith, reconfigure } from "../support/embedded";
import { as, call, roomInThisMinute, runSeedAgainst } from "../support/helpers";

const quire = inject("quire");
const { baseUrl, seed, other, limited } = quire;

describe("health", () => {
  it("reports the database, the converter and the seal level", async () => {
    const res = await call(baseUrl, "/api/health");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok", database: "ok", pdfConverter: expect.stringMatching(/^(ok|unavailable)$/), sealLevel: "PAdES-B-B" });
  });

  it("reports readiness of the database, the file storage and the converter", async () => {
    const res = await call(baseUrl, "/api/ready");
    expect(res.json).toEqual({
      status: res.status === 200 ? "ready" : "not_ready",
      database: "ok",
      storage: "ok",
      pdfConverter: expect.stringMatching(/^(ok|unavailable)$/),
    });
    expect(res.status).toBe(res.json.pdfConverter === "ok" ? 200 : 503);
  });

  it("has no cron route without CRON_SECRET", async () => {
    expect((await call(baseUrl, "/api/cron/webhooks", { headers: { authorization: "Bearer anything-at-all-000000" } })).status).toBe(404);
  });
});

describe('API key authentication (docs/contract.md "Authentication and roles")', () => {
  it.each(ROLES)("the seeded %s key gets its own identity from /api/whoami", async (role) => {
    const res = await as(baseUrl, seed, role)("/api/whoami");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: { orgId: seed.orgId, role, keyPrefix: seed.keys[role].slice(0, 15) } });
  });

  it("accepts the organization id in any letter case", async () => {
    const res = await call(baseUrl, "/api/whoami", {
      headers: { authorization: `Bearer ${seed.keys.viewer}`, "x-service-org-id": seed.orgId.toUpperCase() },
    });
    expect(res.status).toBe(200);
  });

  it("answers 401 in the deliverable error shape without a key", async () => {
    const res = await call(baseUrl, "/api/whoami", { headers: { "x-service-org-id": seed.orgId } });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: "Unauthorized", message: expect.stringContaining("Authorization") });
  });

  const malformed: [string, string][] = [
    ["empty bearer", "Bearer "],
    ["wrong scheme", `Basic ${Buffer.from("a:b").toString("base64")}`],
    ["not a Quire key", "Bearer abc.def.ghi"],
    ["unknown prefix", "Bearer qk_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["tampered secret", `Bearer ${seed.keys.administrator.slice(0, -1)}${seed.keys.administrator.endsWith("A") ? "B" : "A"}`],
    ["two tokens", `Bearer ${seed.keys.administrator} extra`],
    ["very long", `Bearer ${"x".repeat(8000)}`],
    ["sql-ish", "Bearer qk_' OR 1=1 --"],
  ];
  it.each(malformed)("rejects a malformed Authorization header (%s) with 401, never 500", async (_label, value) => {
    const res = await call(baseUrl, "/api/whoami", { headers: { authorization: value, "x-service-org-id": seed.orgId } });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe("Unauthorized");
  });

  it("answers 401 when the organization header is missing", async () => {
    const res = await call(baseUrl, "/api/whoami", { headers: { authorization: `Bearer ${seed.keys.viewer}` } });
    expect(res.status).toBe(401);
  });

  it.each([
    ["another organization's id", () => other.orgId],
    ["a malformed id", () => "not-a-uuid"],
    ["an id with junk", () => `${seed.orgId}'--`],
  ])("answers 403 to a valid key with %s", async (_label, orgId) => {
    const res = await call(baseUrl, "/api/whoami", { headers: { authorization: `Bearer ${seed.keys.viewer}`, "x-service-org-id": orgId() } });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: "InvalidOrganization", message: "Invalid organization id" });
  });

  it("keeps organizations apart: each org's key only works with its own id", async () => {
    expect((await as(baseUrl, other, "administrator")("/api/whoami")).json.data.orgId).toBe(other.orgId);
    const crossed = await call(baseUrl, "/api/whoami", { headers: { authorization: `Bearer ${other.keys.administrator}`, "x-service-org-id": seed.orgId } });
    expect(crossed.status).toBe(403);
  });
});

describe("rate limiting per key", () => {
  beforeAll(async () => {
    // Stay inside one fixed one-minute window so the count is not reset mid-test.
    await roomInThisMinute(10);
  }, 70_000);

  it("allows the plan's requests per minute, then answers 429 with Retry-After", async () => {
    const viewer = as(baseUrl, limited, "viewer");
    for (let i = 0; i < 5; i++) expect((await viewer("/api/whoami")).status).toBe(200);
    const limitedReply = await viewer("/api/whoami");
    expect(limitedReply.status).toBe(429);
    const retryAfter = Number(limitedReply.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limitedReply.json).toEqual({ error: "RateLimitExceeded", message: expect.any(String) });
    // The limit is per key: another key of the same organization still works.
    expect((await as(baseUrl, limited, "administrator")("/api/whoami")).status).toBe(200);
  });

  it("counts the lists, which read while the key is admitted, and answers them nothing past the limit", async () => {
    const contributor = as(baseUrl, limited, "contributor");
    // On PostgreSQL the template, deliverable and document lists carry the admission in their page's statement (ADR 0022).
    const lists = ["/tag", "/template-item?type=template", "/template-item", "/v1/deliverable", "/esign/documents"];
    for (const path of lists) expect((await contributor(path)).status, path).toBe(200);
    for (const path of lists) {
      const refused = await contributor(path);
      expect(refused.status, path).toBe(429);
      expect(refused.headers.get("retry-after"), path).toMatch(/^\d+$/);
      expect(refused.text, path).not.toContain("results");
    }
  });
});

describe("reads that run while their key is admitted (ADR 0020)", () => {
  it("answers a key deleted since its last request with 401 on the lists it had read, and a 401 comes before a role's 403", async () => {
    const org = await orgWith(quire, {});
    const viewer = as(baseUrl, org, "viewer");
    // The key is now known to the server (identities are kept for a minute).
    for (const path of ["/tag", "/template-item?type=template", "/template-item", "/v1/deliverable", "/esign/documents"])
      expect((await viewer(path)).status, path).toBe(200);
    expect((await viewer("/api/outbox")).status).toBe(403);
    // A folder that is not there is answered before the page's statement, which would carry the admission.
    const missingFolder = `/template-item?folderId=${crypto.randomUUID()}`;
    expect((await viewer(missingFolder)).status).toBe(404);
    // The seed rotates the organization's keys: the old ones are gone from the database.
    const rotated = await reconfigure(quire, org, {});
    // Each list answers 401 in its own family's shape (the template listing's is empty), with nothing it read.
    for (const path of ["/tag", "/template-item?type=template", "/template-item", missingFolder, "/v1/deliverable", "/esign/documents", "/api/outbox"]) {
      const res = await viewer(path);
      expect(res.status, path).toBe(401);
      expect(res.text, path).not.toContain("results");
    }
    const fresh = as(baseUrl, rotated, "viewer");
    expect((await fresh("/tag")).status).toBe(200);
    const forbidden = await fresh("/api/outbox");
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error).toBe("MissingRole");
  });
});

describe("seed", () => {
  it("is idempotent: a rerun keeps the organization and rotates the keys", async () => {
    // Its own organization: rotating the shared fixtures' keys would break other test files.
    const before = await runSeedAgainst(quire, ["--org", "rotation"]);
    expect((await as(baseUrl, before, "contributor")("/api/whoami")).status).toBe(200);
    const again = await runSeedAgainst(quire, ["--org", "rotation"]);
    expect(again.orgId).toBe(before.orgId);
    expect(again.login.email).toBe(before.login.email);
    expect((await as(baseUrl, again, "contributor")("/api/whoami")).status).toBe(200);
    expect((await as(baseUrl, before, "contributor")("/api/whoami")).status).toBe(401);
  });
});

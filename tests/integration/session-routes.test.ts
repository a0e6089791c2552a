// Routes the dashboard calls from the browser answer 401 without a session, and the internal
// seed endpoint 401 without the DATA_DIR secret; none of them does anything for a stranger.
import { describe, expect, inject, it } from "vitest";
import { authHeaders, call } from "../support/helpers";

const { baseUrl, seed } = inject("quire");

describe("session-authenticated and internal routes", () => {
  it.each([
    ["POST", "/api/dashboard/templates"],
    ["POST", "/api/dashboard/deliverables"],
    ["GET", "/api/dashboard/deliverables/00000000-0000-4000-8000-000000000000/pdf"],
    ["GET", "/api/dashboard/deliverables/00000000-0000-4000-8000-000000000000/source"],
    ["GET", "/api/dashboard/templates/00000000-0000-4000-8000-000000000000/preview"],
  ])("%s %s needs a dashboard session, not an API key", async (method, path) => {
    const res = await call(baseUrl, path, { method, headers: authHeaders(seed, "administrator"), body: method === "POST" ? {} : undefined });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: "Unauthorized", message: expect.stringContaining("Sign in") });
  });

  it("refuses the internal seed endpoint without the local secret", async () => {
    const none = await call(baseUrl, "/api/internal/seed", { method: "POST", body: { baseUrl, adminPassword: "whatever-long" } });
    expect(none.status).toBe(401);
    const wrong = await call(baseUrl, "/api/internal/seed", {
      method: "POST",
      headers: { "x-quire-local-secret": "guess" },
      body: { baseUrl, adminPassword: "whatever-long" },
    });
    expect(wrong.status).toBe(401);
  });
});

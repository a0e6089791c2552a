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
    ["GET", "/api/dashboard/templates/00000000-0000-4000-8000-000000000000/preview/pages"],
    ["GET", "/api/dashboard/templates/00000000-0000-4000-8000-000000000000/preview/page/1"],
  ])("%s %s needs a dashboard session, not an API key", async (method, path) => {
    const res = await call(baseUrl, path, { method, headers: authHeaders(seed, "administrator"), body: method === "POST" ? {} : undefined });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: "Unauthorized", message: expect.stringContaining("Sign in") });
  });

  it("sends a browser that opens a dashboard file link signed out to the login page, coming back after", async () => {
    const path = "/api/dashboard/deliverables/00000000-0000-4000-8000-000000000000/pdf?download=1";
    const navigations: Record<string, string>[] = [{ "sec-fetch-dest": "document", accept: "text/html" }, { accept: "text/html,application/xhtml+xml" }];
    for (const headers of navigations) {
      const res = await call(baseUrl, path, { headers });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`/login?callbackUrl=${encodeURIComponent(path)}`);
    }
    // A script's fetch (even one accepting HTML) is not a page: it keeps the JSON 401.
    const scripted = await call(baseUrl, path, { headers: { "sec-fetch-dest": "empty", accept: "*/*" } });
    expect(scripted.status).toBe(401);
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

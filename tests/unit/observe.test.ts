// observed(), the wrapper every route handler runs in: the request id on the reply, one access-log
// line, and errors logged inside the request's context (so pino's mixin adds its reqId) with the
// contract's error bodies unchanged.
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorResponse } from "@/lib/http/errors";
import { noteCaller, observed } from "@/lib/http/observe";
import { accessLog, log, requestContext } from "@/lib/log";

type Entry = { level: string; obj: Record<string, unknown>; msg: string; reqId?: string };

function capture(): Entry[] {
  const entries: Entry[] = [];
  for (const logger of [log, accessLog]) {
    for (const level of ["info", "error", "debug"] as const) {
      vi.spyOn(logger, level).mockImplementation(((obj: Record<string, unknown>, msg: string) => {
        entries.push({ level, obj, msg, reqId: requestContext()?.reqId });
      }) as never);
    }
  }
  return entries;
}

const request = (id?: string, url = "http://quire.test/v1/deliverable?token=abc") => new Request(url, { headers: id ? { "x-request-id": id } : {} });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("observed()", () => {
  it("returns the request id and writes one access-log line with the caller", async () => {
    const entries = capture();
    const handler = observed(async () => {
      noteCaller({ orgId: "org-1", keyPrefix: "qk_0123456789ab" });
      log.info({ step: "inside" }, "domain work");
      return Response.json({ data: 1 }, { status: 201 });
    });
    const res = await handler(request("req-42"));
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toBe("req-42");
    expect(entries.map((e) => [e.msg, e.reqId])).toEqual([
      ["domain work", "req-42"],
      ["request", "req-42"],
    ]);
    expect(entries[1].obj).toMatchObject({ method: "GET", path: "/v1/deliverable", status: 201, orgId: "org-1", keyPrefix: "qk_0123456789ab" });
    expect(entries[1].obj.durationMs).toEqual(expect.any(Number));
  });

  it("logs an unexpected error with the request id and keeps the family's 500 body", async () => {
    const entries = capture();
    const handler = observed(async () => errorResponse(new Error("database exploded"), "deliverable"));
    const res = await handler(request("req-500"));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "InternalServerError", message: "Internal server error" });
    expect(res.headers.get("x-request-id")).toBe("req-500");
    const failure = entries.find((e) => e.level === "error");
    expect(failure).toMatchObject({ msg: "unhandled error", reqId: "req-500" });
    expect((failure!.obj.err as Error).message).toBe("database exploded");
    expect(entries.find((e) => e.msg === "request")?.obj).toMatchObject({ status: 500 });
  });

  it("logs and rethrows what a handler throws (Next.js answers 500), access line with status 500", async () => {
    const entries = capture();
    const boom = new Error("thrown");
    const handler = observed(async () => {
      throw boom;
    });
    await expect(handler(request())).rejects.toBe(boom);
    const failure = entries.find((e) => e.level === "error")!;
    expect(failure.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(failure.obj.err).toBe(boom);
    expect(entries.find((e) => e.msg === "request")).toMatchObject({ reqId: failure.reqId, obj: { status: 500 } });
  });

  it("sets the id on replies whose headers are immutable", async () => {
    capture();
    const res = await observed(async () => Response.redirect("http://quire.test/elsewhere", 303))(request("req-redirect"));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("http://quire.test/elsewhere");
    expect(res.headers.get("x-request-id")).toBe("req-redirect");
  });

  it("logs probes at debug level", async () => {
    const entries = capture();
    await observed(async () => new Response("ok"), { accessLog: "debug" })(request());
    expect(entries.map((e) => [e.level, e.msg])).toEqual([["debug", "request"]]);
  });
});

describe("every route handler is observed", () => {
  it("wraps each app/**/route.ts in observed(), apiRoute(), publicRoute() or dashboardRoute(), so every reply has X-Request-Id and an access line", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const root = path.resolve(__dirname, "..", "..", "app");
    const routes = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith("route.ts"));
    expect(routes.length).toBeGreaterThan(40);
    const unwrapped = routes.filter((f) => !/\b(observed|apiRoute|publicRoute|dashboardRoute)(<[^>]*>)?\(/.test(fs.readFileSync(path.join(root, f), "utf8")));
    expect(unwrapped).toEqual([]);
  });
});

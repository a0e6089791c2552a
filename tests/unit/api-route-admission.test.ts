// apiRoute and a key's admission (ADR 0020): an operation that only reads runs while the key is being
// admitted, and nothing it found is answered unless the key is admitted: the admission's 401 or 429
// comes before the handler's own answer and before a 403; a plan that changed since it was last read
// makes the handler read again; every other operation starts only once the key is admitted.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import type { IdentifiedKey } from "@/lib/auth/authenticate";
import type { Plan } from "@/lib/auth/roles";
import { NotFoundError, RateLimitedError, UnauthenticatedError } from "@/lib/errors";
import type { KeyedOperation } from "@/lib/http/api-route";

const identify = vi.hoisted(() => ({ next: null as null | (() => Promise<IdentifiedKey>) }));
vi.mock("@/lib/auth/authenticate", () => ({ identifyApiKey: () => identify.next!() }));
const { apiRoute, dataResponse } = await import("@/lib/http/api-route");

const PLAN: Plan = {
  hasFileDownload: true,
  emailOtp: true,
  smsOtp: false,
  maxDeliverables: 100,
  maxStorageBytes: 10n ** 9n,
  smsAllowance: 0,
  rateLimitPerMinute: 100,
};
const principal = (role: ApiPrincipal["role"], plan: Plan = PLAN): ApiPrincipal => ({
  keyId: "key-1",
  keyPrefix: "qk_0123456789ab",
  orgId: "org-1",
  role,
  userId: "user-1",
  userEmail: "u@example.com",
  plan,
});

/** An admission the test settles by hand, and the order things happened in. */
function pendingAdmission(assumed: ApiPrincipal, mayRunAhead = true) {
  const events: string[] = [];
  let settle!: { admit: (p: ApiPrincipal) => void; refuse: (e: Error) => void };
  const admitted = new Promise<ApiPrincipal>((resolve, reject) => {
    settle = {
      admit: (p) => {
        events.push("admitted");
        resolve(p);
      },
      refuse: (e) => {
        events.push("refused");
        reject(e);
      },
    };
  });
  admitted.catch(() => {});
  identify.next = async () => ({ assumed, mayRunAhead, admitted });
  return { events, settle };
}

const op = (extra: Partial<KeyedOperation> = {}): KeyedOperation => ({
  operationId: "listThings",
  method: "get",
  path: "/things",
  summary: "Things",
  tag: "Service",
  auth: { family: "deliverable", roles: ["administrator", "viewer"] },
  success: { status: 200, description: "ok" },
  ...extra,
});
const ctx = { params: Promise.resolve({}) };
const request = () => new Request("http://quire.test/things");
/** Lets every promise already settled run its callbacks (the handler's start included). */
const turns = () => new Promise((r) => setTimeout(r, 5));

beforeEach(() => {
  identify.next = null;
});

describe("apiRoute: a read runs while its key is admitted", () => {
  it("starts a readsOnly handler before the admission settles and answers its reply once the key is admitted", async () => {
    const { events, settle } = pendingAdmission(principal("viewer"));
    const route = apiRoute(op({ readsOnly: true }), async ({ principal: p }) => {
      events.push(`handler as ${p.role}`);
      return dataResponse({ results: [1, 2, 3] });
    });
    const reply = route(request(), ctx);
    await turns();
    expect(events).toEqual(["handler as viewer"]);
    settle.admit(principal("viewer"));
    const res = await reply;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { results: [1, 2, 3] } });
    expect(events).toEqual(["handler as viewer", "admitted"]);
  });

  it.each([
    ["a revoked key", () => new UnauthenticatedError(), 401, { error: "Unauthorized", message: "Invalid or missing API key" }],
    ["a key over its rate", () => new RateLimitedError(30), 429, { error: "RateLimitExceeded", message: expect.any(String) }],
  ])("answers %s with the admission's error, never with what the handler read", async (_label, refusal, status, body) => {
    const { events, settle } = pendingAdmission(principal("viewer"));
    const route = apiRoute(op({ readsOnly: true }), async () => {
      events.push("handler");
      return dataResponse({ results: ["secret"] });
    });
    const reply = route(request(), ctx);
    await turns();
    settle.refuse(refusal());
    const res = await reply;
    expect(events).toEqual(["handler", "refused"]);
    expect(res.status).toBe(status);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual(body);
    expect(text).not.toContain("secret");
  });

  it.each([
    ["refused: the admission's 401 comes before the handler's own error", false, 401],
    ["admitted: the handler's own error is answered", true, 404],
  ])("a handler that fails, the key %s", async (_label, admit, status) => {
    const { settle } = pendingAdmission(principal("viewer"));
    const route = apiRoute(op({ readsOnly: true }), async () => {
      throw new NotFoundError("Thing not found");
    });
    const reply = route(request(), ctx);
    await turns();
    if (admit) settle.admit(principal("viewer"));
    else settle.refuse(new UnauthenticatedError());
    const res = await reply;
    expect(res.status).toBe(status);
    if (admit) expect(await res.json()).toEqual({ error: "NotFound", message: "Thing not found" });
  });

  it("does not run the handler for a role the record refuses, and puts a revocation's 401 before the 403", async () => {
    const handler = vi.fn(async () => dataResponse({}));
    const route = apiRoute(op({ readsOnly: true, auth: { family: "deliverable", roles: ["administrator"] } }), handler);
    const revoked = pendingAdmission(principal("viewer"));
    const first = route(request(), ctx);
    await turns();
    revoked.settle.refuse(new UnauthenticatedError());
    expect((await first).status).toBe(401);
    const admitted = pendingAdmission(principal("viewer"));
    const second = route(request(), ctx);
    await turns();
    admitted.settle.admit(principal("viewer"));
    const res = await second;
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe("MissingRole");
    expect(handler).not.toHaveBeenCalled();
  });

  it("reads again when the plan read at admission differs from the one the handler ran with", async () => {
    const { events, settle } = pendingAdmission(principal("viewer"));
    const fresh = { ...PLAN, maxDeliverables: 5 };
    const route = apiRoute(op({ readsOnly: true }), async ({ principal: p }) => {
      events.push(`handler with ${p.plan.maxDeliverables}`);
      return dataResponse({ maxDeliverables: p.plan.maxDeliverables });
    });
    const reply = route(request(), ctx);
    await turns();
    settle.admit(principal("viewer", fresh));
    const res = await reply;
    expect(await res.json()).toEqual({ data: { maxDeliverables: 5 } });
    expect(events).toEqual(["handler with 100", "admitted", "handler with 5"]);
  });

  it("waits for the admission when the key's last admission was refused for its rate", async () => {
    const { events, settle } = pendingAdmission(principal("viewer"), false);
    const route = apiRoute(op({ readsOnly: true }), async () => {
      events.push("handler");
      return dataResponse({});
    });
    const reply = route(request(), ctx);
    await turns();
    expect(events).toEqual([]);
    settle.refuse(new RateLimitedError(12));
    expect((await reply).status).toBe(429);
    expect(events).toEqual(["refused"]);
  });

  it("starts any other operation only once the key is admitted", async () => {
    const { events, settle } = pendingAdmission(principal("viewer"));
    const route = apiRoute(op({ method: "post" }), async () => {
      events.push("handler");
      return dataResponse({});
    });
    const reply = route(request(), ctx);
    await turns();
    expect(events).toEqual([]);
    settle.admit(principal("viewer"));
    expect((await reply).status).toBe(200);
    expect(events).toEqual(["admitted", "handler"]);
  });
});

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
import { z } from "zod";

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
  identify.next = async () => ({ assumed, mayRunAhead, admit: () => admitted, fold: () => null });
  return { events, settle };
}

/**
 * A key whose admission a handler's statement may carry (ADR 0022): settle() stands for that statement
 * having run, with "admit" or "refuse" as the column's value; admit() is the admission's own statement,
 * unless the fold was settled.
 */
function foldableAdmission(assumed: ApiPrincipal, ownOutcome: "admit" | "refuse" = "admit", mayRunAhead = true) {
  const events: string[] = [];
  let settled: Promise<ApiPrincipal> | undefined;
  const fresh = { ...assumed, plan: { ...assumed.plan, maxDeliverables: 7 } };
  const decide = (how: unknown) => (how === "admit" ? Promise.resolve(fresh) : Promise.reject(new UnauthenticatedError()));
  identify.next = async () => ({
    assumed,
    mayRunAhead,
    admit: () => {
      if (settled) return settled;
      events.push("own statement");
      settled = decide(ownOutcome);
      return settled;
    },
    fold: () => ({
      ctes: () => "",
      column: "",
      params: [],
      settle: (value: unknown) => {
        events.push(`folded: ${value}`);
        settled = decide(value);
        settled.catch(() => {});
        return settled.then((p) => p.plan);
      },
    }),
  });
  return events;
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

describe("apiRoute: an admission carried by the handler's first statement (ADR 0022)", () => {
  const foldingOp = (extra: Partial<KeyedOperation> = {}) => op({ method: "post", foldsAdmission: true, ...extra });
  const post = (headers: Record<string, string> = {}) => new Request("http://quire.test/things", { method: "POST", headers });

  it("hands the handler the admission, uses the plan it settles and runs no statement of its own", async () => {
    const events = foldableAdmission(principal("viewer"));
    const route = apiRoute(foldingOp(), async ({ admission }) => {
      const plan = await admission!.settle("admit");
      events.push(`handler with ${plan.maxDeliverables}`);
      return dataResponse({ maxDeliverables: plan.maxDeliverables });
    });
    const res = await route(post(), ctx);
    expect(await res.json()).toEqual({ data: { maxDeliverables: 7 } });
    expect(events).toEqual(["folded: admit", "handler with 7"]);
  });

  it("answers a refusal the statement carried, whatever the handler then did", async () => {
    const events = foldableAdmission(principal("viewer"));
    const route = apiRoute(foldingOp(), async ({ admission }) => {
      await admission!.settle("refuse").catch(() => events.push("handler went on"));
      throw new NotFoundError("Thing not found");
    });
    const res = await route(post(), ctx);
    expect(res.status).toBe(401);
    expect(events).toEqual(["folded: refuse", "handler went on"]);
  });

  it.each([
    ["refused: its 401 comes before the handler's 400", "refuse" as const, 401],
    ["admitted: the handler's 400 is answered", "admit" as const, 400],
  ])("admits by its own statement a request whose handler failed before its statement, the key %s", async (_label, outcome, status) => {
    const events = foldableAdmission(principal("viewer"), outcome);
    const route = apiRoute(foldingOp({ body: { json: z.object({ n: z.number() }) } }), async ({ json }) => {
      await json();
      return dataResponse({});
    });
    const res = await route(new Request("http://quire.test/things", { method: "POST", body: "{not json" }), ctx);
    expect(res.status).toBe(status);
    expect(events).toEqual(["own statement"]);
  });

  it("never answers a handler that did not settle the admission before the key is admitted by its own statement", async () => {
    const events = foldableAdmission(principal("viewer"), "refuse");
    const route = apiRoute(foldingOp(), async () => dataResponse({ results: ["secret"] }));
    const res = await route(post(), ctx);
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain("secret");
    expect(events).toEqual(["own statement"]);
  });

  it("folds a read's admission into its statement where the database can carry it, not running it ahead", async () => {
    const events = foldableAdmission(principal("viewer"));
    const route = apiRoute(op({ readsOnly: true, foldsAdmission: true }), async ({ admission }) => {
      events.push(`handler ${admission ? "carries" : "without"} the admission`);
      await admission!.settle("admit");
      return dataResponse({ results: [1] });
    });
    const res = await route(request(), ctx);
    expect(await res.json()).toEqual({ data: { results: [1] } });
    expect(events).toEqual(["handler carries the admission", "folded: admit"]);
  });

  it("runs such a read ahead of its admission where nothing can be folded (the embedded database)", async () => {
    const { events, settle } = pendingAdmission(principal("viewer"));
    const route = apiRoute(op({ readsOnly: true, foldsAdmission: true }), async ({ admission }) => {
      events.push(`handler ${admission ? "carries" : "without"} the admission`);
      return dataResponse({ results: [1] });
    });
    const reply = route(request(), ctx);
    await turns();
    expect(events).toEqual(["handler without the admission"]);
    settle.refuse(new UnauthenticatedError());
    expect((await reply).status).toBe(401);
  });

  it.each([
    ["an Idempotency-Key", foldingOp(), post({ "idempotency-key": "k-1" }), true],
    ["a record with a license feature", foldingOp({ auth: { family: "deliverable", roles: ["viewer"], feature: "hasFileDownload" } }), post(), true],
    ["a key refused for its rate last time", foldingOp(), post(), false],
  ])("admits first, with nothing to fold, a request with %s", async (_label, record, req, mayRunAhead) => {
    const events = foldableAdmission(principal("viewer"), "refuse", mayRunAhead);
    const handler = vi.fn(async () => dataResponse({}));
    const res = await apiRoute(record, handler)(req, ctx);
    expect(res.status).toBe(401);
    expect(handler).not.toHaveBeenCalled();
    expect(events).toEqual(["own statement"]);
  });
});

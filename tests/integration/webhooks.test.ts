// Size: one server's webhook scenarios, sharing a receiver and completed documents.
// Signature webhooks over HTTP (docs/contract.md "Webhooks", "Error bodies"):
// roles and error bodies, validation, CRUD, secrets, Test Webhook, the delivery list, replay, and real
// deliveries from completed and voided documents to a real HTTPS receiver on loopback that checks
// every signature. The shared server trusts the receiver's CA (NODE_EXTRA_CA_CERTS), allows loopback
// receivers (WEBHOOK_ALLOW_PRIVATE), shortens the back-off (WEBHOOK_RETRY_SCALE) and the time-out
// (WEBHOOK_TIMEOUT_MS): see tests/integration/global-setup.ts.
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import type { SeedResult } from "@/lib/orgs/seed";
import { as, call } from "../support/api";
import { prepareDoc, tokenOfUrl } from "../support/embedded";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { startReceiver, verifySignature, type ReceivedDelivery } from "../support/https-receiver";

const server = inject("quire");
const { baseUrl } = server;
process.env.QUIRE_TEST_CERTS_DIR = server.env.QUIRE_TEST_CERTS_DIR;

const COMPLETED = "signature.document.completed";
const VOIDED = "signature.document.voided";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

/** A receiver that verifies signatures with whatever secret `secret.value` holds when a request arrives. */
async function receiver(respond?: (n: number, d: ReceivedDelivery) => { status: number; delayMs?: number; body?: string; headers?: Record<string, string> }) {
  const secret = { value: "" };
  const r = await startReceiver({ secret: () => secret.value, respond });
  receivers.push(r);
  return Object.assign(r, { secret });
}

/**
 * A fresh organization, seeded by the seed CLI without blocking this process: a blocking spawnSync would
 * stall the receivers and leave fetch a keep-alive socket the server has closed meanwhile.
 */
async function freshOrg(signing: Record<string, unknown> = {}): Promise<SeedResult> {
  const root = path.resolve(__dirname, "..", "..");
  const slug = `wh-${crypto.randomBytes(4).toString("hex")}`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/seed.ts", "--json", "--org", slug, "--signing", JSON.stringify(signing)],
    { cwd: root, env: server.env as NodeJS.ProcessEnv },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!) as SeedResult;
}

async function createHook(org: SeedResult, body: Record<string, unknown>) {
  const r = await as(baseUrl, org)("/api/webhooks", { method: "POST", body });
  expect(r.status, r.text).toBe(201);
  return r.json.data as { id: string; name: string; secret: string; standardSecret: string; urls: string[]; events: string[] };
}

type Delivery = {
  id: string;
  webhookId: string;
  eventType: string;
  url: string;
  httpStatus: number | null;
  attemptCount: number;
  maxAttempts: number;
  isDelivered: boolean;
  status: string;
  errorMessage?: string;
  payload: { id: string; event: string; orgId: string; createdOn: string; data: Record<string, unknown> };
  responseBody: string | null;
  nextAttemptAt: string | null;
  createdOn: string;
  updatedOn: string;
};

async function deliveries(org: SeedResult, name: string, query = "limit=100") {
  const r = await as(baseUrl, org)(`/api/webhooks/${name}/deliveries?${query}`);
  expect(r.status, r.text).toBe(200);
  return r.json.data as { results: Delivery[]; totalRecords: number };
}

/** Polls the delivery list until `check` passes (no fixed sleeps). */
async function waitForDeliveries(org: SeedResult, name: string, check: (list: Delivery[]) => void, timeout = 45_000): Promise<Delivery[]> {
  return vi.waitFor(
    async () => {
      const { results } = await deliveries(org, name);
      check(results);
      return results;
    },
    { timeout, interval: 250 },
  );
}

const byDelivery = (r: Receiver, id: string) => r.received.filter((d) => d.headers["x-service-delivery"] === id);

describe("webhook endpoints: keys and roles (7.3)", () => {
  const endpoints: [string, string, unknown?][] = [
    ["GET", "/api/webhooks"],
    ["POST", "/api/webhooks", { name: "signature", urls: ["https://hooks.example.com/q"], events: [COMPLETED] }],
    ["GET", "/api/webhooks/signature"],
    ["PATCH", "/api/webhooks/signature", { isActive: false }],
    ["DELETE", "/api/webhooks/signature"],
    ["POST", "/api/webhooks/signature/regenerate-secret"],
    ["POST", "/api/webhooks/signature/test", {}],
    ["GET", "/api/webhooks/signature/deliveries"],
    ["POST", "/api/webhooks/signature/deliveries/00000000-0000-4000-8000-000000000000/replay"],
  ];

  it("answers 401 with an empty body without a valid key, and 403 with an empty body to every role but administrator", async () => {
    const org = server.seed;
    for (const [method, path, body] of endpoints) {
      const none = await call(baseUrl, path, { method, body });
      expect([method, path, none.status, none.text]).toEqual([method, path, 401, ""]);
      const bad = await call(baseUrl, path, { method, body, headers: { authorization: "Bearer qk_not_a_real_key_0123456789", "x-service-org-id": org.orgId } });
      expect([method, path, bad.status, bad.text]).toEqual([method, path, 401, ""]);
      const noOrg = await call(baseUrl, path, { method, body, headers: { authorization: `Bearer ${org.keys.administrator}` } });
      expect([method, path, noOrg.status, noOrg.text]).toEqual([method, path, 401, ""]);
      for (const role of ["contributor", "user", "viewer"] as const) {
        const r = await as(baseUrl, org, role)(path, { method, body });
        expect([method, path, role, r.status, r.text]).toEqual([method, path, role, 403, ""]);
      }
    }
    // Nothing was created by the refused calls.
    expect((await as(baseUrl, org)("/api/webhooks/signature")).status).toBe(404);
  });
});

describe("webhook validation (7.3, 8)", () => {
  it("lists every problem of a create at once and creates nothing", async () => {
    const org = await freshOrg();
    const api = as(baseUrl, org);
    const empty = await api("/api/webhooks", { method: "POST", body: {} });
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({ type: "ValidationError", message: expect.any(String) });
    expect(empty.json.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(["events", "name", "urls"]);

    const bad = await api("/api/webhooks", {
      method: "POST",
      body: {
        name: "bad name!",
        urls: ["http://hooks.example.com/plain", "not a url", "https://user:pw@hooks.example.com/", "https://hooks.example.com/ok"],
        events: [COMPLETED, "signature.document.nope"],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.type).toBe("ValidationError");
    const errors = bad.json.data.errors as { field: string; message: string }[];
    expect(errors.map((e) => e.field).sort()).toEqual(["events.1", "name", "urls.0", "urls.1", "urls.2"]);
    expect(errors.find((e) => e.field === "urls.0")!.message).toMatch(/https/);
    expect(errors.find((e) => e.field === "events.1")!.message).toContain(COMPLETED);

    const eleven = await api("/api/webhooks", {
      method: "POST",
      body: { name: "signature", urls: Array.from({ length: 11 }, (_, i) => `https://hooks.example.com/${i}`), events: [COMPLETED] },
    });
    expect(eleven.status).toBe(400);
    expect(eleven.json.data.errors).toEqual([{ field: "urls", message: expect.stringMatching(/10/) }]);

    const none = await api("/api/webhooks", { method: "POST", body: { name: "", urls: [], events: [] } });
    expect(none.status).toBe(400);
    expect([...new Set(none.json.data.errors.map((e: { field: string }) => e.field))].sort()).toEqual(["events", "name", "urls"]);

    const types = await api("/api/webhooks", { method: "POST", body: { name: 7, urls: "https://hooks.example.com", events: COMPLETED } });
    expect(types.status).toBe(400);
    expect(types.json.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(["events", "name", "urls"]);

    const longName = await api("/api/webhooks", { method: "POST", body: { name: "x".repeat(101), urls: ["https://hooks.example.com"], events: [COMPLETED] } });
    expect(longName.json.data.errors).toEqual([{ field: "name", message: expect.stringMatching(/100/) }]);

    const notJson = await api("/api/webhooks", { method: "POST", body: "{not json", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect(notJson.json.type).toBe("ValidationError");

    const list = await api("/api/webhooks");
    expect(list.json.data.results).toEqual([]);
  });

  it("lists every problem of an update and changes nothing", async () => {
    const org = await freshOrg();
    const api = as(baseUrl, org);
    const hook = await createHook(org, { name: "signature", urls: ["https://hooks.example.com/a"], events: [COMPLETED] });
    const r = await api("/api/webhooks/signature", {
      method: "PATCH",
      body: { name: "no spaces allowed", urls: ["http://hooks.example.com/b"], events: [], isActive: "yes" },
    });
    expect(r.status).toBe(400);
    expect(r.json.type).toBe("ValidationError");
    expect(r.json.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(["events", "isActive", "name", "urls.0"]);
    const after = await api("/api/webhooks/signature");
    expect(after.json.data).toMatchObject({ id: hook.id, name: "signature", urls: ["https://hooks.example.com/a"], events: [COMPLETED], isActive: true });
  });
});

describe("webhook CRUD", () => {
  it("creates with the full secret once, reads with a masked secret, stats and available events", async () => {
    const org = await freshOrg();
    const api = as(baseUrl, org);
    const r = await api("/api/webhooks", {
      method: "POST",
      body: { name: "signature", urls: ["https://hooks.example.com/a", "https://hooks.example.com/b"], events: [COMPLETED, VOIDED, COMPLETED] },
    });
    expect(r.status).toBe(201);
    expect(r.json.message).toMatch(/save/i);
    expect(r.json.message).toMatch(/not shown again/i);
    const data = r.json.data;
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      orgId: org.orgId,
      name: "signature",
      urls: ["https://hooks.example.com/a", "https://hooks.example.com/b"],
      events: [COMPLETED, VOIDED],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      standardSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      secretExists: true,
      isActive: true,
      pausedReason: null,
      createdBy: expect.stringMatching(UUID),
      createdOn: expect.stringMatching(ISO),
      updatedOn: expect.stringMatching(ISO),
    });

    const got = await api("/api/webhooks/signature");
    expect(got.status).toBe(200);
    expect(Buffer.from(data.standardSecret.slice(6), "base64").equals(Buffer.from(data.secret.slice(6), "base64url"))).toBe(true);
    expect(got.json.data).toEqual({
      ...data,
      secret: undefined,
      standardSecret: undefined,
      maskedSecret: `whsec_…${data.secret.slice(-4)}`,
      deliveryStats: { total: 0, delivered: 0, retrying: 0, failed: 0, lastDeliveryAt: null },
      availableEvents: [
        "signature.document.sent",
        "signature.document.viewed",
        "signature.document.recipient_signed",
        COMPLETED,
        "signature.document.finalization_failed",
        VOIDED,
        "signature.document.declined",
      ],
    });
    expect(got.text).not.toContain(data.secret);
    expect((await api("/api/webhooks")).text).not.toContain(data.secret);
  });

  it("refuses a second active webhook of the same name with 409 WebhookNameTaken; a paused one does not hold the name", async () => {
    const org = await freshOrg();
    const api = as(baseUrl, org);
    const first = await createHook(org, { name: "signature", urls: ["https://hooks.example.com/1"], events: [COMPLETED] });
    const taken = await api("/api/webhooks", { method: "POST", body: { name: "signature", urls: ["https://hooks.example.com/2"], events: [VOIDED] } });
    expect(taken.status).toBe(409);
    expect(taken.json).toEqual({
      message: expect.any(String),
      error: "WebhookNameTaken",
      data: { constraint: expect.any(String), orgId: org.orgId, name: "signature" },
    });

    // Rename onto a taken name: 409 as well, naming the wanted name.
    await createHook(org, { name: "other", urls: ["https://hooks.example.com/3"], events: [VOIDED] });
    const rename = await api("/api/webhooks/other", { method: "PATCH", body: { name: "signature" } });
    expect(rename.status).toBe(409);
    expect(rename.json).toEqual({
      message: expect.any(String),
      error: "WebhookNameTaken",
      data: { constraint: expect.any(String), orgId: org.orgId, name: "signature" },
    });
    expect((await api("/api/webhooks/other")).json.data.name).toBe("other");

    // Pause the first: it keeps its secret and history, and the name is free.
    const paused = await api("/api/webhooks/signature", { method: "PATCH", body: { isActive: false } });
    expect(paused.status).toBe(200);
    expect(paused.json.data).toMatchObject({ id: first.id, isActive: false, secretExists: true, maskedSecret: `whsec_…${first.secret.slice(-4)}` });
    const second = await createHook(org, { name: "signature", urls: ["https://hooks.example.com/4"], events: [VOIDED] });
    expect(second.id).not.toBe(first.id);
    // By name, the active one wins.
    expect((await api("/api/webhooks/signature")).json.data.id).toBe(second.id);
    // The list: active ones first, the latest changed first among them, the paused one last, each masked.
    const list = await api("/api/webhooks");
    expect(list.status).toBe(200);
    expect(list.json.data.results.map((w: { id: string }) => w.id)).toEqual([second.id, expect.any(String), first.id]);
    expect(list.json.data.results[1].name).toBe("other");
    expect(list.json.data.results[2]).toEqual({
      id: first.id,
      orgId: org.orgId,
      name: "signature",
      urls: ["https://hooks.example.com/1"],
      events: [COMPLETED],
      maskedSecret: `whsec_…${first.secret.slice(-4)}`,
      secretExists: true,
      isActive: false,
      pausedReason: null,
      createdBy: expect.stringMatching(UUID),
      createdOn: expect.stringMatching(ISO),
      updatedOn: expect.stringMatching(ISO),
    });
    expect(Date.parse(list.json.data.results[2].updatedOn)).toBeGreaterThan(Date.parse(list.json.data.results[2].createdOn));

    // Delete the active one; the paused one is found by name again and can be resumed.
    const deleted = await api("/api/webhooks/signature", { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ data: { id: second.id }, message: expect.any(String) });
    expect((await api("/api/webhooks/signature")).json.data).toMatchObject({ id: first.id, isActive: false });
    const resumed = await api("/api/webhooks/signature", { method: "PATCH", body: { isActive: true } });
    expect(resumed.status).toBe(200);
    expect(resumed.json.data).toMatchObject({ id: first.id, isActive: true });
  });

  it("updates name, urls, events and isActive; lists are replaced, and the reply has no stats", async () => {
    const org = await freshOrg();
    const api = as(baseUrl, org);
    const hook = await createHook(org, {
      name: "signature",
      urls: ["https://hooks.example.com/a", "https://hooks.example.com/b"],
      events: [COMPLETED, VOIDED],
    });
    const r = await api("/api/webhooks/signature", { method: "PATCH", body: { urls: ["https://hooks.example.com/c"], events: [VOIDED] } });
    expect(r.status).toBe(200);
    expect(r.json.message).toEqual(expect.any(String));
    expect(r.json.data).toEqual({
      id: hook.id,
      orgId: org.orgId,
      name: "signature",
      urls: ["https://hooks.example.com/c"],
      events: [VOIDED],
      maskedSecret: `whsec_…${hook.secret.slice(-4)}`,
      secretExists: true,
      isActive: true,
      pausedReason: null,
      createdBy: expect.stringMatching(UUID),
      createdOn: expect.stringMatching(ISO),
      updatedOn: expect.stringMatching(ISO),
    });
    const renamed = await api("/api/webhooks/signature", { method: "PATCH", body: { name: "renamed" } });
    expect(renamed.json.data).toMatchObject({ id: hook.id, name: "renamed", urls: ["https://hooks.example.com/c"] });
    expect((await api("/api/webhooks/signature")).status).toBe(404);
    const empty = await api("/api/webhooks/renamed", { method: "PATCH", body: {} });
    expect(empty.status).toBe(200);
    expect(empty.json.data).toMatchObject({ name: "renamed", isActive: true });
  });

  it("answers 404 { error: Webhook not found } for an unknown name, and another organization's webhook is unknown", async () => {
    const org = await freshOrg();
    await createHook(org, { name: "signature", urls: ["https://hooks.example.com/a"], events: [COMPLETED] });
    const other = as(baseUrl, server.other);
    const api = as(baseUrl, org);
    for (const [method, path, body] of [
      ["GET", "/api/webhooks/nope"],
      ["PATCH", "/api/webhooks/nope", { isActive: false }],
      ["DELETE", "/api/webhooks/nope"],
      ["POST", "/api/webhooks/nope/regenerate-secret"],
      ["POST", "/api/webhooks/nope/test", {}],
      ["GET", "/api/webhooks/nope/deliveries"],
      ["POST", "/api/webhooks/nope/deliveries/00000000-0000-4000-8000-000000000000/replay"],
    ] as [string, string, unknown?][]) {
      const r = await api(path, { method, body });
      expect([method, path, r.status, r.json]).toEqual([method, path, 404, { error: "Webhook not found" }]);
      const cross = await other(path.replace("nope", "signature"), { method, body });
      expect([method, path, cross.status, cross.json]).toEqual([method, path, 404, { error: "Webhook not found" }]);
    }
    expect((await api("/api/webhooks/signature")).json.data.isActive).toBe(true);
  });

  it("regenerates the secret: the new one is shown once and signs what follows", async () => {
    const org = await freshOrg();
    const api = as(baseUrl, org);
    const rx = await receiver();
    const hook = await createHook(org, { name: "signature", urls: [rx.url], events: [COMPLETED] });
    rx.secret.value = hook.secret;
    const regen = await api("/api/webhooks/signature/regenerate-secret", { method: "POST" });
    expect(regen.status).toBe(200);
    expect(regen.json.message).toMatch(/not shown again/i);
    const secret = regen.json.data.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(secret).not.toBe(hook.secret);
    expect(regen.json.data).toMatchObject({ id: hook.id, secretExists: true, isActive: true });
    expect((await api("/api/webhooks/signature")).json.data.maskedSecret).toBe(`whsec_…${secret.slice(-4)}`);

    const test = await api("/api/webhooks/signature/test", { method: "POST", body: {} });
    expect(test.json.data.deliveries[0].status).toBe("delivered");
    const [got] = rx.received;
    const header = String(got.headers["x-service-signature"]);
    expect(verifySignature(secret, header, got.body)).toBe(true);
    expect(verifySignature(hook.secret, header, got.body)).toBe(false);
  });
});

describe("Test Webhook (4.4)", () => {
  it("creates a real, signed delivery per URL; the summary counts only record errors, a 500 shows on the delivery", async () => {
    const org = await freshOrg();
    const api = as(baseUrl, org);
    const ok = await receiver();
    const failing = await receiver(() => ({ status: 500, body: "x".repeat(5000) }));
    const hook = await createHook(org, { name: "signature", urls: [ok.url, failing.url], events: [COMPLETED, VOIDED] });
    ok.secret.value = failing.secret.value = hook.secret;

    const r = await api("/api/webhooks/signature/test", { method: "POST", body: { eventType: VOIDED, payload: { documentId: "doc-42", note: "hello" } } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.message).toEqual(expect.any(String));
    expect(r.json.data.summary).toEqual({ total: 2, successful: 2, failed: 0, errors: [] });
    const [good, bad] = r.json.data.deliveries as Delivery[];
    expect(good).toMatchObject({
      id: expect.stringMatching(UUID),
      eventType: VOIDED,
      url: ok.url,
      httpStatus: 200,
      attemptCount: 1,
      maxAttempts: 6,
      isDelivered: true,
      status: "delivered",
    });
    expect(good.errorMessage).toBeUndefined();
    expect(bad).toMatchObject({
      eventType: VOIDED,
      url: failing.url,
      httpStatus: 500,
      attemptCount: 1,
      maxAttempts: 6,
      isDelivered: false,
      status: "retrying",
      errorMessage: expect.stringMatching(/500/),
    });

    // What the receiver got: the envelope, the headers, a valid signature.
    expect(ok.received).toHaveLength(1);
    const got = ok.received[0];
    expect(got.signatureValid).toBe(true);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-service-event"]).toBe(VOIDED);
    expect(got.headers["x-service-delivery"]).toBe(good.id);
    expect(Math.abs(Number(got.headers["x-service-timestamp"]) - Date.now() / 1000)).toBeLessThan(300);
    expect(String(got.headers["x-service-signature"])).toMatch(new RegExp(`^t=${got.headers["x-service-timestamp"]},v1=[0-9a-f]{64}$`));
    const body = JSON.parse(got.body);
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      event: VOIDED,
      createdOn: expect.stringMatching(ISO),
      orgId: org.orgId,
      data: { documentId: "doc-42", note: "hello" },
    });
    // Standard Webhooks: the standardwebhooks library verifies it with standardSecret; webhook-id is the event id.
    expect(got.headers["webhook-id"]).toBe(body.id);
    expect(
      new StandardWebhook(hook.standardSecret).verify(got.body, {
        "webhook-id": String(got.headers["webhook-id"]),
        "webhook-timestamp": String(got.headers["webhook-timestamp"]),
        "webhook-signature": String(got.headers["webhook-signature"]),
      }),
    ).toEqual(body);
    expect(() =>
      new StandardWebhook(hook.standardSecret).verify(got.body.replace("hello", "hallo"), {
        "webhook-id": String(got.headers["webhook-id"]),
        "webhook-timestamp": String(got.headers["webhook-timestamp"]),
        "webhook-signature": String(got.headers["webhook-signature"]),
      }),
    ).toThrow();

    // Both are real records in the list; the failing one keeps being retried, then fails after 6 attempts.
    const listed = await deliveries(org, "signature");
    expect(listed.results.map((d) => d.id).sort()).toEqual([good.id, bad.id].sort());
    const final = await waitForDeliveries(org, "signature", (list) => expect(list.find((d) => d.id === bad.id)?.status).toBe("failed"));
    const failed = final.find((d) => d.id === bad.id)!;
    expect(failed).toMatchObject({
      attemptCount: 6,
      maxAttempts: 6,
      isDelivered: false,
      httpStatus: 500,
      errorMessage: expect.stringMatching(/500/),
      nextAttemptAt: null,
      webhookId: hook.id,
    });
    // The stored response body is cut at 2 KB.
    expect(failed.responseBody).toBe("x".repeat(2048));
    const attempts = byDelivery(failing, bad.id);
    expect(attempts).toHaveLength(6);
    expect(attempts.every((a) => a.signatureValid && a.body === attempts[0].body)).toBe(true);
    const stats = (await api("/api/webhooks/signature")).json.data.deliveryStats;
    expect(stats).toEqual({ total: 2, delivered: 1, retrying: 0, failed: 1, lastDeliveryAt: expect.stringMatching(ISO) });
  });

  it("pauses a webhook whose receiver answers 410 Gone, saying why, and stops retrying", async () => {
    const org = await freshOrg();
    const api = as(baseUrl, org);
    const gone = await receiver(() => ({ status: 410 }));
    const hook = await createHook(org, { name: "signature", urls: [gone.url], events: [COMPLETED, VOIDED] });
    gone.secret.value = hook.secret;
    const r = await api("/api/webhooks/signature/test", { method: "POST", body: { eventType: VOIDED } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.deliveries[0]).toMatchObject({
      httpStatus: 410,
      status: "failed",
      isDelivered: false,
      errorMessage: expect.stringMatching(/410 Gone.*paused/),
    });
    const got = (await api("/api/webhooks/signature")).json.data;
    expect(got).toMatchObject({ isActive: false, pausedReason: expect.stringContaining("answered 410 Gone") });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(gone.received).toHaveLength(1);
    // Activated again, the reason is cleared.
    const back = await api("/api/webhooks/signature", { method: "PATCH", body: { isActive: true } });
    expect(back.json.data).toMatchObject({ isActive: true, pausedReason: null });
  });

  it("sends a default completed sample without a body, refuses unknown event types, and refuses a paused webhook with 400", async () => {
    const org = await freshOrg();
    const api = as(baseUrl, org);
    const rx = await receiver();
    const hook = await createHook(org, { name: "signature", urls: [rx.url], events: [COMPLETED] });
    rx.secret.value = hook.secret;
    const r = await api("/api/webhooks/signature/test", { method: "POST" });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.deliveries[0]).toMatchObject({ eventType: COMPLETED, status: "delivered" });
    const body = JSON.parse(rx.received[0].body);
    expect(body.event).toBe(COMPLETED);
    expect(body.data).toEqual(expect.objectContaining({ documentId: expect.any(String) }));

    const unknown = await api("/api/webhooks/signature/test", { method: "POST", body: { eventType: "signature.document.eaten", payload: "no" } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.type).toBe("ValidationError");
    expect(unknown.json.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(["eventType", "payload"]);

    await api("/api/webhooks/signature", { method: "PATCH", body: { isActive: false } });
    const paused = await api("/api/webhooks/signature/test", { method: "POST", body: {} });
    expect(paused.status).toBe(400);
    expect(paused.json).toEqual({ error: "Cannot test inactive webhook" });
    expect((await deliveries(org, "signature")).totalRecords).toBe(1);
    expect(rx.received).toHaveLength(1);
  });
});

describe("delivery: retries, time-out, redirects", () => {
  it("retries after 500s and then delivers, each attempt signed", async () => {
    const org = await freshOrg();
    const rx = await receiver((n) => ({ status: n <= 2 ? 500 : 200 }));
    const hook = await createHook(org, { name: "signature", urls: [rx.url], events: [COMPLETED] });
    rx.secret.value = hook.secret;
    const r = await as(baseUrl, org)("/api/webhooks/signature/test", { method: "POST", body: {} });
    const first = r.json.data.deliveries[0] as Delivery;
    expect(first).toMatchObject({ status: "retrying", httpStatus: 500, attemptCount: 1, isDelivered: false });
    expect(first.nextAttemptAt).toMatch(ISO);
    const [done] = await waitForDeliveries(org, "signature", ([d]) => expect(d.status).toBe("delivered"));
    expect(done).toMatchObject({ id: first.id, attemptCount: 3, httpStatus: 200, isDelivered: true, nextAttemptAt: null });
    expect(done.errorMessage).toBeUndefined();
    const attempts = byDelivery(rx, first.id);
    expect(attempts).toHaveLength(3);
    expect(attempts.every((a) => a.signatureValid)).toBe(true);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
  });

  it("a receiver that does not answer in time is retried, then delivered", async () => {
    const org = await freshOrg();
    // WEBHOOK_TIMEOUT_MS is 3 s on the test server.
    const rx = await receiver((n) => (n === 1 ? { status: 200, delayMs: 6000 } : { status: 200 }));
    const hook = await createHook(org, { name: "signature", urls: [rx.url], events: [COMPLETED] });
    rx.secret.value = hook.secret;
    const r = await as(baseUrl, org)("/api/webhooks/signature/test", { method: "POST", body: {} });
    const first = r.json.data.deliveries[0] as Delivery;
    expect(first).toMatchObject({
      status: "retrying",
      httpStatus: null,
      attemptCount: 1,
      isDelivered: false,
      errorMessage: expect.stringMatching(/did not answer in time/),
    });
    expect(r.json.data.summary).toEqual({ total: 1, successful: 1, failed: 0, errors: [] });
    const [done] = await waitForDeliveries(org, "signature", ([d]) => expect(d.status).toBe("delivered"));
    expect(done).toMatchObject({ attemptCount: 2, httpStatus: 200 });
    expect(byDelivery(rx, first.id)).toHaveLength(2);
  });

  it("does not follow a redirect", async () => {
    const org = await freshOrg();
    const target = await receiver();
    const rx = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const hook = await createHook(org, { name: "signature", urls: [rx.url], events: [COMPLETED] });
    rx.secret.value = hook.secret;
    const r = await as(baseUrl, org)("/api/webhooks/signature/test", { method: "POST", body: {} });
    expect(r.json.data.deliveries[0]).toMatchObject({
      status: "retrying",
      httpStatus: 302,
      isDelivered: false,
      errorMessage: expect.stringMatching(/redirect/),
    });
    // The test server's retries come quickly (WEBHOOK_RETRY_SCALE): wait for one, then check that
    // no attempt ever reached the Location.
    await expect.poll(() => rx.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    expect(target.received).toHaveLength(0);
    await as(baseUrl, org)("/api/webhooks/signature", { method: "DELETE" });
  });
});

describe("delivery list and replay", () => {
  it("pages newest first, filters by status and event type, and validates the query", async () => {
    const org = await freshOrg();
    const api = as(baseUrl, org);
    // Voided samples always get a 500 (and end failed); completed ones are delivered.
    const rx = await receiver((_, d) => ({ status: d.headers["x-service-event"] === VOIDED ? 500 : 200 }));
    const hook = await createHook(org, { name: "signature", urls: [rx.url], events: [COMPLETED, VOIDED] });
    rx.secret.value = hook.secret;
    const sent: string[] = [];
    for (const eventType of [COMPLETED, VOIDED, COMPLETED, VOIDED, COMPLETED]) {
      const r = await api("/api/webhooks/signature/test", { method: "POST", body: { eventType } });
      sent.push(r.json.data.deliveries[0].id);
    }
    await waitForDeliveries(org, "signature", (list) => expect(list.filter((d) => d.status === "failed")).toHaveLength(2));

    const first = await deliveries(org, "signature", "limit=2&offset=0");
    expect(first.totalRecords).toBe(5);
    expect(first.results.map((d) => d.id)).toEqual([sent[4], sent[3]]);
    const second = await deliveries(org, "signature", "limit=2&offset=2");
    expect(second.results.map((d) => d.id)).toEqual([sent[2], sent[1]]);
    const last = await deliveries(org, "signature", "limit=2&offset=4");
    expect(last.results.map((d) => d.id)).toEqual([sent[0]]);
    expect(first.results[0]).toEqual({
      id: sent[4],
      webhookId: hook.id,
      eventType: COMPLETED,
      url: rx.url,
      httpStatus: 200,
      attemptCount: 1,
      maxAttempts: 6,
      isDelivered: true,
      status: "delivered",
      payload: expect.objectContaining({ event: COMPLETED, orgId: org.orgId }),
      responseBody: "ok",
      nextAttemptAt: null,
      createdOn: expect.stringMatching(ISO),
      updatedOn: expect.stringMatching(ISO),
    });

    const voided = await deliveries(org, "signature", `eventType=${VOIDED}`);
    expect(voided.totalRecords).toBe(2);
    expect(voided.results.map((d) => d.id)).toEqual([sent[3], sent[1]]);
    expect((await deliveries(org, "signature", "status=failed")).results.map((d) => d.id)).toEqual([sent[3], sent[1]]);
    expect((await deliveries(org, "signature", "status=delivered")).totalRecords).toBe(3);
    expect((await deliveries(org, "signature", `status=delivered&eventType=${VOIDED}`)).totalRecords).toBe(0);
    expect((await deliveries(org, "signature", "status=retrying")).totalRecords).toBe(0);

    for (const query of ["limit=abc", "limit=0", "limit=101", "offset=-1", "status=lost"]) {
      const r = await api(`/api/webhooks/signature/deliveries?${query}`);
      expect([query, r.status, r.json.type]).toEqual([query, 400, "ValidationError"]);
    }
  });

  it("replays a failed delivery as a new delivery of the same event", async () => {
    const org = await freshOrg();
    const api = as(baseUrl, org);
    let healthy = false;
    const rx = await receiver(() => ({ status: healthy ? 200 : 503 }));
    const hook = await createHook(org, { name: "signature", urls: [rx.url], events: [COMPLETED] });
    rx.secret.value = hook.secret;
    const test = await api("/api/webhooks/signature/test", { method: "POST", body: { payload: { documentId: "replay-me" } } });
    const original = test.json.data.deliveries[0] as Delivery;
    await waitForDeliveries(org, "signature", ([d]) => expect(d.status).toBe("failed"));

    healthy = true;
    const r = await api(`/api/webhooks/signature/deliveries/${original.id}/replay`, { method: "POST" });
    expect(r.status, r.text).toBe(200);
    expect(r.json.message).toEqual(expect.any(String));
    const replay = r.json.data as Delivery;
    expect(replay).toMatchObject({
      eventType: COMPLETED,
      url: rx.url,
      status: "delivered",
      isDelivered: true,
      httpStatus: 200,
      attemptCount: 1,
      maxAttempts: 6,
    });
    expect(replay.id).not.toBe(original.id);
    const got = byDelivery(rx, replay.id);
    expect(got).toHaveLength(1);
    expect(got[0].signatureValid).toBe(true);
    const originalBody = JSON.parse(byDelivery(rx, original.id)[0].body);
    expect(JSON.parse(got[0].body)).toEqual(originalBody);
    expect(originalBody.data).toEqual({ documentId: "replay-me" });

    const list = await deliveries(org, "signature");
    expect(list.results.map((d) => [d.id, d.status])).toEqual([
      [replay.id, "delivered"],
      [original.id, "failed"],
    ]);

    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const missing = await api(`/api/webhooks/signature/deliveries/${id}/replay`, { method: "POST" });
      expect([id, missing.status, missing.json]).toEqual([id, 404, { error: "Delivery not found" }]);
    }
    // Another organization's webhook of the same name cannot replay this delivery.
    const elsewhere = await freshOrg();
    await createHook(elsewhere, { name: "signature", urls: [rx.url], events: [COMPLETED] });
    const cross = await as(baseUrl, elsewhere)(`/api/webhooks/signature/deliveries/${original.id}/replay`, { method: "POST" });
    expect(cross.status).toBe(404);
    expect(byDelivery(rx, original.id)).toHaveLength(6);
  });
});

describe("real events from signing documents (6.1)", () => {
  it("a completed and a voided document each give exactly one delivery per URL of each subscribed active webhook", async () => {
    const org = await freshOrg({ enabled: true });
    const api = as(baseUrl, org);
    const both = await receiver();
    const completedOnly = await receiver();
    const paused = await receiver();
    const hookBoth = await createHook(org, { name: "signature", urls: [`${both.url}?copy=1`, `${both.url}?copy=2`], events: [COMPLETED, VOIDED] });
    both.secret.value = hookBoth.secret;
    const hookCompleted = await createHook(org, { name: "crm", urls: [completedOnly.url], events: [COMPLETED] });
    completedOnly.secret.value = hookCompleted.secret;
    const hookPaused = await createHook(org, { name: "paused", urls: [paused.url], events: [COMPLETED, VOIDED] });
    paused.secret.value = hookPaused.secret;
    expect((await api("/api/webhooks/paused", { method: "PATCH", body: { isActive: false } })).status).toBe(200);

    // Document 1: signed to completion through its signing URL.
    const signed = await prepareDoc(baseUrl, org, [{ name: "Ada", email: "ada.webhook@example.com", externalId: "wh-1" }], { documentName: "Webhook NDA" });
    expect(signed.status, signed.text).toBe(200);
    const signedId = signed.json.data.documentId as string;
    const link = await as(baseUrl, org, "contributor")(`/esign/documents/${signedId}/signing-url`, { method: "POST", body: { externalId: "wh-1" } });
    expect(link.status, link.text).toBe(200);
    const token = tokenOfUrl(link.json.data.results.url);
    const session = await call(baseUrl, `/api/signer/${token}`);
    expect(session.json.data.state).toBe("ready");
    const field = session.json.data.fields[0];
    const done = await call(baseUrl, `/api/signer/${token}/sign`, { method: "POST", body: { values: { [field.id]: "agreed" } } });
    expect(done.status, done.text).toBe(200);
    expect(done.json.data.status).toBe("completed");

    // Document 2: voided.
    const toVoid = await prepareDoc(baseUrl, org, [{ name: "Bob", email: "bob.webhook@example.com" }], { documentName: "Webhook void" });
    const voidedId = toVoid.json.data.documentId as string;
    const voided = await as(baseUrl, org, "contributor")(`/esign/documents/${voidedId}/void`, { method: "POST", body: { reason: "Wrong terms" } });
    expect(voided.status, voided.text).toBe(200);

    const list = await waitForDeliveries(org, "signature", (l) => {
      expect(l).toHaveLength(4);
      expect(l.every((d) => d.status === "delivered")).toBe(true);
    });
    const crm = await waitForDeliveries(org, "crm", (l) => {
      expect(l).toHaveLength(1);
      expect(l[0].status).toBe("delivered");
    });

    // One delivery per (event, URL); every request reached the receiver once, signed.
    expect(list.map((d) => `${d.eventType} ${d.url}`).sort()).toEqual([
      `${COMPLETED} ${both.url}?copy=1`,
      `${COMPLETED} ${both.url}?copy=2`,
      `${VOIDED} ${both.url}?copy=1`,
      `${VOIDED} ${both.url}?copy=2`,
    ]);
    expect(both.received).toHaveLength(4);
    expect(both.received.every((d) => d.signatureValid)).toBe(true);
    expect(new Set(both.received.map((d) => d.headers["x-service-delivery"])).size).toBe(4);
    expect(completedOnly.received).toHaveLength(1);
    expect(completedOnly.received[0].signatureValid).toBe(true);
    expect(crm[0].payload.data.documentId).toBe(signedId);
    expect((await deliveries(org, "paused")).totalRecords).toBe(0);
    expect(paused.received).toHaveLength(0);

    const completedBodies = both.received.map((d) => JSON.parse(d.body)).filter((b) => b.event === COMPLETED);
    expect(completedBodies).toHaveLength(2);
    expect(completedBodies[0]).toEqual(completedBodies[1]);
    expect(completedBodies[0]).toEqual({
      id: expect.stringMatching(UUID),
      event: COMPLETED,
      createdOn: expect.stringMatching(ISO),
      orgId: org.orgId,
      data: expect.objectContaining({
        documentId: signedId,
        name: "Webhook NDA",
        completedAt: expect.stringMatching(ISO),
        recipients: [expect.objectContaining({ email: "ada.webhook@example.com", name: "Ada" })],
      }),
    });
    // The same event (same id) went to the other webhook too.
    expect(JSON.parse(completedOnly.received[0].body).id).toBe(completedBodies[0].id);
    const voidedBodies = both.received.map((d) => JSON.parse(d.body)).filter((b) => b.event === VOIDED);
    expect(voidedBodies).toHaveLength(2);
    expect(voidedBodies[0].data).toEqual(expect.objectContaining({ documentId: voidedId, name: "Webhook void", reason: "Wrong terms" }));
    expect(voidedBodies[0].id).not.toBe(completedBodies[0].id);
  });
});

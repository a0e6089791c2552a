// Idempotency-Key over HTTP (docs/contract.md "Idempotency"): a retry with the same key and body gets the
// first reply, marked replayed, and creates nothing more; the same key with another body is a 422;
// several at once: one runs, the others are 409s while it runs (the test holds it there); on PostgreSQL
// also across two instances.
import fs from "node:fs";
import { afterAll, describe, expect, inject, it } from "vitest";
import { idempotencyHoldPoint } from "@/lib/http/idempotency";
import { holdMarker } from "@/lib/server/test-faults";
import { as } from "../support/helpers";
import { startSecondInstance, type RunningQuire } from "../support/quire-server";

const quire = inject("quire");
const { baseUrl, seed } = quire;
const user = as(baseUrl, seed, "user");

async function invoiceId(): Promise<string> {
  return (await user("/template-item?type=template&query=Invoice")).json.data.results.find((t: { name: string }) => t.name === "Invoice").id;
}

const count = async () => (await user("/v1/deliverable?limit=1")).json.data.totalRecords as number;

/**
 * Sends the requests with `key` held (QUIRE_TEST_HOLDS): whichever claims the key waits there until all
 * the others have answered, so what they get is what a request gets while another runs under its key,
 * whatever the machine's load. Resolves with every reply, in the order the requests were given.
 */
async function whileOneHoldsKey<T>(dataDir: string, key: string, requests: (() => Promise<T>)[]): Promise<T[]> {
  const marker = holdMarker(dataDir, idempotencyHoldPoint(key));
  fs.writeFileSync(marker, "");
  try {
    let answered = 0;
    let othersAnswered!: () => void;
    const others = new Promise<void>((resolve) => {
      othersAnswered = resolve;
    });
    const pending = requests.map((send) =>
      send().finally(() => {
        if (++answered === requests.length - 1) othersAnswered();
      }),
    );
    await others;
    fs.rmSync(marker);
    return await Promise.all(pending);
  } finally {
    fs.rmSync(marker, { force: true });
  }
}

function create(base: string, key: string, body: object) {
  return fetch(`${base}/v1/deliverable`, {
    method: "POST",
    headers: { authorization: `Bearer ${seed.keys.user}`, "x-service-org-id": seed.orgId, "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, replayed: res.headers.get("idempotent-replayed"), json: await res.json() }));
}

describe("Idempotency-Key on POST /v1/deliverable", () => {
  it("replays the first reply to the same key and body, refuses another body, and creates one deliverable", async () => {
    const templateId = await invoiceId();
    const key = `inv-${Date.now()}`;
    const body = { name: "Idempotent invoice", templateId, variables: [] };
    const before = await count();
    const first = await create(baseUrl, key, body);
    expect(first.status).toBe(200);
    expect(first.replayed).toBeNull();
    const again = await create(baseUrl, key, body);
    expect(again.status).toBe(200);
    expect(again.replayed).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(await count()).toBe(before + 1);

    const other = await create(baseUrl, key, { ...body, name: "Another invoice" });
    expect(other.status).toBe(422);
    expect(other.json).toEqual({ error: "IdempotencyKeyReused", message: expect.stringMatching(/different request/) });
    expect(await count()).toBe(before + 1);

    const bad = await create(baseUrl, "x".repeat(256), body);
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("InvalidIdempotencyKey");
  });

  it("several at once with one key: one runs, the others are 409s while it runs, one deliverable", async () => {
    const templateId = await invoiceId();
    const key = `race-${Date.now()}`;
    const body = { name: "Raced invoice", templateId, variables: [] };
    const before = await count();
    const replies = await whileOneHoldsKey(
      quire.dataDir,
      key,
      Array.from({ length: 6 }, () => () => create(baseUrl, key, body)),
    );
    const ran = replies.filter((r) => r.status === 200 && r.replayed === null);
    expect(ran).toHaveLength(1);
    const inFlight = replies.filter((r) => r.status === 409);
    expect(inFlight).toHaveLength(5);
    for (const r of inFlight) expect(r.json).toEqual({ error: "IdempotencyKeyInFlight", message: expect.any(String) });
    expect(await count()).toBe(before + 1);
    const later = await create(baseUrl, key, body);
    expect(later).toMatchObject({ status: 200, replayed: "true", json: ran[0].json });
  });
});

describe.runIf(quire.db === "postgres")("Idempotency-Key across two instances", () => {
  let second: RunningQuire | undefined;
  afterAll(async () => {
    await second?.stop();
  });

  it("a key used on one instance is replayed by the other, and a race across them runs once", async () => {
    second = await startSecondInstance(quire, { sameDataDir: true });
    const templateId = await invoiceId();
    const before = await count();
    const key = `two-${Date.now()}`;
    const body = { name: "Two-instance invoice", templateId, variables: [] };
    await as(second.server.baseUrl, seed, "user")("/v1/deliverable?limit=1"); // warm the second instance's routes
    // Both instances share DATA_DIR, so the hold applies to whichever claims the key.
    const replies = await whileOneHoldsKey(quire.dataDir, key, [() => create(baseUrl, key, body), () => create(second!.server.baseUrl, key, body)]);
    const ran = replies.filter((r) => r.status === 200 && r.replayed === null);
    expect(ran).toHaveLength(1);
    const other = replies.find((r) => r !== ran[0])!;
    expect(other).toMatchObject({ status: 409, json: { error: "IdempotencyKeyInFlight" } });
    const replay = await create(second.server.baseUrl, key, body);
    expect(replay).toMatchObject({ status: 200, replayed: "true" });
    expect(replay.json).toEqual(ran[0].json);
    expect(await count()).toBe(before + 1);
  }, 120_000);
});

describe("the hosted service's names", () => {
  it("answers /turbosign/… like /esign/…, and takes the organization from x-rapiddocx-org-id", async () => {
    const headers = { authorization: `Bearer ${seed.keys.contributor}`, "x-rapiddocx-org-id": seed.orgId, accept: "application/json" };
    const aliased = await fetch(`${baseUrl}/turbosign/documents?limit=1`, { headers });
    expect(aliased.status).toBe(200);
    const canonical = await as(baseUrl, seed, "contributor")("/esign/documents?limit=1");
    expect((await aliased.json()).data.totalRecords).toBe(canonical.json.data.totalRecords);
    const missing = await fetch(`${baseUrl}/turbosign/documents/00000000-0000-4000-8000-000000000000`, { headers });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "Document not found", type: "DocumentNotFound" });
    // Python clients send True/False: booleans are case-insensitive.
    for (const path of ["/v1/deliverable?showTags=True&limit=1", "/template-item?showTags=FALSE&limit=1"]) expect((await user(path)).status, path).toBe(200);
    expect((await user("/v1/deliverable?showTags=yes")).status).toBe(400);
    const wrongOrg = await fetch(`${baseUrl}/esign/documents?limit=1`, {
      headers: { ...headers, "x-rapiddocx-org-id": "00000000-0000-4000-8000-000000000000" },
    });
    expect(wrongOrg.status).toBe(403);
  });
});

// Completion that survives crashes and races (docs/contract.md "Signing documents"): the server is killed
// (SIGKILL, by QUIRE_TEST_CRASH_AT) at each of four points of the last signature, with one instance and
// with two; the document still completes exactly once: one `completed` audit entry, one sealed PDF
// that pdfsig verifies, one delivery per webhook URL, one email per party. Sealing that keeps failing
// ends in signature.document.finalization_failed, once, and a retry completes it. Ten concurrent voids:
// exactly one wins. A void and the last signature queued on the same row lock (PostgreSQL): whichever
// commits first wins and the other sees it.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SeedResult } from "@/lib/orgs/seed";
import { type ApiReply, as, call } from "../support/api";
import { prepareDoc } from "../support/embedded";
import { PNG, pdfTool, SIGNING_LINK, signerApi, tokenOf } from "../support/esign";
import { startReceiver, verifySignature, webhookTestEnv } from "../support/https-receiver";
import { restartAfterCrash, until, untilDown } from "../support/crash";
import { startQuireServer, startSecondInstance, type RunningQuire, type TestDatabase } from "../support/quire-server";

const DB = (process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase;
process.env.QUIRE_TEST_CERTS_DIR ??= inject("quire").env.QUIRE_TEST_CERTS_DIR;
const ALL_POINTS = "before-signature-commit,after-signature-commit,during-seal,after-seal";
// Lease 0.6 s and back-off 20 ms instead of 5 min and 10 s: a dead holder's claim runs out quickly.
const FAST = { COMPLETION_RETRY_SCALE: "0.002" };
const COMPLETED = "signature.document.completed";

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The secrets of the webhooks subscribe() made, by name: each delivery is verified with both. */
const secrets = new Map<string, { secret: string; standardSecret: string }>();

async function subscribe(baseUrl: string, seed: SeedResult, receiver: Receiver, name: string): Promise<string[]> {
  const urls = [`${receiver.url}?${name}-a`, `${receiver.url}?${name}-b`];
  const res = await as(
    baseUrl,
    seed,
    "administrator",
  )("/api/webhooks", { method: "POST", body: { name, urls, events: [COMPLETED, "signature.document.voided", "signature.document.finalization_failed"] } });
  expect(res.status, res.text).toBe(201);
  secrets.set(name, { secret: res.json.data.secret, standardSecret: res.json.data.standardSecret });
  return urls;
}

async function prepare(baseUrl: string, seed: SeedResult, tag: string) {
  const email = `${tag}-${Date.now().toString(36)}@example.com`;
  const res = await prepareDoc(baseUrl, seed, [{ name: "Dana Durable", email }], {
    sendEmail: "true",
    ccEmails: [`cc-${email}`],
    documentName: `Durable ${tag}`,
  });
  expect(res.status, res.text).toBe(200);
  const mails = await as(baseUrl, seed, "administrator")(`/api/outbox?to=${encodeURIComponent(email)}&limit=5`);
  const link = mails.json.data.results.map((m: { text: string }) => SIGNING_LINK.exec(m.text)?.[0]).find(Boolean);
  return { id: res.json.data.documentId as string, email, cc: `cc-${email}`, token: tokenOf(link) };
}

/** Signs every field; resolves with the reply, or null when the server died under the request. */
async function sign(baseUrl: string, token: string) {
  const signer = signerApi(baseUrl, token);
  const session = (await signer.session()).json.data;
  return signer
    .sign(Object.fromEntries(session.fields.map((f: { id: string; type: string }) => [f.id, f.type === "signature" ? PNG : "Dana Durable"])))
    .catch(() => null);
}

/** Everything "exactly once" means for one completed document. */
async function expectCompletedOnce(
  baseUrl: string,
  seed: SeedResult,
  dataDir: string,
  doc: { id: string; email: string; cc: string },
  receiver: Receiver,
  urls: string[],
) {
  const api = as(baseUrl, seed, "contributor");
  await until("the document to complete", async () => (await api(`/esign/documents/${doc.id}/status`)).json.data?.status === "completed");
  const trail = (await api(`/esign/documents/${doc.id}/audit-trail`)).json.data.auditTrail as { actionType: string }[];
  expect(trail.filter((e) => e.actionType === "completed")).toHaveLength(1);
  expect(trail.filter((e) => e.actionType === "signed")).toHaveLength(1);

  const pdf = await fetch(`${baseUrl}/esign/documents/${doc.id}/download`, {
    headers: { authorization: `Bearer ${seed.keys.contributor}`, "x-service-org-id": seed.orgId },
  });
  expect(pdfTool(Buffer.from(await pdf.arrayBuffer()), "pdfsig")).toMatch(/Signature is Valid/);
  const dir = path.join(dataDir, "files", "signing", seed.orgId, doc.id);
  expect(
    fs.readdirSync(dir).filter((f) => f.startsWith("signed-")),
    "one sealed PDF is stored",
  ).toHaveLength(1);

  const mails = (await as(baseUrl, seed, "administrator")(`/api/outbox?limit=100`)).json.data.results as {
    kind: string;
    to: string;
    documentId: string | null;
  }[];
  const completedMails = mails
    .filter((m) => m.kind === "signing_completed" && m.documentId === doc.id)
    .map((m) => m.to)
    .sort();
  expect(completedMails).toEqual([doc.cc, doc.email, "sam@example.com"].sort());

  // Only this test's webhook: earlier tests' webhooks in the organization get the event too.
  const paths = urls.map((u) => new URL(u).pathname + new URL(u).search);
  const forDoc = () =>
    receiver.received.filter((d) => paths.includes(d.url) && d.headers["x-service-event"] === COMPLETED && JSON.parse(d.body).data?.documentId === doc.id);
  await until("one completed delivery per URL", async () => forDoc().length >= urls.length);
  await new Promise((r) => setTimeout(r, 1500)); // room for a duplicate to show up
  expect(
    forDoc()
      .map((d) => d.url)
      .sort(),
  ).toEqual([...paths].sort());
}

describe("kill -9 during the last signature, one instance", () => {
  let receiver: Receiver;
  let quire: RunningQuire;
  beforeAll(async () => {
    receiver = await startReceiver();
    quire = await startQuireServer(DB, { extraEnv: { ...webhookTestEnv(), ...FAST, QUIRE_TEST_CRASH_AT: ALL_POINTS } });
  });
  afterAll(async () => {
    await quire?.stop();
    await receiver?.close();
  });

  it("crashes before the commit, after it, during sealing and after sealing, and still completes exactly once", async () => {
    const { baseUrl, seed, dataDir } = quire.server;
    const urls = await subscribe(baseUrl, seed, receiver, "durable");
    const doc = await prepare(baseUrl, seed, "chain");
    const api = as(baseUrl, seed, "contributor");

    // 1. Killed inside the signature's transaction: nothing of it remains; the signer signs again.
    expect(await sign(baseUrl, doc.token)).toBeNull();
    await restartAfterCrash(quire);
    const afterFirst = (await api(`/esign/documents/${doc.id}`)).json.data;
    expect(afterFirst.status).toBe("sent");
    expect(afterFirst.recipients[0].status).not.toBe("completed");

    // 2. Killed right after the signature commits; then, on each restart, the worker takes the job and
    //    is killed during sealing, then after storing the sealed PDF; the fourth process completes it.
    //    No request in between: the restarted worker may die sealing under it (a cut socket, not an
    //    answer). The during-seal marker below proves the signature committed: only a fully signed
    //    document is sealed.
    expect(await sign(baseUrl, doc.token)).toBeNull();
    await restartAfterCrash(quire);
    await restartAfterCrash(quire); // died during sealing
    await restartAfterCrash(quire); // died after sealing, before the completion committed
    for (const point of ALL_POINTS.split(",")) expect(fs.existsSync(path.join(dataDir, `.test-crashed-${point}`)), point).toBe(true);

    await expectCompletedOnce(baseUrl, seed, dataDir, doc, receiver, urls);
    // The signer's link now shows the completed document; signing again is refused.
    expect((await signerApi(baseUrl, doc.token).session()).json.data.state).toBe("already_signed");
    expect((await sign(baseUrl, doc.token))?.status).toBe(409);
  }, 300_000);
});

describe.runIf(DB === "postgres")("kill -9 during the last signature, two instances", () => {
  let receiver: Receiver;
  let first: RunningQuire;
  const seconds: RunningQuire[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
    first = await startQuireServer(DB, { extraEnv: { ...webhookTestEnv(), ...FAST } });
  });
  afterAll(async () => {
    for (const s of seconds) await s.stop().catch(() => {});
    await first?.stop();
    await receiver?.close();
  });

  for (const point of ["before-signature-commit", "after-signature-commit", "during-seal", "after-seal"] as const) {
    it(`the other instance completes exactly once what an instance killed ${point} left`, async () => {
      const { seed } = first.server;
      const urls = await subscribe(first.server.baseUrl, seed, receiver, `two-${point}`);
      const doc = await prepare(first.server.baseUrl, seed, `two-${point}`);
      // The signer reaches the instance that dies (sharing the files directory, as stateless instances share a bucket).
      const dying = await startSecondInstance(first.server, { sameDataDir: true, extraEnv: { QUIRE_TEST_CRASH_AT: point } });
      seconds.push(dying);
      expect(await sign(dying.server.baseUrl, doc.token)).toBeNull();
      await untilDown(dying.server.baseUrl);
      // Killed before its transaction committed, the signature never happened: the signer signs again, on the live instance.
      if (point === "before-signature-commit") expect((await sign(first.server.baseUrl, doc.token))?.status).toBe(200);
      await expectCompletedOnce(first.server.baseUrl, seed, first.server.dataDir, doc, receiver, urls);
      fs.rmSync(path.join(first.server.dataDir, `.test-crashed-${point}`), { force: true });
    }, 180_000);
  }
});

describe("sealing that keeps failing", () => {
  let receiver: Receiver;
  let quire: RunningQuire;
  beforeAll(async () => {
    receiver = await startReceiver();
    quire = await startQuireServer(DB, { extraEnv: { ...webhookTestEnv(), ...FAST, QUIRE_TEST_FAIL_SEAL: "5" } });
  });
  afterAll(async () => {
    await quire?.stop();
    await receiver?.close();
  });

  it("is retried, then announced once with finalization_failed; a retry completes it exactly once", async () => {
    const { baseUrl, seed, dataDir } = quire.server;
    const urls = await subscribe(baseUrl, seed, receiver, "failing");
    const doc = await prepare(baseUrl, seed, "failing");
    const signed = await sign(baseUrl, doc.token);
    expect(signed?.status, signed?.text).toBe(200);
    expect(signed!.json.data.status).toBe("sent");

    const failed = () =>
      receiver.received.filter(
        (d) => d.headers["x-service-event"] === "signature.document.finalization_failed" && JSON.parse(d.body).data?.documentId === doc.id,
      );
    await until("finalization_failed on every URL", async () => failed().length >= urls.length);
    await new Promise((r) => setTimeout(r, 1500));
    expect(failed()).toHaveLength(urls.length);
    expect(JSON.parse(failed()[0].body).data, failed()[0].body).toMatchObject({ attempts: 5, error: expect.stringContaining("injected sealing failure 5") });
    // Signed both ways, as every delivery: X-Service-Signature and Standard Webhooks (standardSecret).
    const { secret, standardSecret } = secrets.get("failing")!;
    for (const d of failed()) {
      expect(verifySignature(secret, String(d.headers["x-service-signature"]), d.body)).toBe(true);
      const headers = {
        "webhook-id": String(d.headers["webhook-id"]),
        "webhook-timestamp": String(d.headers["webhook-timestamp"]),
        "webhook-signature": String(d.headers["webhook-signature"]),
      };
      expect(new StandardWebhook(standardSecret).verify(d.body, headers)).toMatchObject({ event: "signature.document.finalization_failed" });
    }
    const api = as(baseUrl, seed, "contributor");
    expect((await api(`/esign/documents/${doc.id}/status`)).json.data.status).toBe("sent");
    // Fully signed: it cannot be voided while it waits for its retry.
    expect((await api(`/esign/documents/${doc.id}/void`, { method: "POST", body: { reason: "no" } })).status).toBe(409);

    expect((await as(baseUrl, seed, "user")(`/esign/documents/${doc.id}/retry-finalization`, { method: "POST" })).status).toBe(403);
    const retried = await api(`/esign/documents/${doc.id}/retry-finalization`, { method: "POST" });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json.data).toEqual({ id: doc.id, status: "completed" });
    const again = await api(`/esign/documents/${doc.id}/retry-finalization`, { method: "POST" });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe("NothingToRetry");
    await expectCompletedOnce(baseUrl, seed, dataDir, doc, receiver, urls);
  }, 180_000);
});

describe("concurrent voids", () => {
  const { baseUrl, seed } = inject("quire");
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it("ten at once: exactly one 200, one audit entry, one email per signer, one delivery per URL", async () => {
    const urls = await subscribe(baseUrl, seed, receiver, `voids-${Date.now().toString(36)}`);
    const doc = await prepare(baseUrl, seed, "voids");
    const api = as(baseUrl, seed, "contributor");
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api(`/esign/documents/${doc.id}/void`, { method: "POST", body: { reason: `reason ${i}` } })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const r of replies.filter((x) => x.status === 409)) expect(r.json.code).toBe("DocumentNotVoidable");
    const trail = (await api(`/esign/documents/${doc.id}/audit-trail`)).json.data.auditTrail as { actionType: string }[];
    expect(trail.filter((e) => e.actionType === "voided")).toHaveLength(1);
    const mails = (await as(baseUrl, seed, "administrator")(`/api/outbox?to=${encodeURIComponent(doc.email)}&limit=20`)).json.data.results as {
      kind: string;
    }[];
    expect(mails.filter((m) => m.kind === "document_voided")).toHaveLength(1);
    const voided = () =>
      receiver.received.filter((d) => d.headers["x-service-event"] === "signature.document.voided" && JSON.parse(d.body).data?.documentId === doc.id);
    await until("one voided delivery per URL", async () => voided().length >= urls.length);
    await new Promise((r) => setTimeout(r, 1500));
    expect(voided()).toHaveLength(urls.length);
    expect((await call(baseUrl, `/api/signer/${doc.token}`)).json.data.state).toBe("voided");
  }, 60_000);
});

describe.runIf(DB === "postgres")("a void and the last signature at the same moment", () => {
  const { baseUrl, seed, env } = inject("quire");
  let holder: pg.Client;
  beforeAll(async () => {
    holder = new pg.Client({ connectionString: env.DATABASE_URL });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
  });

  /** Holds the document's row lock while `queue` lines requests up behind it, in that order, then lets go. */
  async function raceBehindLock(documentId: string, queue: (() => Promise<unknown>)[]) {
    const waiting = async () =>
      Number((await holder.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).rows[0].n);
    await holder.query("BEGIN");
    await holder.query(`SELECT id FROM signing_document WHERE id = $1 FOR UPDATE`, [documentId]);
    const replies: Promise<unknown>[] = [];
    for (const [i, start] of queue.entries()) {
      replies.push(start());
      await until(`request ${i + 1} to wait for the row lock`, async () => (await waiting()) >= i + 1, 30_000);
    }
    await holder.query("ROLLBACK");
    return Promise.all(replies);
  }

  it("void first: the signature that waited is refused (410 document_voided) and nothing of it is kept", async () => {
    const doc = await prepare(baseUrl, seed, "void-then-sign");
    const api = as(baseUrl, seed, "contributor");
    const values = Object.fromEntries(
      ((await signerApi(baseUrl, doc.token).session()).json.data.fields as { id: string; type: string }[]).map((f) => [
        f.id,
        f.type === "signature" ? PNG : "Dana Durable",
      ]),
    );
    const [voided, signed] = (await raceBehindLock(doc.id, [
      () => api(`/esign/documents/${doc.id}/void`, { method: "POST", body: { reason: "withdrawn" } }),
      () => signerApi(baseUrl, doc.token).sign(values),
    ])) as ApiReply<{ code?: string }>[];
    expect(voided.status, voided.text).toBe(200);
    expect(signed.status, signed.text).toBe(410);
    expect(signed.json.code).toBe("document_voided");
    const trail = (await api(`/esign/documents/${doc.id}/audit-trail`)).json.data.auditTrail as { actionType: string }[];
    expect(trail.map((e) => e.actionType)).not.toContain("signed");
    expect((await api(`/esign/documents/${doc.id}/status`)).json.data.status).toBe("voided");
  }, 60_000);

  it("last signature first: the void that waited sees it and is refused (409); the document completes", async () => {
    const doc = await prepare(baseUrl, seed, "sign-then-void");
    const api = as(baseUrl, seed, "contributor");
    const values = Object.fromEntries(
      ((await signerApi(baseUrl, doc.token).session()).json.data.fields as { id: string; type: string }[]).map((f) => [
        f.id,
        f.type === "signature" ? PNG : "Dana Durable",
      ]),
    );
    const [signed, voided] = (await raceBehindLock(doc.id, [
      () => signerApi(baseUrl, doc.token).sign(values),
      () => api(`/esign/documents/${doc.id}/void`, { method: "POST", body: { reason: "too late" } }),
    ])) as ApiReply<{ code?: string }>[];
    expect(signed.status, signed.text).toBe(200);
    expect(voided.status, voided.text).toBe(409);
    expect(voided.json.code).toBe("DocumentNotVoidable");
    await until("the document to complete", async () => (await api(`/esign/documents/${doc.id}/status`)).json.data?.status === "completed");
    const trail = (await api(`/esign/documents/${doc.id}/audit-trail`)).json.data.auditTrail as { actionType: string }[];
    expect(trail.map((e) => e.actionType)).not.toContain("voided");
  }, 60_000);
});

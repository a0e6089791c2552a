// Two app processes on one database (issue 9): every request below is split across instance A and
// instance B, sent at the same time, and the shared limits must hold exactly as on one instance:
// the per-key rate limit, single-use signing URLs and identity assertions, passcode counters and the
// lockout, webhook deliveries (both instances run a delivery worker), and PDF conversion (each has
// its own LibreOffice pool). Files live in a local S3-compatible store, as stateless instances need.
//
// PGlite is an in-process database: one process per DATA_DIR. On that run the test proves that a
// second server on the same embedded database is refused with a clear message instead.
import crypto from "node:crypto";
import fs from "node:fs";
import forge from "node-forge";
import pg from "pg";
import { generateApiKey } from "@/lib/auth/api-keys";
import { holdMarker, SIGNATURE_COMMITTED_HOLD } from "@/lib/server/test-faults";
import { SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { as, authHeaders, call, type ApiReply } from "../support/api";
import { roomInThisMinute } from "../support/helpers";
import { HS_SECRET, mailedCode, mailsOf, orgWith, passcodeApi, prepareDoc, setClock, signingUrlOf, tokenOfUrl, type EmbeddedOrg } from "../support/embedded";
import { expectSignerError, expectSigningError } from "../support/embedded-expect";
import { onePagePdf, pdfTool } from "../support/esign";
import { startReceiver, verifySignature, webhookTestEnv } from "../support/https-receiver";
import { buildDocx } from "../support/ooxml";
import { bulkFinished, bulkLayout, documentsByEmail } from "../support/bulk-send";
import { startQuireServer, startSecondInstance, type QuireTestServer, type RunningQuire, type TestDatabase } from "../support/quire-server";
import { startS3Server } from "../support/s3-server";

const DB = (process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase;
// The webhook receivers must use the CA the servers trust (made once by the global setup).
process.env.QUIRE_TEST_CERTS_DIR ??= inject("quire").env.QUIRE_TEST_CERTS_DIR;

const SECOND = 1000;
const full = { enabled: true, allowExternalIdv: true, allowIdentityOverride: true, sms: { provider: "outbox" } };
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const count = (replies: ApiReply[], status: number) => replies.filter((r) => r.status === status).length;

/**
 * A document of one signer who needs no check (override), prepared on `server` and its signing URL
 * opened there: its id, and the signer's sign request (their session, a value for every field) to any instance.
 */
async function readyToSign(server: QuireTestServer, org: EmbeddedOrg, name: string, email: string) {
  const prep = await prepareDoc(server.baseUrl, org, [{ name, email, identityVerification: { mode: "override", overrideIdentityVerification: true } }]);
  expect(prep.status, prep.text).toBe(200);
  const documentId: string = prep.json.data.documentId;
  const url: string = (await signingUrlOf(server.baseUrl, org, documentId, { recipientId: prep.json.data.recipients[0].id })).json.data.results.url;
  const session = /#s=([A-Za-z0-9_-]+)$/.exec((await call(server.baseUrl, pathOf(url))).headers.get("location") ?? "")![1];
  const token = tokenOfUrl(url);
  const page = await call(server.baseUrl, `/api/signer/${token}`, { headers: { "x-signer-session": session } });
  const values = Object.fromEntries((page.json.data.fields as { id: string }[]).map((f) => [f.id, "Agreed"]));
  const sign = (baseUrl: string) => call(baseUrl, `/api/signer/${token}/sign`, { method: "POST", headers: { "x-signer-session": session }, body: { values } });
  return { documentId, sign };
}

/** The instance must not come up; one that does is stopped again before the assertion fails. */
async function expectRefused(starting: Promise<RunningQuire>, message: RegExp): Promise<void> {
  const outcome = await starting.then(
    async (started) => {
      await started.stop();
      return null;
    },
    (err: Error) => err,
  );
  expect(outcome, "the second instance started").toBeInstanceOf(Error);
  expect(outcome!.message).toMatch(message);
}

describe.runIf(DB === "pglite")("a second process on the embedded database", () => {
  let first: RunningQuire | undefined;
  afterAll(async () => {
    await first?.stop();
  });

  it("is refused with a message that names the running server and points to PostgreSQL; the first keeps serving", async () => {
    first = await startQuireServer("pglite");
    await expectRefused(startSecondInstance(first.server, { sameDataDir: true }), /already open in another Quire server \(pid \d+.*PostgreSQL/s);
    const health = await call(first.server.baseUrl, "/api/health");
    expect(health.status).toBe(200);
    expect((await as(first.server.baseUrl, first.server.seed, "viewer")("/api/whoami")).status).toBe(200);
  }, 180_000);
});

describe.runIf(DB === "postgres")("two instances on one PostgreSQL", () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let a: RunningQuire;
  let b: RunningQuire;
  let A: QuireTestServer;
  let B: QuireTestServer;
  /** Request i goes to A when i is even, to B when odd. */
  const pick = (i: number) => (i % 2 === 0 ? A : B);

  beforeAll(async () => {
    s3 = await startS3Server();
    a = await startQuireServer("postgres", { extraEnv: { ...s3.env, ...webhookTestEnv() } });
    b = await startSecondInstance(a.server);
    A = a.server;
    B = b.server;
  }, 240_000);

  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await s3?.stop();
  });

  const setClocks = async (offsetMs: number) => {
    // Each process keeps its own test clock offset: move both.
    await Promise.all([setClock(A, offsetMs), setClock(B, offsetMs)]);
  };
  afterEach(async () => {
    await setClocks(0);
  });

  it("serves a keyless preview link made by A on B (one secret, nothing stored), and S3 presigned download links from either", async () => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await onePagePdf("Shared preview"))]), "preview.pdf");
    form.set("recipients", JSON.stringify([{ name: "Pia", email: "pia@example.com" }]));
    const review = await as(A.baseUrl, A.seed, "contributor")("/esign/single/prepare-for-review", { method: "POST", body: form });
    expect(review.status, review.text).toBe(200);
    const onB = await fetch(`${B.baseUrl}${new URL(review.json.data.previewUrl).pathname}`);
    expect(onB.status).toBe(200);
    expect(pdfTool(Buffer.from(await onB.arrayBuffer()), "pdftotext")).toContain("Shared preview");
    const link = await as(
      B.baseUrl,
      A.seed,
      "contributor",
    )(`/esign/documents/${review.json.data.documentId}/download`, {
      headers: { "content-type": "application/json" },
    });
    expect(new URL(link.json.data.downloadUrl).origin).toBe(s3.endpoint);
    expect((await fetch(link.json.data.downloadUrl)).status).toBe(200);
  });

  it("refuses an instance whose NEXTAUTH_SECRET differs from the one the database was set up with", async () => {
    // No NEXTAUTH_SECRET and its own DATA_DIR: it would generate a secret of its own and then fail to
    // open sealed settings, check passcodes or links made by A.
    await expectRefused(startSecondInstance(A, { ownSecret: true }), /NEXTAUTH_SECRET differs from the secret this database was set up with/);
  }, 120_000);

  it("refuses a key on both instances from the very next request after it is revoked, though both had it cached", async () => {
    const { key, prefix, hash } = generateApiKey();
    const admin = new pg.Client({ connectionString: A.env.DATABASE_URL });
    await admin.connect();
    try {
      const [{ userId }] = (await admin.query(`SELECT "userId" FROM api_key WHERE "orgId" = $1 LIMIT 1`, [A.seed.orgId])).rows;
      await admin.query(
        `INSERT INTO api_key (id, "orgId", "userId", role, name, prefix, hash) VALUES (gen_random_uuid(), $1, $2, 'viewer', 'revocation probe', $3, $4)`,
        [A.seed.orgId, userId, prefix, hash],
      );
      const headers = { authorization: `Bearer ${key}`, "x-service-org-id": A.seed.orgId };
      // Both instances now know the key (each keeps verified identities for a minute).
      for (const server of [A, B, A, B]) expect((await call(server.baseUrl, "/api/whoami", { headers })).status).toBe(200);
      for (const server of [A, B]) expect((await call(server.baseUrl, "/v1/deliverable", { headers })).status).toBe(200);
      // Revoked as the dashboard does it: on the row, seen by neither process's memory.
      await admin.query(`UPDATE api_key SET "revokedAt" = now() WHERE prefix = $1`, [prefix]);
      const after = await Promise.all([A, B, A, B].map((server) => call(server.baseUrl, "/api/whoami", { headers })));
      expect(after.map((r) => r.status)).toEqual([401, 401, 401, 401]);
      // Lists read while their key is admitted (ADR 0020), or, on PostgreSQL, carry the admission in
      // their page's statement (ADR 0022): what they read is not answered either.
      const listPaths = ["/v1/deliverable", "/template-item?type=template", "/template-item", "/esign/documents"];
      const lists = await Promise.all([A, B].flatMap((server) => listPaths.map((path) => call(server.baseUrl, path, { headers }))));
      expect(lists.map((r) => r.status)).toEqual(Array(8).fill(401));
      for (const r of lists) expect(r.text).not.toContain("results");
      // Asking for another organization does not turn the answer into a 403 that would confirm the key.
      expect((await call(B.baseUrl, "/api/whoami", { headers: { ...headers, "x-service-org-id": A.other.orgId } })).status).toBe(401);
    } finally {
      await admin.end();
    }
  });

  it("refuses a signing URL on both instances from the very next request after its key is revoked, though the admission rides in the document's read (ADR 0022), and writes nothing", async () => {
    const own = await orgWith(A, full);
    const prep = await prepareDoc(A.baseUrl, own, [{ name: "Rev", email: "rev@example.com" }], {}, { role: "administrator" });
    expect(prep.status, prep.text).toBe(200);
    const documentId: string = prep.json.data.documentId;
    const recipientId: string = prep.json.data.recipients[0].id;
    // Both instances now know the contributor key and have issued a URL with it.
    for (const server of [A, B]) expect((await signingUrlOf(server.baseUrl, own, documentId, { recipientId })).status).toBe(200);
    const admin = new pg.Client({ connectionString: A.env.DATABASE_URL });
    await admin.connect();
    try {
      const revoked = await admin.query(`UPDATE api_key SET "revokedAt" = now() WHERE prefix = $1`, [own.keys.contributor.slice(0, 15)]);
      expect(revoked.rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    // A good body and a bad one, on both instances at once: 401 before the body is looked at.
    const after = await Promise.all([A, B, A, B].map((server, i) => signingUrlOf(server.baseUrl, own, documentId, i < 2 ? { recipientId } : {})));
    expect(after.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    for (const r of after) expect(r.text).not.toContain("url");
    const trail = (await as(A.baseUrl, own, "administrator")(`/esign/documents/${documentId}/audit-trail`)).json.data.auditTrail as { actionType: string }[];
    expect(trail.filter((e) => e.actionType === "signing_url_issued")).toHaveLength(2);
  });

  it("counts one per-key rate limit across both instances: exactly the plan's 5 per minute pass", async () => {
    // Stay inside one fixed one-minute window.
    await roomInThisMinute(15);
    const window = Math.floor(Date.now() / 60_000);
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(pick(i).baseUrl, "/api/whoami", { headers: authHeaders(A.limited, "viewer") })),
    );
    expect(Math.floor(Date.now() / 60_000), "the minute rolled over mid-test").toBe(window);
    expect(count(replies, 200)).toBe(5);
    expect(count(replies, 429)).toBe(7);
    for (const r of replies.filter((r) => r.status === 429)) {
      expect(r.json).toEqual({ error: "RateLimitExceeded", message: expect.any(String) });
      const retryAfter = Number(r.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Either instance refuses the key now; another key of the organization has its own count.
    expect((await call(B.baseUrl, "/api/whoami", { headers: authHeaders(A.limited, "viewer") })).status).toBe(429);
    expect((await call(B.baseUrl, "/api/whoami", { headers: authHeaders(A.limited, "administrator") })).status).toBe(200);
  }, 90_000);

  it("counts the lists in the same per-key limit across both instances, their admission carried by the page's statement: exactly 5 pass", async () => {
    await roomInThisMinute(15);
    const window = Math.floor(Date.now() / 60_000);
    const paths = ["/v1/deliverable", "/template-item?type=template", "/template-item", "/esign/documents"];
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(pick(i).baseUrl, paths[i % paths.length], { headers: authHeaders(A.limited, "contributor") })),
    );
    expect(Math.floor(Date.now() / 60_000), "the minute rolled over mid-test").toBe(window);
    expect(count(replies, 200)).toBe(5);
    expect(count(replies, 429)).toBe(7);
    for (const r of replies.filter((r) => r.status === 429)) expect(r.text).not.toContain("results");
    // The key's own statement counted nothing more: the next request of either kind is refused too.
    expect((await call(B.baseUrl, "/api/whoami", { headers: authHeaders(A.limited, "contributor") })).status).toBe(429);
  }, 90_000);

  describe("single-use signing URLs", () => {
    let org: EmbeddedOrg;
    beforeAll(async () => {
      org = await orgWith(A, full);
    });

    it("an override URL opened 16 times at once on both instances is redeemed exactly once; the rest get 410", async () => {
      const prep = await prepareDoc(A.baseUrl, org, [
        { name: "Ovi", email: "ovi@example.com", identityVerification: { mode: "override", overrideIdentityVerification: true } },
      ]);
      expect(prep.status, prep.text).toBe(200);
      const documentId: string = prep.json.data.documentId;
      const issued = await signingUrlOf(B.baseUrl, org, documentId, { recipientId: prep.json.data.recipients[0].id });
      expect(issued.status, issued.text).toBe(200);
      const url: string = issued.json.data.results.url;
      const opens = await Promise.all(Array.from({ length: 16 }, (_, i) => call(pick(i).baseUrl, pathOf(url))));
      expect(opens.map((r) => r.status).sort()).toEqual([303, ...Array(15).fill(410)]);
      for (const r of opens.filter((r) => r.status === 410)) expect(r.text).toContain("already used");

      // The session the winner got works on the other instance: sign there and complete the document.
      const winner = opens.findIndex((r) => r.status === 303);
      const session = /#s=([A-Za-z0-9_-]+)$/.exec(opens[winner].headers.get("location") ?? "")?.[1];
      expect(session).toBeTruthy();
      const other = pick(winner + 1);
      const token = tokenOfUrl(url);
      const page = await call(other.baseUrl, `/api/signer/${token}`, { headers: { "x-signer-session": session! } });
      expect(page.json.data.state, page.text).toBe("ready");
      const values = Object.fromEntries((page.json.data.fields as { id: string }[]).map((f) => [f.id, "Agreed"]));
      const signed = await call(other.baseUrl, `/api/signer/${token}/sign`, { method: "POST", headers: { "x-signer-session": session! }, body: { values } });
      expect(signed.status, signed.text).toBe(200);
      expect(signed.json.data.status).toBe("completed");
    });

    it("an identity assertion sent to both instances at once buys exactly one URL; the others are IdentityAssertionReused", async () => {
      const prep = await prepareDoc(A.baseUrl, org, [
        { name: "Ida", email: "ida@example.com", identityVerification: { mode: "external_idv", provider: "acme-idv", maxAgeMinutes: 5 } },
      ]);
      expect(prep.status, prep.text).toBe(200);
      const now = Math.floor(Date.now() / 1000);
      // HS256 with the provider secret A's seed sealed under the instance secret: B must open it too.
      const assertion = await new SignJWT({ iss: "acme-idv", email: "ida@example.com", iat: now - 10, jti: `jti-${crypto.randomUUID()}` })
        .setProtectedHeader({ alg: "HS256" })
        .sign(new TextEncoder().encode(HS_SECRET));
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          signingUrlOf(pick(i).baseUrl, org, prep.json.data.documentId, { recipientId: prep.json.data.recipients[0].id, identityAssertion: assertion }),
        ),
      );
      expect(count(replies, 200), replies.map((r) => r.text).join("\n")).toBe(1);
      for (const r of replies.filter((r) => r.status !== 200)) expectSigningError(r, 400, "IdentityAssertionReused");
    });

    it("the last signer's request completes its own document: the other instance's worker, polling meanwhile, leaves the job to it", async () => {
      const doc = await readyToSign(A, org, "Lu", "lu@example.com");
      // A keeps the request between its commit and the completion for longer than either instance's idle
      // worker takes to poll (4 s). A job a worker could claim there, it would seal, and a reply read while
      // it sealed said "sent": the job is the request's until its lease runs out.
      const marker = holdMarker(A.dataDir, SIGNATURE_COMMITTED_HOLD);
      fs.writeFileSync(marker, "");
      const signing = doc.sign(A.baseUrl);
      try {
        await new Promise((resolve) => setTimeout(resolve, 6 * SECOND));
        const meanwhile = await as(B.baseUrl, org, "contributor")(`/esign/documents/${doc.documentId}`);
        expect(meanwhile.json.data.recipients[0].signedAt, meanwhile.text).toBeTruthy();
        expect(meanwhile.json.data.status, meanwhile.text).toBe("sent");
      } finally {
        fs.rmSync(marker, { force: true });
      }
      const signed = await signing;
      expect(signed.status, signed.text).toBe(200);
      expect(signed.json.data.status).toBe("completed");
    }, 60_000);

    it("documents completed on A and on B are sealed with the same instance certificate", async () => {
      const fingerprints: string[] = [];
      for (const [i, server] of [A, B].entries()) {
        const doc = await readyToSign(server, org, "Cy", `cy${i}@example.com`);
        const signed = await doc.sign(server.baseUrl);
        expect(signed.json.data?.status, signed.text).toBe("completed");
        const res = await fetch(`${server.baseUrl}/esign/documents/${doc.documentId}/download`, { headers: authHeaders(org, "contributor") });
        const pdf = Buffer.from(await res.arrayBuffer());
        expect(pdfTool(pdf, "pdfsig")).toMatch(/Signature is Valid/);
        fingerprints.push(signerCertificateFingerprint(pdf));
      }
      expect(fingerprints[1]).toBe(fingerprints[0]);
    });
  });

  describe("passcodes", () => {
    let org: EmbeddedOrg;
    beforeAll(async () => {
      org = await orgWith(A, full);
    });

    /** Sends and wrong guesses split over both instances at once; counts hold exactly as on one. */
    it("limits sends and wrong entries per code, and locks at exactly 20 wrong, under concurrent calls on both instances", async () => {
      const email = "pat@example.com";
      const prep = await prepareDoc(A.baseUrl, org, [{ name: "Pat Signer", email, identityVerification: { mode: "otp", channel: "email" } }], {
        senderEmail: "alerts@example.com",
      });
      expect(prep.status, prep.text).toBe(200);
      const r = await signingUrlOf(B.baseUrl, org, prep.json.data.documentId, { recipientId: prep.json.data.recipients[0].id });
      const token = tokenOfUrl(r.json.data.results.url);
      const api = (i: number) => passcodeApi(pick(i).baseUrl, token);
      const wrongFor = (code: string) => (code === "000000" ? "111111" : "000000");

      const wrongMessages: string[] = [];
      for (let round = 0; round < 4; round++) {
        await setClocks(round * 31 * SECOND);
        // One new code per 30 s: of six concurrent sends, exactly one goes out.
        const sends = await Promise.all(Array.from({ length: 6 }, (_, i) => api(i).send()));
        expect(count(sends, 200), sends.map((s) => s.text).join("\n")).toBe(1);
        for (const s of sends.filter((s) => s.status !== 200)) expectSignerError(s, 429, "too_soon");
        const code = await mailedCode(A.baseUrl, org, email);

        const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => api(i).verify(wrongFor(code))));
        const wrong = guesses.filter((g) => g.json?.code === "wrong_passcode");
        for (const g of wrong) expectSignerError(g, 400, "wrong_passcode");
        wrongMessages.push(...wrong.map((g) => g.json.error as string));
        if (round < 3) {
          // Five wrong entries spend the code; the other seven find it spent.
          expect(wrong).toHaveLength(5);
          for (const g of guesses.filter((g) => g.json?.code !== "wrong_passcode")) expectSignerError(g, 400, "passcode_spent");
        } else {
          // 15 wrong so far: four more are wrong, the 20th locks, and every later one finds the lock.
          expect(wrong).toHaveLength(4);
          for (const g of guesses.filter((g) => g.json?.code !== "wrong_passcode")) expectSignerError(g, 423, "locked");
        }
      }
      // Each code counted down 4, 3, 2, 1, 0 attempts left: no two guesses saw the same count.
      const left = wrongMessages.map((m) => /(\d) attempt\(s\) left/.exec(m)?.[1] ?? "0");
      expect(left).toHaveLength(19);
      expect(left.sort().join("")).toBe("0001111222233334444");

      // Alerted exactly once at 5 and once at 20, whichever instance counted them.
      const alerts = (await mailsOf(A.baseUrl, org)).filter((m) => m.to === "alerts@example.com");
      expect(alerts.map((m) => m.kind).sort()).toEqual(["passcode_alert", "passcode_lockout_alert"]);
      await setClocks(10 * 60 * SECOND);
      for (const i of [0, 1]) {
        expectSignerError(await api(i).send(), 423, "locked");
        expectSignerError(await api(i).verify("123456"), 423, "locked");
      }
    }, 120_000);
  });

  it("delivers every webhook event exactly once while both instances run delivery workers", async () => {
    const org = await orgWith(A, full);
    const secret = { value: "" };
    // A short delay keeps deliveries in flight while the other instance's worker polls.
    const receivers = await Promise.all([0, 1].map(() => startReceiver({ secret: () => secret.value, respond: () => ({ status: 200, delayMs: 100 }) })));
    try {
      // Two URLs: 2 × N deliveries, more than one worker pass claims, so both workers take a share.
      const urls = receivers.map((r) => r.url);
      const hook = await as(A.baseUrl, org)("/api/webhooks", { method: "POST", body: { name: "signature", urls, events: ["signature.document.voided"] } });
      expect(hook.status, hook.text).toBe(201);
      secret.value = hook.json.data.secret;

      const N = 24;
      const docs = await Promise.all(
        Array.from({ length: N }, async (_, i) => {
          const prep = await prepareDoc(pick(i).baseUrl, org, [{ name: "Vic", email: `vic${i}@example.com` }], { documentName: `Doc ${i}` });
          expect(prep.status, prep.text).toBe(200);
          return prep.json.data.documentId as string;
        }),
      );
      const voids = await Promise.all(
        docs.map((id, i) => as(pick(i + 1).baseUrl, org, "contributor")(`/esign/documents/${id}/void`, { method: "POST", body: { reason: `test ${i}` } })),
      );
      expect(voids.map((v) => v.status)).toEqual(Array(N).fill(200));

      const list = () => as(B.baseUrl, org)("/api/webhooks/signature/deliveries?limit=100");
      await vi.waitFor(
        async () => {
          const { results } = (await list()).json.data as { results: { status: string }[] };
          expect(results).toHaveLength(2 * N);
          expect(results.every((d) => d.status === "delivered")).toBe(true);
        },
        { timeout: 60_000, interval: 250 },
      );
      // A few more worker passes on both instances: nothing is sent again.
      await new Promise((r) => setTimeout(r, 2_000));

      const { results } = (await list()).json.data as {
        results: { id: string; attemptCount: number; payload: { id: string; data: { documentId: string } } }[];
      };
      expect(results.every((d) => d.attemptCount === 1)).toBe(true);
      const received = receivers.flatMap((r) => r.received);
      const deliveryIds = received.map((d) => d.headers["x-service-delivery"]);
      expect(received).toHaveLength(2 * N);
      expect(new Set(deliveryIds).size).toBe(2 * N);
      expect(new Set(deliveryIds)).toEqual(new Set(results.map((d) => d.id)));
      expect(received.every((d) => d.signatureValid && verifySignature(secret.value, String(d.headers["x-service-signature"]), d.body))).toBe(true);
      // One event per voided document, each sent once to each URL.
      for (const r of receivers) {
        const documents = r.received.map((d) => (JSON.parse(d.body) as { data: { documentId: string } }).data.documentId);
        expect(documents.sort()).toEqual([...docs].sort());
      }
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
    }
  }, 120_000);

  it("sends each automatic reminder once while both instances' schedulers find it due at the same moment", async () => {
    const org = await orgWith(A, {});
    const docs = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        prepareDoc(
          pick(i).baseUrl,
          org,
          [
            { name: "Rae", email: `rae-${i}@example.com`, signingOrder: 1 },
            { name: "Sol", email: `sol-${i}@example.com`, signingOrder: 1 },
            { name: "Tam", email: `tam-${i}@example.com`, signingOrder: 2 },
          ],
          { sendEmail: "true", reminderDays: "1" },
        ),
      ),
    );
    for (const d of docs) expect(d.status, d.text).toBe(200);
    // Both clocks move at once and each kicks its own scheduler: both passes see all 20 due.
    await setClocks(24 * 3600 * SECOND + 60 * SECOND);
    const until = Date.now() + 30 * SECOND;
    while ((await mailsOf(A.baseUrl, org, "signing_reminder")).length < 20 && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
    await new Promise((r) => setTimeout(r, 3 * SECOND));
    const reminders = await mailsOf(B.baseUrl, org, "signing_reminder");
    const expected = docs.flatMap((_, i) => [`rae-${i}@example.com`, `sol-${i}@example.com`]);
    expect(reminders.map((m) => m.to).sort()).toEqual(expected.sort());
  }, 90_000);

  it("sends one bulk send from both instances' workers at once: exactly one document and one email per row", async () => {
    const org = await orgWith(A, {});
    const layoutId = await bulkLayout(A.baseUrl, org, ["Client"]);
    const rows = Array.from({ length: 40 }, (_, i) => ({ recipients: [{ name: `Row ${i + 1}`, email: `bulk-${i + 1}@example.com` }] }));
    const created = await as(A.baseUrl, org, "contributor")("/esign/bulk-sends", { method: "POST", body: { layoutId, rows } });
    expect(created.status, created.text).toBe(201);
    // A's worker was kicked by the POST; moving both clocks kicks B's too, so both claim rows from the start.
    await setClocks(0);
    const batch = await bulkFinished(B.baseUrl, org, created.json.data.id, 90 * SECOND);
    expect(batch.counts).toEqual({ sent: 40 });
    const byEmail = await documentsByEmail(A.baseUrl, org);
    for (const row of batch.rows) expect(byEmail.get(row.recipients[0].email), `row ${row.rowNumber}`).toEqual([row.documentId]);
    const mails = (await mailsOf(A.baseUrl, org, "signing_request")).map((m) => m.to).sort();
    expect(mails).toEqual(rows.map((r) => r.recipients[0].email).sort());
  }, 120_000);

  it("converts DOCX to PDF on both instances at once: every deliverable gets a valid PDF with its own values", async () => {
    const admin = (s: QuireTestServer) => as(s.baseUrl, A.seed, "administrator");
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(buildDocx(["Hello {Name}, welcome aboard."]))]), "welcome.docx");
    const template = await admin(A)("/template", { method: "POST", body: form });
    expect(template.status, template.text).toBe(201);

    const N = 8;
    const created = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        admin(pick(i))("/v1/deliverable", {
          method: "POST",
          body: { name: `Welcome ${i}`, templateId: template.json.data.id, variables: [{ placeholder: "{Name}", text: `Person ${i}`, mimeType: "text" }] },
        }),
      ),
    );
    for (const c of created) expect(c.status, c.text).toBe(200);
    for (const [i, c] of created.entries()) {
      // Read back through the other instance: the file is in the shared store.
      const res = await fetch(`${pick(i + 1).baseUrl}/v1/deliverable/file/pdf/${c.json.data.results.deliverable.id}`, { headers: authHeaders(A.seed, "user") });
      expect(res.status).toBe(200);
      const pdf = Buffer.from(await res.arrayBuffer());
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(pdfTool(pdf, "pdftotext")).toContain(`Hello Person ${i}, welcome aboard.`);
    }
  }, 180_000);
});

/** SHA-256 of the certificate that made the PDF's (first) digital signature. */
function signerCertificateFingerprint(pdf: Buffer): string {
  const hex = /\/Contents\s*<([0-9a-fA-F]+)>/.exec(pdf.toString("latin1"))?.[1];
  if (!hex) throw new Error("the PDF has no signature");
  const asn1 = forge.asn1.fromDer(forge.util.hexToBytes(hex), { parseAllBytes: false } as unknown as boolean);
  const message = forge.pkcs7.messageFromAsn1(asn1) as forge.pkcs7.PkcsSignedData;
  const cert = message.certificates[0];
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes();
  return crypto.createHash("sha256").update(Buffer.from(der, "binary")).digest("hex");
}

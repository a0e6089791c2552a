// Single use survives a restart (docs/contract.md "External identity assertions", "Embedded signing"): an
// identity assertion's jti and a redeemed single-use signing URL are stored, so after the server
// is killed (SIGKILL) and started again on the same database, the jti is still "reused" and the
// link still 410. Uses its own server (a restart would disturb the shared one). Killed while signing URLs
// are being issued, the server leaves nothing half-written: every URL it answered opens after the
// restart, every answer has its audit entry on an intact chain, and every recipient can still get a URL.
import { SignJWT } from "jose";
import { verifyAuditChain } from "@/lib/esign/audit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, call } from "../support/api";
import { roomInThisMinute } from "../support/helpers";
import { HS_SECRET, orgWith, prepareDoc, signingUrlOf, type EmbeddedOrg } from "../support/embedded";
import { expectSigningError } from "../support/embedded-expect";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";

let quire: RunningQuire;
let org: EmbeddedOrg;

beforeAll(async () => {
  quire = await startQuireServer((process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase);
  org = await orgWith(quire.server, { enabled: true, allowExternalIdv: true, allowIdentityOverride: true });
});

afterAll(async () => {
  await quire?.stop();
});

describe(`a key's rate across a graceful restart (${process.env.QUIRE_TEST_DB ?? "pglite"})`, () => {
  it("goes on counting the minute's requests after SIGTERM and a start within the same minute", async () => {
    // A start takes seconds: begin early enough in a minute that the restart ends inside it.
    await roomInThisMinute(35);
    const minute = Math.floor(Date.now() / 60_000);
    const viewer = as(quire.server.baseUrl, quire.server.limited, "viewer");
    for (let i = 0; i < 3; i++) expect((await viewer("/api/whoami")).status).toBe(200);
    await quire.restart();
    expect(Math.floor(Date.now() / 60_000), "the restart ended in the minute it began").toBe(minute);
    // The plan allows 5 a minute: 3 were made before the restart.
    for (let i = 0; i < 2; i++) expect((await viewer("/api/whoami")).status).toBe(200);
    const refused = await viewer("/api/whoami");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  }, 120_000);
});

describe(`single use across a hard restart (${process.env.QUIRE_TEST_DB ?? "pglite"})`, () => {
  it("an identity assertion's jti stays used, and a redeemed single-use link stays redeemed", async () => {
    const { baseUrl } = quire.server;
    const prep = await prepareDoc(baseUrl, org, [
      { name: "Ida", email: "ida@example.com", signingOrder: 1, identityVerification: { mode: "external_idv", provider: "acme-idv", maxAgeMinutes: 30 } },
      { name: "Ovi", email: "ovi@example.com", signingOrder: 1, identityVerification: { mode: "override", overrideIdentityVerification: true } },
    ]);
    expect(prep.status, prep.text).toBe(200);
    const [ida, ovi] = prep.json.data.recipients.map((r: { id: string }) => r.id);
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ iss: "acme-idv", email: "ida@example.com", iat: now - 10, jti: `restart-${now}` })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(HS_SECRET));
    const first = await signingUrlOf(baseUrl, org, prep.json.data.documentId, { recipientId: ida, identityAssertion: assertion });
    expect(first.status, first.text).toBe(200);
    const link = new URL((await signingUrlOf(baseUrl, org, prep.json.data.documentId, { recipientId: ovi })).json.data.results.url);
    expect((await call(baseUrl, link.pathname + link.search)).status).toBe(303);

    await quire.restart({ hard: true });

    expectSigningError(
      await signingUrlOf(baseUrl, org, prep.json.data.documentId, { recipientId: ida, identityAssertion: assertion }),
      400,
      "IdentityAssertionReused",
    );
    expect((await call(baseUrl, link.pathname + link.search)).status).toBe(410);
    // The link Ida got before the restart is still unopened and works once.
    const idaLink = new URL(first.json.data.results.url);
    expect((await call(baseUrl, idaLink.pathname + idaLink.search)).status).toBe(303);
    expect((await call(baseUrl, idaLink.pathname + idaLink.search)).status).toBe(410);
  });

  it("killed while signing URLs are being issued: every URL answered opens after the restart, nothing is half-written", async () => {
    const { baseUrl } = quire.server;
    const override = { mode: "override", overrideIdentityVerification: true };
    const recipients: { documentId: string; recipientId: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const prep = await prepareDoc(baseUrl, org, [
        { name: `Ovi ${i}`, email: `ovi${i}@example.com`, signingOrder: 1, identityVerification: override },
        { name: `Nia ${i}`, email: `nia${i}@example.com`, signingOrder: 1 },
      ]);
      expect(prep.status, prep.text).toBe(200);
      for (const r of prep.json.data.recipients) recipients.push({ documentId: prep.json.data.documentId, recipientId: r.id });
    }

    // Eight clients ask for URLs in a loop; the server is killed once ten have been answered.
    const answered: { documentId: string; recipientId: string; url: string }[] = [];
    let killed = false;
    const client = async (c: number) => {
      for (let n = c; !killed; n += 8) {
        const target = recipients[n % recipients.length];
        const res = await signingUrlOf(baseUrl, org, target.documentId, { recipientId: target.recipientId }).catch(() => null);
        if (res?.status === 200 && !killed) answered.push({ ...target, url: res.json.data.results.url });
      }
    };
    const clients = Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
    while (answered.length < 10) await new Promise((r) => setTimeout(r, 20));
    const killing = quire.restart({ hard: true });
    killed = true;
    await killing;
    await clients;

    for (const { url } of answered) {
      const link = new URL(url);
      expect((await call(baseUrl, link.pathname + link.search)).status, url).toBe(303);
    }
    const admin = as(baseUrl, org, "administrator");
    for (const documentId of new Set(recipients.map((r) => r.documentId))) {
      const doc = (await admin(`/esign/documents/${documentId}`)).json.data;
      expect(doc.status).toBe("sent");
      expect(doc.recipients.map((r: { status: string }) => r.status)).toEqual(["ready", "ready"]);
      const trail = (await admin(`/esign/documents/${documentId}/audit-trail`)).json.data.auditTrail;
      expect(verifyAuditChain(trail), "the audit chain is intact").toBe(-1);
      for (const r of recipients.filter((x) => x.documentId === documentId)) {
        const issued = trail.filter(
          (e: { actionType: string; recipientId: string }) => e.actionType === "signing_url_issued" && e.recipientId === r.recipientId,
        );
        expect(issued.length, "an audit entry for every URL answered").toBeGreaterThanOrEqual(answered.filter((a) => a.recipientId === r.recipientId).length);
        expect((await signingUrlOf(baseUrl, org, documentId, { recipientId: r.recipientId })).status).toBe(200);
      }
    }
  }, 180_000);
});

// Single use survives a restart (docs/contract.md "External identity assertions", "Embedded signing"): an
// identity assertion's jti and a redeemed single-use signing URL are stored, so after the server
// is killed (SIGKILL) and started again on the same database, the jti is still "reused" and the
// link still 410. Uses its own server (a restart would disturb the shared one).
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../support/api";
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
});

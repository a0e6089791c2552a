// POST /esign/documents/{id}/signing-url and the deprecated GET signing-link (docs/contract.md
// "Embedded signing", "Error bodies"): the recipient selector, unknown keys, returnUrl (stored per request, read by the
// signing page, never in the URL), turn and state errors, expiresAt, single-use links (consumed on
// open, about five minutes, then 410) and the deprecated endpoint's headers, checks and audit.
import crypto from "node:crypto";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { type ApiReply, as, call, roomInThisMinute } from "../support/helpers";
import { orgWith, prepareDoc, reconfigure, setClock, signingUrlOf, tokenOfUrl, type EmbeddedOrg } from "../support/embedded";
import { expectSigningError } from "../support/embedded-expect";
import { verifyAuditChain } from "@/lib/esign/audit";
import { until } from "../support/crash";

const server = inject("quire");
const { baseUrl } = server;

const full = { enabled: true, allowExternalIdv: true, allowIdentityOverride: true, sms: { provider: "outbox" } };
const ack = { mode: "override", overrideIdentityVerification: true };

let org: EmbeddedOrg;
beforeAll(async () => {
  org = await orgWith(server, full);
});
afterEach(async () => {
  await setClock(server, 0);
});

async function sent(recipients: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  const prep = await prepareDoc(baseUrl, org, recipients, extra);
  expect(prep.status, prep.text).toBe(200);
  return { documentId: prep.json.data.documentId as string, ids: (prep.json.data.recipients as { id: string }[]).map((r) => r.id) };
}

const urlOf = (documentId: string, body: unknown, role: "administrator" | "contributor" | "user" | "viewer" = "contributor") =>
  signingUrlOf(baseUrl, org, documentId, body, role);
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const signerPage = (token: string, session?: string) => call(baseUrl, `/api/signer/${token}`, { headers: session ? { "x-signer-session": session } : {} });

/** Signs every field of a signer who needs no verification (or holds a session). */
async function signAs(url: string, session?: string) {
  const token = tokenOfUrl(url);
  const page = await signerPage(token, session);
  expect(page.json.data.state, page.text).toBe("ready");
  const values = Object.fromEntries((page.json.data.fields as { id: string }[]).map((f) => [f.id, "agreed"]));
  const signed = await call(baseUrl, `/api/signer/${token}/sign`, {
    method: "POST",
    headers: session ? { "x-signer-session": session } : {},
    body: { values },
  });
  expect(signed.status, signed.text).toBe(200);
  return signed.json.data;
}

describe("the recipient selector and the request body", () => {
  it("needs exactly one of recipientId and externalId, rejects unknown keys and a returnUrl that is not https", async () => {
    const { documentId, ids } = await sent([
      { name: "Ann", email: "ann@example.com", externalId: "crm-ann", signingOrder: 1 },
      { name: "Bob", email: "bob@example.com", externalId: "crm-bob", signingOrder: 1 },
    ]);
    expectSigningError(await urlOf(documentId, {}), 400, "RecipientSelectorInvalid");
    expectSigningError(await urlOf(documentId, { recipientId: ids[0], externalId: "crm-ann" }), 400, "RecipientSelectorInvalid");
    expectSigningError(await urlOf(documentId, { recipientId: "" }), 400, "RecipientSelectorInvalid");
    const unknown = await urlOf(documentId, { externalId: "crm-ann", colour: "red" });
    expectSigningError(unknown, 400, "ValidationError");
    expect(unknown.json.message).toContain("colour");
    for (const returnUrl of ["http://app.example.com/done", "javascript:alert(1)", "not a url", ""])
      expectSigningError(await urlOf(documentId, { externalId: "crm-ann", returnUrl }), 400, "InvalidReturnUrl");
    expectSigningError(await urlOf(documentId, { externalId: "crm-nobody" }), 404, "RecipientNotFound");
    expectSigningError(await urlOf(documentId, { recipientId: crypto.randomUUID() }), 404, "RecipientNotFound");
    // A recipient of another document is not a recipient of this one.
    const other = await sent([{ name: "Cy", email: "cy@example.com" }]);
    expectSigningError(await urlOf(documentId, { recipientId: other.ids[0] }), 404, "RecipientNotFound");

    const byExternal = await urlOf(documentId, { externalId: "crm-bob" });
    const byId = await urlOf(documentId, { recipientId: ids[1] });
    expect(byExternal.status).toBe(200);
    expect(byExternal.json.data.results).toEqual({
      url: byId.json.data.results.url,
      expiresAt: null,
      recipientId: ids[1],
      externalId: "crm-bob",
      identityVerificationMode: null,
      pendingChecks: [],
    });
    expect(byExternal.json.data.results.url).toMatch(new RegExp(`^${baseUrl}/sign/open\\?token=[A-Za-z0-9_-]{20,}$`));
  });

  it("DocumentNotFound has the body { message, type }; a User or viewer key gets a plain 403; no key 401", async () => {
    const { documentId, ids } = await sent([{ name: "Ann", email: "ann@example.com" }]);
    for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
      const r = await urlOf(id, { recipientId: ids[0] });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: expect.any(String), type: "DocumentNotFound" });
    }
    // Another organization's document does not exist for this one.
    const foreign = await signingUrlOf(baseUrl, server.seed, documentId, { recipientId: ids[0] });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({ message: expect.any(String), type: "DocumentNotFound" });
    for (const role of ["user", "viewer"] as const) {
      const r = await urlOf(documentId, { recipientId: ids[0] }, role);
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: "Forbidden" });
    }
    expect((await call(baseUrl, `/esign/documents/${documentId}/signing-url`, { method: "POST", body: { recipientId: ids[0] } })).status).toBe(401);
    expect((await urlOf(documentId, { recipientId: ids[0] }, "administrator")).status).toBe(200);
  });
});

describe("turn and state", () => {
  it("refuses a signer whose turn has not come, one who has signed, and any signer of a voided, draft or completed document", async () => {
    const { documentId, ids } = await sent([
      { name: "Ann", email: "ann@example.com", signingOrder: 1 },
      { name: "Bob", email: "bob@example.com", signingOrder: 2 },
    ]);
    expectSigningError(await urlOf(documentId, { recipientId: ids[1] }), 409, "RecipientNotInTurn");
    const ann = await urlOf(documentId, { recipientId: ids[0] });
    expect((await signAs(ann.json.data.results.url)).status).toBe("sent");
    expectSigningError(await urlOf(documentId, { recipientId: ids[0] }), 409, "RecipientAlreadySigned");
    expect((await urlOf(documentId, { recipientId: ids[1] })).status).toBe(200);
    expect((await as(baseUrl, org, "contributor")(`/esign/documents/${documentId}/void`, { method: "POST", body: { reason: "wrong terms" } })).status).toBe(
      200,
    );
    expectSigningError(await urlOf(documentId, { recipientId: ids[1] }), 409, "DocumentNotSignable");
    expectSigningError(await urlOf(documentId, { recipientId: ids[0] }), 409, "RecipientAlreadySigned");

    const draft = await prepareDoc(baseUrl, org, [{ name: "Dan", email: "dan@example.com" }], {}, { path: "/esign/single/prepare-for-review" });
    expectSigningError(await urlOf(draft.json.data.documentId, { recipientId: draft.json.data.recipients[0].id }), 409, "DocumentNotSignable");

    const single = await sent([{ name: "Eve", email: "eve@example.com" }]);
    expect((await signAs((await urlOf(single.documentId, { recipientId: single.ids[0] })).json.data.results.url)).status).toBe("completed");
    expectSigningError(await urlOf(single.documentId, { recipientId: single.ids[0] }), 409, "RecipientAlreadySigned");
  });

  it("expiresAt is the document's own expiry; once it passes the document is not signable", async () => {
    const expiresAt = new Date(Date.now() + 2 * 3600_000).toISOString();
    const { documentId, ids } = await sent([{ name: "Ann", email: "ann@example.com", identityVerification: { mode: "otp", channel: "email" } }], { expiresAt });
    const r = await urlOf(documentId, { recipientId: ids[0] });
    expect(r.json.data.results).toMatchObject({ expiresAt, identityVerificationMode: "otp", pendingChecks: ["email_otp"] });
    await setClock(server, 2 * 3600_000 + 60_000);
    expectSigningError(await urlOf(documentId, { recipientId: ids[0] }), 409, "DocumentNotSignable");
    expect((await signerPage(tokenOfUrl(r.json.data.results.url))).json.data.state).toBe("expired");
  });
});

describe("returnUrl", () => {
  it("is stored on the recipient per request, read by the signing page, never put in the URL, and cleared by a request without it", async () => {
    const { documentId, ids } = await sent([{ name: "Ann", email: "ann@example.com" }], { returnUrl: "https://app.example.com/from-prepare" });
    const token = tokenOfUrl((await urlOf(documentId, { recipientId: ids[0] })).json.data.results.url);
    // The URL request without returnUrl cleared the one given when the document was sent.
    expect((await signerPage(token)).json.data.recipient.returnUrl).toBeNull();

    const first = await urlOf(documentId, { recipientId: ids[0], returnUrl: "https://app.example.com/done?deal=42" });
    expect(first.json.data.results.url).not.toMatch(/app\.example\.com|returnUrl|deal/);
    expect((await signerPage(token)).json.data.recipient.returnUrl).toBe("https://app.example.com/done?deal=42");
    // A rejected request changes nothing.
    expectSigningError(await urlOf(documentId, { recipientId: ids[0], returnUrl: "http://insecure.example.com" }), 400, "InvalidReturnUrl");
    expectSigningError(await urlOf(documentId, { recipientId: ids[0], returnUrl: "https://x.example.com", extra: 1 }), 400, "ValidationError");
    expect((await signerPage(token)).json.data.recipient.returnUrl).toBe("https://app.example.com/done?deal=42");

    await urlOf(documentId, { recipientId: ids[0] });
    expect((await signerPage(token)).json.data.recipient.returnUrl).toBeNull();
    const last = await urlOf(documentId, { recipientId: ids[0], returnUrl: "https://crm.example.org/after" });
    expect(await signAs(last.json.data.results.url)).toMatchObject({ status: "completed", returnUrl: "https://crm.example.org/after" });
  });

  it("is stored for single-use links too and shown once the link is redeemed", async () => {
    const { documentId, ids } = await sent([{ name: "Ovi", email: "ovi@example.com", identityVerification: ack }]);
    const r = await urlOf(documentId, { recipientId: ids[0], returnUrl: "https://app.example.com/ovi" });
    expect(r.json.data.results.url).not.toContain("app.example.com");
    const open = await call(baseUrl, pathOf(r.json.data.results.url));
    const session = /#s=([A-Za-z0-9_-]+)$/.exec(open.headers.get("location") ?? "")?.[1];
    expect(session).toBeTruthy();
    const page = await signerPage(tokenOfUrl(r.json.data.results.url), session);
    expect(page.json.data.recipient.returnUrl).toBe("https://app.example.com/ovi");
  });
});

describe("single-use links (override, external_idv)", () => {
  it("are consumed on open: a second open is 410 SigningUrlNotRedeemable", async () => {
    const { documentId, ids } = await sent([{ name: "Ovi", email: "ovi@example.com", identityVerification: ack }]);
    const before = Date.now();
    const r = await urlOf(documentId, { recipientId: ids[0] });
    expect(r.status).toBe(200);
    expect(r.json.data.results).toMatchObject({ recipientId: ids[0], externalId: null, identityVerificationMode: "override", pendingChecks: [] });
    const expiresAt = new Date(r.json.data.results.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 5 * 60_000 - 1_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 5 * 60_000 + 1_000);
    // Each request gives a new link.
    const second = await urlOf(documentId, { recipientId: ids[0] });
    expect(second.json.data.results.url).not.toBe(r.json.data.results.url);

    const path = pathOf(r.json.data.results.url);
    expect((await call(baseUrl, path)).status).toBe(303);
    // Opened again: a program (Accept: application/json) gets the signing error body, a browser the page.
    const again = await call(baseUrl, path);
    expect(again.status).toBe(410);
    expect(again.json).toEqual({
      message: expect.stringMatching(/already used/),
      type: "SigningUrlNotRedeemable",
      error: expect.any(String),
      code: "SigningUrlNotRedeemable",
    });
    const page = await call(baseUrl, path, { headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" } });
    expect(page.status).toBe(410);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.text).toContain("This signing link was already used");
    expect((await call(baseUrl, pathOf(second.json.data.results.url))).status).toBe(303);
  });

  it("expire about five minutes after issue: open at 4½ minutes works, after 5 minutes is 410", async () => {
    const { documentId, ids } = await sent([{ name: "Ovi", email: "ovi@example.com", identityVerification: ack }]);
    const early = (await urlOf(documentId, { recipientId: ids[0] })).json.data.results.url;
    const late = (await urlOf(documentId, { recipientId: ids[0] })).json.data.results.url;
    await setClock(server, 4.5 * 60_000);
    expect((await call(baseUrl, pathOf(early))).status).toBe(303);
    await setClock(server, 5 * 60_000 + 2_000);
    expect((await call(baseUrl, pathOf(late))).status).toBe(410);
    // A new one works again at the new time.
    const fresh = (await urlOf(documentId, { recipientId: ids[0] })).json.data.results.url;
    expect((await call(baseUrl, pathOf(fresh))).status).toBe(303);
  });
});

describe("the deprecated GET signing-link", () => {
  const linkOf = (documentId: string, recipientId: string, role: "contributor" | "user" = "contributor") =>
    as(baseUrl, org, role)(`/esign/documents/${documentId}/recipients/${recipientId}/signing-link`);
  const expectDeprecated = (r: { headers: Headers }, documentId: string) => {
    expect(r.headers.get("deprecation")).toBe("true");
    expect(r.headers.get("link")).toBe(`<${baseUrl}/esign/documents/${documentId}/signing-url>; rel="successor-version"`);
  };

  it("gives the same result as the POST endpoint, with the same checks and audit trail, and says it is deprecated on every reply", async () => {
    const { documentId, ids } = await sent([
      { name: "Ann", email: "ann@example.com", externalId: "a", signingOrder: 1, identityVerification: { mode: "otp", channel: "email" } },
      { name: "Ovi", email: "ovi@example.com", signingOrder: 1, identityVerification: ack },
      { name: "Bob", email: "bob@example.com", signingOrder: 2 },
    ]);
    const got = await linkOf(documentId, ids[0]);
    expect(got.status).toBe(200);
    expectDeprecated(got, documentId);
    const posted = await urlOf(documentId, { recipientId: ids[0] });
    expect(got.json.data.results).toEqual(posted.json.data.results);
    expect(got.json.data.results).toMatchObject({ externalId: "a", identityVerificationMode: "otp", pendingChecks: ["email_otp"] });

    const refused = await linkOf(documentId, ids[1]);
    expectSigningError(refused, 409, "RecipientRequiresSingleUseUrl");
    expectDeprecated(refused, documentId);
    const notYet = await linkOf(documentId, ids[2]);
    expectSigningError(notYet, 409, "RecipientNotInTurn");
    expectDeprecated(notYet, documentId);
    expectSigningError(await linkOf(documentId, crypto.randomUUID()), 404, "RecipientNotFound");
    const missing = crypto.randomUUID();
    const notFound = await linkOf(missing, ids[0]);
    expect(notFound.status).toBe(404);
    expect(notFound.json).toEqual({ message: expect.any(String), type: "DocumentNotFound" });
    expectDeprecated(notFound, missing);
    const user = await linkOf(documentId, ids[0], "user");
    expect(user.status).toBe(403);
    expect(user.json).toEqual({ message: "Forbidden" });
    expectDeprecated(user, documentId);

    const trail = (await as(baseUrl, org)(`/esign/documents/${documentId}/audit-trail`)).json.data.auditTrail as {
      actionType: string;
      recipientId: string;
      details: Record<string, unknown>;
    }[];
    const issued = trail.filter((e) => e.actionType === "signing_url_issued");
    expect(issued.map((e) => [e.recipientId, e.details.endpoint ?? "signing-url"])).toEqual([
      [ids[0], "signing-link (deprecated)"],
      [ids[0], "signing-url"],
    ]);
    // Issued by the key's user, about the recipient (who acted is recorded on the driver's path too).
    for (const e of issued as unknown as { user: unknown; recipient: { email: string } | null }[]) {
      expect(e.user).toEqual({ name: expect.any(String), email: org.login.email });
      expect(e.recipient?.email).toEqual(expect.stringContaining("@"));
    }
  });
});

describe("the audit chain under concurrent writers", () => {
  it("stays one unbroken chain when signing URLs (written on the driver) and resends (written through Prisma) land at once", async () => {
    const { documentId, ids } = await sent([
      { name: "Ann", email: "ann@example.com", externalId: "a", signingOrder: 1 },
      { name: "Ovi", email: "ovi@example.com", signingOrder: 1, identityVerification: ack },
    ]);
    const resend = () =>
      as(
        baseUrl,
        org,
        "contributor",
      )(`/esign/documents/${documentId}/resend-email`, {
        method: "POST",
        body: JSON.stringify({ recipientIds: [ids[0]] }),
        headers: { "content-type": "application/json" },
      });
    const replies = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 4 === 3 ? resend() : urlOf(documentId, { recipientId: ids[i % 2] }))));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    const trail = (await as(baseUrl, org)(`/esign/documents/${documentId}/audit-trail`)).json.data.auditTrail;
    expect(trail.filter((e: { actionType: string }) => e.actionType === "signing_url_issued")).toHaveLength(18);
    expect(trail.filter((e: { actionType: string }) => e.actionType === "resent")).toHaveLength(6);
    expect(verifyAuditChain(trail)).toBe(-1);
  });
});

describe.runIf(process.env.QUIRE_TEST_DB === "postgres")("returnUrl, as the database sees it", () => {
  it("asking again with the same returnUrl leaves the recipient's row as it was; a different one writes it", async () => {
    const { documentId, ids } = await sent([{ name: "Rae", email: "rae@example.com" }]);
    const db = new pg.Client({ connectionString: server.env.DATABASE_URL });
    await db.connect();
    try {
      // xmin names the transaction that wrote the row's current version: a write, even of the same value, changes it.
      const version = async () => (await db.query(`SELECT xmin::text AS v, "returnUrl" FROM signing_recipient WHERE id = $1`, [ids[0]])).rows[0];
      const returnUrl = "https://app.example.com/again";
      expect((await urlOf(documentId, { recipientId: ids[0], returnUrl })).status).toBe(200);
      const written = await version();
      expect(written.returnUrl).toBe(returnUrl);
      for (let i = 0; i < 3; i++) expect((await urlOf(documentId, { recipientId: ids[0], returnUrl })).status).toBe(200);
      expect(await version()).toEqual(written);
      expect((await urlOf(documentId, { recipientId: ids[0] })).status).toBe(200);
      const cleared = await version();
      expect(cleared.returnUrl).toBeNull();
      expect(cleared.v).not.toBe(written.v);
      // Each request still has its audit entry.
      const trail = (await as(baseUrl, org)(`/esign/documents/${documentId}/audit-trail`)).json.data.auditTrail;
      expect(trail.filter((e: { actionType: string }) => e.actionType === "signing_url_issued")).toHaveLength(5);
    } finally {
      await db.end();
    }
  });
});

describe.runIf(process.env.QUIRE_TEST_DB === "postgres")("a signing URL or a first view beside a change that holds the document", () => {
  /** Locks the document's row as a signature does, waits for `request` to queue behind it, then writes the recipient and commits. */
  async function behindAChange(documentId: string, recipientId: string, request: () => Promise<ApiReply<{ data: { state?: string } }>>) {
    const holder = new pg.Client({ connectionString: server.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT id FROM signing_document WHERE id = $1 FOR UPDATE`, [documentId]);
      const reply = request();
      await until(
        "the request to wait for the document's row",
        async () =>
          Number(
            (await holder.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).rows[0].n,
          ) >= 1,
        30_000,
      );
      // Had the request written the recipient before waiting, this would deadlock and one side would fail.
      await holder.query(`UPDATE signing_recipient SET "returnUrl" = 'https://held.example/' WHERE id = $1`, [recipientId]);
      await holder.query("COMMIT");
      return { reply: await reply, row: (await holder.query(`SELECT "returnUrl", "viewedAt" FROM signing_recipient WHERE id = $1`, [recipientId])).rows[0] };
    } finally {
      await holder.query("ROLLBACK").catch(() => {});
      await holder.end();
    }
  }

  it("a signer's first view waits for the document's row before it marks the recipient viewed", async () => {
    const { documentId, ids } = await sent([{ name: "Vic", email: "vic@example.com", signingOrder: 1 }]);
    const link = await urlOf(documentId, { recipientId: ids[0] });
    expect(link.status, link.text).toBe(200);
    const { reply, row } = await behindAChange(documentId, ids[0], () => signerPage(tokenOfUrl(link.json.data.results.url)));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.data.state).toBe("ready");
    expect(row.viewedAt).toBeInstanceOf(Date);
  });

  it("a signing URL waits for the document's row before it writes the recipient's", async () => {
    const { documentId, ids } = await sent([{ name: "Ann", email: "ann@example.com", signingOrder: 1 }]);
    const { reply, row } = await behindAChange(documentId, ids[0], () =>
      urlOf(documentId, { recipientId: ids[0], returnUrl: "https://partner.example/after" }),
    );
    expect(reply.status, reply.text).toBe(200);
    // The request ran after the change: its returnUrl is the one kept.
    expect(row.returnUrl).toBe("https://partner.example/after");
  });
});

// On PostgreSQL a signing URL's key is admitted by the statement that reads its document (ADR 0022), and
// on its own statement when the request fails before that one; on the embedded database in memory (ADR
// 0021). Either way every request counts once, a 401 or 429 comes before anything else, and nothing is
// written for a request refused.
describe("a signing URL's key: admitted once per request, before anything is answered or written", () => {
  beforeAll(async () => {
    // Stay inside one fixed one-minute window so the count is not reset mid-test.
    await roomInThisMinute(15);
  }, 70_000);

  it("counts bad bodies and good ones alike, answers 429 past the plan's rate with nothing written, and 401 for a deleted key before a bad body's 400", async () => {
    const limited = await orgWith(server, full, { rateLimitPerMinute: 4 });
    const prep = await prepareDoc(baseUrl, limited, [{ name: "Rae", email: "rae@example.com" }], {}, { role: "administrator" });
    expect(prep.status, prep.text).toBe(200);
    const documentId = prep.json.data.documentId as string;
    const recipientId = prep.json.data.recipients[0].id as string;
    const ask = (body: unknown, org = limited) => signingUrlOf(baseUrl, org, documentId, body);
    const issued = async (org = limited) =>
      ((await as(baseUrl, org, "administrator")(`/esign/documents/${documentId}/audit-trail`)).json.data.auditTrail as { actionType: string }[]).filter(
        (e) => e.actionType === "signing_url_issued",
      ).length;

    expectSigningError(await ask({}), 400, "RecipientSelectorInvalid");
    expect((await ask({ recipientId })).status).toBe(200);
    expectSigningError(await ask({ recipientId, unknownField: 1 }), 400, "ValidationError");
    expect((await ask({ recipientId })).status).toBe(200);
    // The plan's four requests are spent: the fifth is refused whatever its body says, and writes nothing.
    for (const body of [{ recipientId }, {}]) {
      const refused = await ask(body);
      expect(refused.status, refused.text).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    }
    expect(await issued()).toBe(2);

    // The seed rotates the keys: the old ones are deleted, and a deleted key gets 401 before its body is looked at.
    const rotated = await reconfigure(server, limited, full, { rateLimitPerMinute: 4 });
    for (const body of [{ recipientId }, {}, { recipientId: "not-a-uuid" }]) expect((await ask(body)).status).toBe(401);
    expect((await ask({ recipientId }, rotated)).status).toBe(200);
    expect(await issued(rotated)).toBe(3);
  });
});

describe.runIf(process.env.QUIRE_TEST_DB === "postgres")("a signing URL's plan, as the database has it", () => {
  it("is read by the request's own statement: a plan changed between two requests of a cached key applies to the second", async () => {
    const { documentId, ids } = await sent([{ name: "Eve", email: "eve@example.com", identityVerification: { mode: "otp", channel: "email" } }]);
    expect((await urlOf(documentId, { recipientId: ids[0] })).json.data.results.identityVerificationMode).toBe("otp");
    const db = new pg.Client({ connectionString: server.env.DATABASE_URL });
    await db.connect();
    try {
      await db.query(`UPDATE organization SET "emailOtp" = false WHERE id = $1`, [org.orgId]);
      expectSigningError(await urlOf(documentId, { recipientId: ids[0] }), 402, "OtpNotEntitled");
    } finally {
      await db.query(`UPDATE organization SET "emailOtp" = true WHERE id = $1`, [org.orgId]);
      await db.end();
    }
    expect((await urlOf(documentId, { recipientId: ids[0] })).status).toBe(200);
  });
});

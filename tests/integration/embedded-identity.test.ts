// Identity verification per recipient (docs/contract.md "Identity verification", "Error bodies"): every identity code when a
// document is sent (prepare-for-signing, POST send) and when a signing URL is issued, the
// organization default channel and its lock, automated sends, and the external identity
// assertion checks of docs/contract.md, each with the exact signing error body.
import { SignJWT } from "jose";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { as, call } from "../support/helpers";
import { HS_SECRET, orgWith, prepareDoc, reconfigure, signingUrlOf, type EmbeddedOrg } from "../support/embedded";
import { expectSigningError } from "../support/embedded-expect";

const server = inject("quire");
const { baseUrl } = server;

const full = {
  enabled: true,
  allowExternalIdv: true,
  allowIdentityOverride: true,
  defaultChannel: "none",
  allowChannelOverride: true,
  sms: { provider: "outbox" },
};
const PHONE = "+14155552671";
const ack = { mode: "override", overrideIdentityVerification: true, reason: "checked at the counter" };
const idv = { mode: "external_idv", provider: "acme-idv", maxAgeMinutes: 15 };

const signer = (name: string, extra: Record<string, unknown> = {}) => ({ name, email: `${name.toLowerCase()}@example.com`, signingOrder: 1, ...extra });

async function documentCount(org: EmbeddedOrg): Promise<number> {
  return (await as(baseUrl, org)("/esign/documents")).json.data.totalRecords;
}

/** Sends a one-signer document and returns the reply (for its error code). */
const sendOne = (org: EmbeddedOrg, recipient: Record<string, unknown>, extra: Record<string, unknown> = {}) => prepareDoc(baseUrl, org, [recipient], extra);

/** Sends a document and returns a function asking a signing URL for each of its recipients by externalId. */
async function sent(org: EmbeddedOrg, recipients: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  const prep = await prepareDoc(baseUrl, org, recipients, extra);
  expect(prep.status, prep.text).toBe(200);
  const documentId: string = prep.json.data.documentId;
  return {
    documentId,
    url: (o: EmbeddedOrg, externalId: string, body: Record<string, unknown> = {}) => signingUrlOf(baseUrl, o, documentId, { externalId, ...body }),
  };
}

describe("identity codes when sending a document", () => {
  let org: EmbeddedOrg;
  beforeAll(async () => {
    org = await orgWith(server, full);
  });

  it("rejects each invalid or incomplete identityVerification block with its own 400 code, creating nothing", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [signer("Sam", { identityVerification: { mode: "otp", channel: "sms" } }), "OtpPhoneRequired"],
      [signer("Sam", { phone: "+1 555 010 0000", identityVerification: { mode: "otp", channel: "sms" } }), "OtpPhoneInvalid"],
      [signer("Sam", { phone: "4155552671", identityVerification: { mode: "otp", channel: "sms" } }), "OtpPhoneInvalid"],
      [signer("Sam", { identityVerification: { mode: "biometric" } }), "IdentityConfigInvalid"],
      [signer("Sam", { identityVerification: { mode: "otp", channel: "fax" } }), "IdentityConfigInvalid"],
      [signer("Sam", { identityVerification: "otp" }), "IdentityConfigInvalid"],
      [signer("Sam", { identityVerification: { mode: "external_idv", provider: "unregistered-idv" } }), "IdentityConfigInvalid"],
      [signer("Sam", { identityVerification: { mode: "external_idv", provider: "acme-idv", maxAgeMinutes: 2.5 } }), "IdentityConfigInvalid"],
      [signer("Sam", { identityVerification: { mode: "external_idv" } }), "IdvProviderRequired"],
      [signer("Sam", { identityVerification: { mode: "override", reason: "trust me" } }), "OverrideNotAcknowledged"],
      [signer("Sam", { identityVerification: { mode: "override", overrideIdentityVerification: "yes" } }), "OverrideNotAcknowledged"],
      [signer("Sam", { identityVerification: { mode: "otp", channel: "email", provider: "acme-idv" } }), "IdentityModeConflict"],
      [signer("Sam", { identityVerification: { ...ack, maxAgeMinutes: 5 } }), "IdentityModeConflict"],
    ];
    for (const [recipient, code] of cases) expectSigningError(await sendOne(org, recipient), 400, code);
    expectSigningError(
      await prepareDoc(baseUrl, org, [signer("Ann", { externalId: "crm-1" }), signer("Bob", { externalId: "crm-1" })]),
      400,
      "DuplicateExternalId",
    );
    expectSigningError(await sendOne(org, signer("Ann"), { returnUrl: "http://app.example.com/done" }), 400, "InvalidReturnUrl");
    expect(await documentCount(org)).toBe(0);
  });

  it("a User key gets a plain 403, a viewer too; a contributor may send", async () => {
    for (const role of ["user", "viewer"] as const) {
      const r = await prepareDoc(baseUrl, org, [signer("Ann")], {}, { role });
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: "Forbidden" });
    }
    expect(await documentCount(org)).toBe(0);
    expect((await sendOne(org, signer("Ann", { phone: PHONE, identityVerification: { mode: "otp", channel: "sms" } }))).status).toBe(200);
  });

  it("an organization without embedded signing refuses external_idv, override (EmbeddedSigningNotEnabled) and SMS (SmsOtpNotEnabled)", async () => {
    const off = await orgWith(server, {});
    expectSigningError(await sendOne(off, signer("Ida", { identityVerification: idv })), 403, "EmbeddedSigningNotEnabled");
    expectSigningError(await sendOne(off, signer("Ovi", { identityVerification: ack })), 403, "EmbeddedSigningNotEnabled");
    expectSigningError(await sendOne(off, signer("Sam", { phone: PHONE, identityVerification: { mode: "otp", channel: "sms" } })), 403, "SmsOtpNotEnabled");
    // Email passcodes need no embedded signing; signing URLs do.
    const ok = await sendOne(off, signer("Eve", { identityVerification: { mode: "otp", channel: "email" } }));
    expect(ok.status, ok.text).toBe(200);
    expectSigningError(
      await signingUrlOf(baseUrl, off, ok.json.data.documentId, { recipientId: ok.json.data.recipients[0].id }),
      403,
      "EmbeddedSigningNotEnabled",
    );
  });

  it("an organization that allows no modes refuses each (ExternalIdvNotAllowed, IdentityOverrideNotAllowed, SmsProviderNotConfigured)", async () => {
    const bare = await orgWith(server, { enabled: true });
    expectSigningError(await sendOne(bare, signer("Ida", { identityVerification: idv })), 403, "ExternalIdvNotAllowed");
    expectSigningError(await sendOne(bare, signer("Ovi", { identityVerification: ack })), 403, "IdentityOverrideNotAllowed");
    expectSigningError(
      await sendOne(bare, signer("Sam", { phone: PHONE, identityVerification: { mode: "otp", channel: "sms" } })),
      409,
      "SmsProviderNotConfigured",
    );
    expect(await documentCount(bare)).toBe(0);
  });

  it("a plan without passcodes refuses them with 402 OtpNotEntitled, also through the default; automated sends are exempt", async () => {
    const poor = await orgWith(server, { ...full, defaultChannel: "email" }, { emailOtp: false, smsOtp: false });
    expectSigningError(await sendOne(poor, signer("Eve", { identityVerification: { mode: "otp", channel: "email" } })), 402, "OtpNotEntitled");
    expectSigningError(await sendOne(poor, signer("Sam", { phone: PHONE, identityVerification: { mode: "otp", channel: "sms" } })), 402, "OtpNotEntitled");
    expectSigningError(await sendOne(poor, signer("Dee")), 402, "OtpNotEntitled");
    const automated = await sendOne(poor, signer("Dee", { externalId: "d" }), { automated: "true" });
    expect(automated.status, automated.text).toBe(200);
    const url = await signingUrlOf(baseUrl, poor, automated.json.data.documentId, { externalId: "d" });
    expect(url.json.data.results).toMatchObject({ identityVerificationMode: null, pendingChecks: [] });
  });
});

describe("the organization default channel", () => {
  it("none: no passcode unless asked; otp without a channel is email", async () => {
    const org = await orgWith(server, full);
    const doc = await sent(org, [
      signer("Dee", { externalId: "d" }),
      signer("Oto", { externalId: "o", identityVerification: { mode: "otp" } }),
      signer("Sms", { externalId: "s", phone: PHONE, identityVerification: { mode: "otp", channel: "sms" } }),
    ]);
    expect((await doc.url(org, "d")).json.data.results).toMatchObject({ identityVerificationMode: null, pendingChecks: [] });
    expect((await doc.url(org, "o")).json.data.results).toMatchObject({ identityVerificationMode: "otp", pendingChecks: ["email_otp"] });
    expect((await doc.url(org, "s")).json.data.results).toMatchObject({ identityVerificationMode: "otp", pendingChecks: ["sms_otp"] });
  });

  it("sms: applies to every recipient without a channel (who then needs a phone); a request may still choose email", async () => {
    const org = await orgWith(server, { ...full, defaultChannel: "sms" });
    expectSigningError(await sendOne(org, signer("Dee")), 400, "OtpPhoneRequired");
    expectSigningError(await sendOne(org, signer("Oto", { identityVerification: { mode: "otp" } })), 400, "OtpPhoneRequired");
    const doc = await sent(org, [
      signer("Dee", { externalId: "d", phone: PHONE }),
      signer("Oto", { externalId: "o", phone: PHONE, identityVerification: { mode: "otp" } }),
      signer("Eve", { externalId: "e", identityVerification: { mode: "otp", channel: "email" } }),
      signer("Ovi", { externalId: "v", identityVerification: ack }),
    ]);
    expect((await doc.url(org, "d")).json.data.results).toMatchObject({ identityVerificationMode: "otp", pendingChecks: ["sms_otp"] });
    expect((await doc.url(org, "o")).json.data.results).toMatchObject({ identityVerificationMode: "otp", pendingChecks: ["sms_otp"] });
    expect((await doc.url(org, "e")).json.data.results).toMatchObject({ identityVerificationMode: "otp", pendingChecks: ["email_otp"] });
    // override (and external_idv) skip the passcode whatever the default.
    expect((await doc.url(org, "v")).json.data.results).toMatchObject({ identityVerificationMode: "override", pendingChecks: [] });
  });

  it("locked email: the same channel or none succeeds, another fails with 403 OtpOverrideNotAllowed; automated sends skip the default", async () => {
    const org = await orgWith(server, { ...full, defaultChannel: "email", allowChannelOverride: false });
    expect((await as(baseUrl, org, "viewer")("/esign/embedded-signing-settings")).json.data.results).toMatchObject({
      defaultChannel: "email",
      allowChannelOverride: false,
    });
    expectSigningError(
      await sendOne(org, signer("Sam", { phone: PHONE, identityVerification: { mode: "otp", channel: "sms" } })),
      403,
      "OtpOverrideNotAllowed",
    );
    const doc = await sent(org, [
      signer("Dee", { externalId: "d" }),
      signer("Eve", { externalId: "e", identityVerification: { mode: "otp", channel: "email" } }),
      signer("Oto", { externalId: "o", identityVerification: { mode: "otp" } }),
      signer("Ovi", { externalId: "v", identityVerification: ack }),
    ]);
    for (const id of ["d", "e", "o"])
      expect((await doc.url(org, id)).json.data.results).toMatchObject({ identityVerificationMode: "otp", pendingChecks: ["email_otp"] });
    expect((await doc.url(org, "v")).json.data.results).toMatchObject({ identityVerificationMode: "override", pendingChecks: [] });

    const automated = await sent(org, [signer("Dee", { externalId: "d" }), signer("Eve", { externalId: "e", identityVerification: { mode: "otp" } })], {
      automated: "true",
    });
    expect((await automated.url(org, "d")).json.data.results).toMatchObject({ identityVerificationMode: null, pendingChecks: [] });
    expect((await automated.url(org, "e")).json.data.results).toMatchObject({ identityVerificationMode: "otp", pendingChecks: ["email_otp"] });
  });
});

describe("identity codes when issuing a signing URL or sending a reviewed draft (settings changed since)", () => {
  it("re-checks every recipient against the organization's current settings and plan", async () => {
    let org = await orgWith(server, full);
    const doc = await sent(org, [
      signer("Ovi", { externalId: "v", identityVerification: ack }),
      signer("Ida", { externalId: "i", identityVerification: idv }),
      signer("Sam", { externalId: "s", phone: PHONE, identityVerification: { mode: "otp", channel: "sms" } }),
      signer("Dee", { externalId: "d" }),
    ]);
    const draft = await prepareDoc(baseUrl, org, [signer("Ovi", { identityVerification: ack })], {}, { path: "/esign/single/prepare-for-review" });
    expect(draft.status, draft.text).toBe(200);
    expect(draft.json.data.status).toBe("draft");

    org = await reconfigure(server, org, { allowIdentityOverride: false, allowExternalIdv: false, sms: { provider: "none" } });
    expectSigningError(await doc.url(org, "v"), 403, "IdentityOverrideNotAllowed");
    expectSigningError(await doc.url(org, "i"), 403, "ExternalIdvNotAllowed");
    expectSigningError(await doc.url(org, "s"), 409, "SmsProviderNotConfigured");
    expect((await doc.url(org, "d")).status).toBe(200);
    expectSigningError(
      await as(baseUrl, org, "contributor")(`/esign/documents/${draft.json.data.documentId}/send`, { method: "POST" }),
      403,
      "IdentityOverrideNotAllowed",
    );
    expect((await as(baseUrl, org)(`/esign/documents/${draft.json.data.documentId}/status`)).json.data.status).toBe("draft");

    org = await reconfigure(server, org, { sms: { provider: "outbox" }, defaultChannel: "email", allowChannelOverride: false });
    expectSigningError(await doc.url(org, "s"), 403, "OtpOverrideNotAllowed");
    expect((await doc.url(org, "d")).json.data.results).toMatchObject({ identityVerificationMode: "otp", pendingChecks: ["email_otp"] });

    org = await reconfigure(server, org, {}, { emailOtp: false });
    expectSigningError(await doc.url(org, "d"), 402, "OtpNotEntitled");

    org = await reconfigure(server, org, { enabled: false });
    expectSigningError(await doc.url(org, "d"), 403, "EmbeddedSigningNotEnabled");
    expectSigningError(
      await as(baseUrl, org, "contributor")(`/esign/documents/${draft.json.data.documentId}/send`, { method: "POST" }),
      403,
      "EmbeddedSigningNotEnabled",
    );
  });
});

describe("external identity assertions", () => {
  let org: EmbeddedOrg;
  beforeAll(async () => {
    org = await orgWith(server, full);
  });

  const sign = (claims: Record<string, unknown>, secret = HS_SECRET, alg = "HS256") =>
    new SignJWT(claims).setProtectedHeader({ alg }).sign(new TextEncoder().encode(secret));

  it("checks signature, issuer, email, freshness and single use, in that order, each with its own code", async () => {
    const doc = await sent(org, [signer("Ida", { externalId: "i", identityVerification: { mode: "external_idv", provider: "acme-idv", maxAgeMinutes: 5 } })]);
    const now = Math.floor(Date.now() / 1000);
    const good = { iss: "acme-idv", email: "IDA@Example.com", iat: now - 30, jti: `jti-${now}-${Math.random()}` };
    const codeFor = async (identityAssertion?: string) => {
      const r = await doc.url(org, "i", identityAssertion === undefined ? {} : { identityAssertion });
      expect(r.status, r.text).toBe(400);
      expect(r.json.message).toBe(r.json.error);
      expect(r.json.type).toBe(r.json.code);
      return r.json.code;
    };
    expect(await codeFor()).toBe("IdentityAssertionRequired");
    expect(await codeFor("not-a-jws")).toBe("IdentityAssertionInvalid");
    expect(await codeFor(await sign(good, "a-different-secret-that-is-long-enough-000"))).toBe("IdentityAssertionInvalid");
    // The signature is checked first: a wrong key wins over every other fault.
    expect(await codeFor(await sign({ ...good, iss: "other", email: "x@example.com" }, "a-different-secret-that-is-long-enough-000"))).toBe(
      "IdentityAssertionInvalid",
    );
    expect(await codeFor(await sign({ ...good, iss: "other", email: "x@example.com", iat: now - 3600 }))).toBe("IdentityProviderMismatch");
    expect(await codeFor(await sign({ ...good, email: "x@example.com", iat: now - 3600 }))).toBe("IdentityEmailMismatch");
    expect(await codeFor(await sign({ ...good, iat: now - 6 * 60 }))).toBe("IdentityAssertionStale");
    expect(await codeFor(await sign({ ...good, iat: undefined }))).toBe("IdentityAssertionStale");
    const ok = await doc.url(org, "i", { identityAssertion: await sign(good), returnUrl: "https://app.example.com/back" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.data.results).toMatchObject({ externalId: "i", identityVerificationMode: "external_idv", pendingChecks: [] });
    expect(await codeFor(await sign(good))).toBe("IdentityAssertionReused");
    // A fresh jti works again.
    expect((await doc.url(org, "i", { identityAssertion: await sign({ ...good, jti: `${good.jti}-2` }) })).status).toBe(200);
  });

  it("an assertion is not needed (nor looked at) for other modes, and the deprecated link refuses external_idv signers", async () => {
    const doc = await sent(org, [signer("Ida", { externalId: "i", identityVerification: idv }), signer("Dee", { externalId: "d" })]);
    expect((await doc.url(org, "d", { identityAssertion: "ignored" })).status).toBe(200);
    const ida = (await as(baseUrl, org)(`/esign/documents/${doc.documentId}`)).json.data.recipients.find((r: { externalId: string }) => r.externalId === "i");
    const link = await as(baseUrl, org, "contributor")(`/esign/documents/${doc.documentId}/recipients/${ida.id}/signing-link`);
    expectSigningError(link, 409, "RecipientRequiresSingleUseUrl");
    expect(link.headers.get("deprecation")).toBe("true");
  });
});

describe("embedded signing settings", () => {
  it("answers only 401 as an error: no key, a bad key, or an organization id that is not the key's", async () => {
    const org = await orgWith(server, {
      ...full,
      defaultChannel: "sms",
      allowChannelOverride: false,
      allowedFrameAncestors: ["https://app.example.com", "https://crm.example.org"],
    });
    for (const role of ["administrator", "contributor", "user", "viewer"] as const) {
      const r = await as(baseUrl, org, role)("/esign/embedded-signing-settings");
      expect(r.status).toBe(200);
      expect(r.json).toEqual({
        data: {
          results: {
            enabled: true,
            allowExternalIdv: true,
            allowIdentityOverride: true,
            defaultChannel: "sms",
            allowChannelOverride: false,
            allowedFrameAncestors: ["https://app.example.com", "https://crm.example.org"],
          },
        },
      });
    }
    expect((await call(baseUrl, "/esign/embedded-signing-settings")).status).toBe(401);
    expect((await call(baseUrl, "/esign/embedded-signing-settings", { headers: { authorization: "Bearer nope", "x-service-org-id": org.orgId } })).status).toBe(
      401,
    );
    expect(
      (
        await call(baseUrl, "/esign/embedded-signing-settings", {
          headers: { authorization: `Bearer ${org.keys.viewer}`, "x-service-org-id": server.other.orgId },
        })
      ).status,
    ).toBe(401);
    // Embedded signing off: the override flag reads true (it cannot apply).
    const off = await orgWith(server, { defaultChannel: "email", allowChannelOverride: false });
    expect((await as(baseUrl, off)("/esign/embedded-signing-settings")).json.data.results).toMatchObject({
      enabled: false,
      defaultChannel: "email",
      allowChannelOverride: true,
    });
  });
});

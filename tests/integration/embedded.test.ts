// Embedded signing over HTTP: settings, signing URLs (reusable and single-use), passcodes,
// external identity assertions, framing, and the deprecated signing-link endpoint.
import { SignJWT } from "jose";
import { describe, expect, inject, it } from "vitest";
import { as, call } from "../support/helpers";
import { HS_SECRET, latestMailTo, orgWith, passcodeApi, prepareDoc, tokenOfUrl } from "../support/embedded";

const server = inject("quire");
const { baseUrl } = server;

const enabled = {
  enabled: true,
  allowExternalIdv: true,
  allowIdentityOverride: true,
  allowedFrameAncestors: ["https://app.example.com"],
  sms: { provider: "outbox" },
};

async function assertion(claims: Record<string, unknown>, secret = HS_SECRET) {
  return new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(secret));
}

describe("embedded signing settings", () => {
  it("reads the organization's settings with any key; 401 without one", async () => {
    const org = await orgWith(server, { ...enabled, defaultChannel: "email", allowChannelOverride: false });
    const r = await as(baseUrl, org, "viewer")("/esign/embedded-signing-settings");
    expect(r.status).toBe(200);
    expect(r.json.data.results).toEqual({
      enabled: true,
      allowExternalIdv: true,
      allowIdentityOverride: true,
      defaultChannel: "email",
      allowChannelOverride: false,
      allowedFrameAncestors: ["https://app.example.com"],
    });
    const fresh = await orgWith(server, {});
    expect((await as(baseUrl, fresh)("/esign/embedded-signing-settings")).json.data.results).toEqual({
      enabled: false,
      allowExternalIdv: false,
      allowIdentityOverride: false,
      defaultChannel: "none",
      allowChannelOverride: true,
      allowedFrameAncestors: [],
    });
    expect((await call(baseUrl, "/esign/embedded-signing-settings")).status).toBe(401);
  });
});

describe("signing URLs", () => {
  it("gives a reusable link for a signer without verification, and the page may be framed only by allowed origins", async () => {
    const org = await orgWith(server, enabled);
    const prep = await prepareDoc(baseUrl, org, [{ name: "Ada", email: "ada@example.com", externalId: "crm-1" }]);
    expect(prep.status).toBe(200);
    expect(prep.json.data.message).toMatch(/signing URL/);
    const documentId = prep.json.data.documentId;
    const r = await as(
      baseUrl,
      org,
      "contributor",
    )(`/esign/documents/${documentId}/signing-url`, { method: "POST", body: { externalId: "crm-1", returnUrl: "https://app.example.com/done" } });
    expect(r.status).toBe(200);
    const result = r.json.data.results;
    expect(result).toMatchObject({
      recipientId: prep.json.data.recipients[0].id,
      externalId: "crm-1",
      identityVerificationMode: null,
      pendingChecks: [],
      expiresAt: null,
    });
    expect(result.url).toMatch(/\/sign\/open\?token=[A-Za-z0-9_-]+$/);
    expect(result.url).not.toContain("returnUrl");
    const again = await as(
      baseUrl,
      org,
      "contributor",
    )(`/esign/documents/${documentId}/signing-url`, { method: "POST", body: { recipientId: result.recipientId } });
    expect(again.json.data.results.url).toBe(result.url);

    const open = await call(baseUrl, new URL(result.url).pathname + new URL(result.url).search);
    expect(open.status).toBe(303);
    const page = await fetch(new URL(open.headers.get("location")!, baseUrl));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe("frame-ancestors https://app.example.com");
    const reopened = await fetch(new URL(open.headers.get("location")!, baseUrl));
    expect(reopened.status).toBe(200);

    const noFraming = await orgWith(server, { enabled: true });
    const p2 = await prepareDoc(baseUrl, noFraming, [{ name: "Bo", email: "bo@example.com" }]);
    const u2 = await as(
      baseUrl,
      noFraming,
      "contributor",
    )(`/esign/documents/${p2.json.data.documentId}/signing-url`, { method: "POST", body: { recipientId: p2.json.data.recipients[0].id } });
    const page2 = await fetch(`${baseUrl}/sign/${tokenOfUrl(u2.json.data.results.url)}`);
    expect(page2.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
  });

  it("an email passcode guards the link: send, wrong code, right code, then sign with the session", async () => {
    const org = await orgWith(server, enabled);
    const prep = await prepareDoc(baseUrl, org, [{ name: "Ada", email: "ada.otp@example.com", identityVerification: { mode: "otp", channel: "email" } }]);
    expect(prep.status).toBe(200);
    const recipientId = prep.json.data.recipients[0].id;
    const r = await as(baseUrl, org, "contributor")(`/esign/documents/${prep.json.data.documentId}/signing-url`, { method: "POST", body: { recipientId } });
    expect(r.json.data.results).toMatchObject({ identityVerificationMode: "otp", pendingChecks: ["email_otp"] });
    const token = tokenOfUrl(r.json.data.results.url);

    const before = await call(baseUrl, `/api/signer/${token}`);
    expect(before.json.data.state).toBe("verification_required");
    expect(before.json.data.fields).toEqual([]);
    expect((await call(baseUrl, `/api/signer/${token}/pdf`)).status).toBe(401);
    expect((await call(baseUrl, `/api/signer/${token}/sign`, { method: "POST", body: { values: {} } })).json).toEqual({
      error: "Enter the passcode we sent you first",
      code: "verification_required",
    });

    const otp = passcodeApi(baseUrl, token);
    const sent = await otp.send();
    expect(sent.status).toBe(200);
    expect(sent.json.data).toMatchObject({ channel: "email", destination: "ad•••••@example.com", retryAfterSeconds: 30 });
    const mail = await latestMailTo(baseUrl, org, "ada.otp@example.com", "signing_passcode");
    const code = /\b(\d{6})\b/.exec(mail!.text)![1];
    const wrong = await otp.verify(code === "000000" ? "111111" : "000000");
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: "That code is not right; 4 attempt(s) left for this code", code: "wrong_passcode" });
    const right = await otp.verify(code);
    expect(right.status).toBe(200);
    const session = right.json.data.session as string;

    const opened = await call(baseUrl, `/api/signer/${token}`, { headers: { "x-signer-session": session } });
    expect(opened.json.data.state).toBe("ready");
    const field = opened.json.data.fields[0];
    const png = await fetch(`${baseUrl}/api/signer/${token}/page/1?s=${session}`);
    expect(png.headers.get("content-type")).toBe("image/png");
    const signed = await call(baseUrl, `/api/signer/${token}/sign`, {
      method: "POST",
      headers: { "x-signer-session": session },
      body: { values: { [field.id]: "agreed" } },
    });
    expect(signed.status).toBe(200);
    expect(signed.json.data.status).toBe("completed");
  });

  it("override: a single-use link that exactly one of 50 concurrent opens redeems", async () => {
    const org = await orgWith(server, enabled);
    const prep = await prepareDoc(baseUrl, org, [
      { name: "Ovi", email: "ovi@example.com", identityVerification: { mode: "override", overrideIdentityVerification: true, reason: "verified in branch" } },
    ]);
    expect(prep.status).toBe(200);
    const r = await as(
      baseUrl,
      org,
      "contributor",
    )(`/esign/documents/${prep.json.data.documentId}/signing-url`, { method: "POST", body: { recipientId: prep.json.data.recipients[0].id } });
    expect(r.json.data.results).toMatchObject({ identityVerificationMode: "override", pendingChecks: [] });
    const expiresIn = new Date(r.json.data.results.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(4 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(5 * 60_000 + 5_000);
    const path = new URL(r.json.data.results.url).pathname + new URL(r.json.data.results.url).search;
    const opens = await Promise.all(Array.from({ length: 50 }, () => call(baseUrl, path)));
    expect(opens.filter((o) => o.status === 303)).toHaveLength(1);
    expect(opens.filter((o) => o.status === 410)).toHaveLength(49);
    const winner = opens.find((o) => o.status === 303)!;
    const session = /#s=([A-Za-z0-9_-]+)$/.exec(winner.headers.get("location")!)![1];
    const token = tokenOfUrl(r.json.data.results.url);
    expect((await call(baseUrl, `/api/signer/${token}`, { headers: { "x-signer-session": session } })).json.data.state).toBe("ready");
    // The reusable link of an override signer opens nothing.
    const emailedLike = await call(baseUrl, `/api/signer/${token}`);
    expect(emailedLike.json.data.state).toBe("verification_required");
  });

  it("external_idv: the assertion is checked for signature, issuer, email, age and single use", async () => {
    const org = await orgWith(server, enabled);
    const prep = await prepareDoc(baseUrl, org, [
      { name: "Ida", email: "ida@example.com", identityVerification: { mode: "external_idv", provider: "acme-idv", maxAgeMinutes: 15 } },
    ]);
    expect(prep.status).toBe(200);
    const url = (body: Record<string, unknown>) =>
      as(
        baseUrl,
        org,
        "contributor",
      )(`/esign/documents/${prep.json.data.documentId}/signing-url`, { method: "POST", body: { recipientId: prep.json.data.recipients[0].id, ...body } });
    const now = Math.floor(Date.now() / 1000);
    const good = { iss: "acme-idv", email: "IDA@example.com", iat: now - 60, jti: `j-${now}` };
    const codeOf = async (body: Record<string, unknown>) => (await url(body)).json.code;
    expect(await codeOf({})).toBe("IdentityAssertionRequired");
    expect(await codeOf({ identityAssertion: await assertion(good, "another-secret-that-is-long-enough-000000") })).toBe("IdentityAssertionInvalid");
    expect(await codeOf({ identityAssertion: await assertion({ ...good, iss: "other-idv" }) })).toBe("IdentityProviderMismatch");
    expect(await codeOf({ identityAssertion: await assertion({ ...good, email: "eve@example.com" }) })).toBe("IdentityEmailMismatch");
    expect(await codeOf({ identityAssertion: await assertion({ ...good, iat: now - 16 * 60 }) })).toBe("IdentityAssertionStale");
    const ok = await url({ identityAssertion: await assertion(good) });
    expect(ok.status).toBe(200);
    expect(ok.json.data.results).toMatchObject({ identityVerificationMode: "external_idv", pendingChecks: [] });
    const reused = await url({ identityAssertion: await assertion(good) });
    expect(reused.status).toBe(400);
    expect(reused.json).toEqual({ message: reused.json.message, type: "IdentityAssertionReused", error: reused.json.message, code: "IdentityAssertionReused" });
  });

  it("the deprecated signing-link endpoint works with Deprecation and Link headers, and refuses single-use recipients", async () => {
    const org = await orgWith(server, enabled);
    const prep = await prepareDoc(baseUrl, org, [
      { name: "Ada", email: "ada@example.com", signingOrder: 1 },
      { name: "Ovi", email: "ovi@example.com", signingOrder: 1, identityVerification: { mode: "override", overrideIdentityVerification: true } },
    ]);
    const [ada, ovi] = prep.json.data.recipients;
    const r = await as(baseUrl, org, "contributor")(`/esign/documents/${prep.json.data.documentId}/recipients/${ada.id}/signing-link`);
    expect(r.status).toBe(200);
    expect(r.headers.get("deprecation")).toBe("true");
    expect(r.headers.get("link")).toBe(`<${baseUrl}/esign/documents/${prep.json.data.documentId}/signing-url>; rel="successor-version"`);
    expect(r.json.data.results.url).toMatch(/\/sign\/open\?token=/);
    const refused = await as(baseUrl, org, "contributor")(`/esign/documents/${prep.json.data.documentId}/recipients/${ovi.id}/signing-link`);
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe("RecipientRequiresSingleUseUrl");
    expect(refused.headers.get("deprecation")).toBe("true");
  });
});

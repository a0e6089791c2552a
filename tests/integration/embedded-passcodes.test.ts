// Passcodes on the signing page (docs/contract.md "Passcodes"): six digits valid 10 minutes, one new code
// per 30 s and five per hour, five wrong entries per code, lockout at exactly 20 wrong (423 on send
// and verify), sender alerts at 5 and at lockout (none without a sender email), resend-email
// lifting the lock, the Twilio-compatible SMS adapter against a local HTTP server, and the plan's
// SMS allowance. The service clock is moved with setClock and reset after each test.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { as } from "../support/helpers";
import { latestMailTo, mailedCode, mailsOf, orgWith, passcodeApi, prepareDoc, setClock, signingUrlOf, tokenOfUrl, type EmbeddedOrg } from "../support/embedded";
import { expectSignerError, expectSigningError } from "../support/embedded-expect";

const server = inject("quire");
const { baseUrl } = server;

const full = { enabled: true, allowExternalIdv: true, allowIdentityOverride: true, sms: { provider: "outbox" } };
const PHONE = "+14155552671";
const SECOND = 1000;

let org: EmbeddedOrg;
beforeAll(async () => {
  org = await orgWith(server, full);
});
afterEach(async () => {
  await setClock(server, 0);
});

/** An email-passcode signer's link on a fresh document of `o`; returns the passcode API and ids. */
async function otpSigner(o: EmbeddedOrg, email: string, extra: Record<string, unknown> = {}, recipient: Record<string, unknown> = {}) {
  const prep = await prepareDoc(baseUrl, o, [{ name: "Pat Signer", email, identityVerification: { mode: "otp", channel: "email" }, ...recipient }], extra);
  expect(prep.status, prep.text).toBe(200);
  const documentId: string = prep.json.data.documentId;
  const recipientId: string = prep.json.data.recipients[0].id;
  const r = await signingUrlOf(baseUrl, o, documentId, { recipientId });
  expect(r.status, r.text).toBe(200);
  const token = tokenOfUrl(r.json.data.results.url);
  return { documentId, recipientId, token, otp: passcodeApi(baseUrl, token) };
}

/** A code that is surely wrong for the mailed one. */
const wrongFor = (code: string) => (code === "000000" ? "111111" : "000000");

describe("passcode codes and limits", () => {
  it("sends six digits valid for 10 minutes; a correct code after 10 minutes is expired", async () => {
    const s = await otpSigner(org, "expiry@example.com");
    const sent = await s.otp.send();
    expect(sent.status, sent.text).toBe(200);
    expect(new Date(sent.json.data.expiresAt).getTime() - Date.now()).toBeGreaterThan(9.5 * 60_000);
    expect(new Date(sent.json.data.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    const code = await mailedCode(baseUrl, org, "expiry@example.com");
    expect(code).toMatch(/^\d{6}$/);
    await setClock(server, 10 * 60_000 + SECOND);
    expectSignerError(await s.otp.verify(code), 400, "passcode_expired");

    // Just inside the ten minutes, a fresh code works.
    await s.otp.send();
    const fresh = await mailedCode(baseUrl, org, "expiry@example.com");
    await setClock(server, 20 * 60_000 - SECOND);
    const ok = await s.otp.verify(fresh);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.data.session).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it("allows one new code per 30 seconds and five per hour", async () => {
    const s = await otpSigner(org, "limits@example.com");
    expect((await s.otp.send()).status).toBe(200);
    expectSignerError(await s.otp.send(), 429, "too_soon");
    await setClock(server, 29 * SECOND);
    expectSignerError(await s.otp.send(), 429, "too_soon");
    for (let i = 1; i <= 4; i++) {
      await setClock(server, i * 31 * SECOND);
      expect((await s.otp.send()).status).toBe(200);
    }
    await setClock(server, 5 * 31 * SECOND);
    expectSignerError(await s.otp.send(), 429, "hourly_limit");
    await setClock(server, 50 * 60 * SECOND);
    expectSignerError(await s.otp.send(), 429, "hourly_limit");
    // An hour after the first code, one slot is free again.
    await setClock(server, 3600 * SECOND + SECOND);
    expect((await s.otp.send()).status).toBe(200);
    expectSignerError(await s.otp.send(), 429, "too_soon");
    expect((await mailsOf(baseUrl, org, "signing_passcode")).filter((m) => m.to === "limits@example.com")).toHaveLength(6);
  });

  it("a code takes five wrong entries, then even the right one is refused until a new code is sent; an older code stops working", async () => {
    const s = await otpSigner(org, "five@example.com");
    await s.otp.send();
    const code = await mailedCode(baseUrl, org, "five@example.com");
    for (let left = 4; left >= 0; left--) {
      const r = await s.otp.verify(wrongFor(code));
      expectSignerError(r, 400, "wrong_passcode");
      expect(r.json.error).toContain(left > 0 ? `${left} attempt(s) left` : "ask for a new one");
    }
    expectSignerError(await s.otp.verify(code), 400, "passcode_spent");
    await setClock(server, 31 * SECOND);
    await s.otp.send();
    const next = await mailedCode(baseUrl, org, "five@example.com");
    if (next !== code) expectSignerError(await s.otp.verify(code), 400, "wrong_passcode");
    expect((await s.otp.verify(next)).status).toBe(200);
    // A used code cannot be used again.
    expectSignerError(await s.otp.verify(next), 400, "no_passcode");
  });

  it("concurrent wrong entries on one code count one by one: never more than five", async () => {
    const s = await otpSigner(org, "burst@example.com");
    await s.otp.send();
    const code = await mailedCode(baseUrl, org, "burst@example.com");
    const replies = await Promise.all(Array.from({ length: 12 }, () => s.otp.verify(wrongFor(code))));
    expect(replies.filter((r) => r.json.code === "wrong_passcode")).toHaveLength(5);
    expect(replies.filter((r) => r.json.code === "passcode_spent")).toHaveLength(7);
    expectSignerError(await s.otp.verify(code), 400, "passcode_spent");
  });
});

describe("lockout", () => {
  it("locks at exactly 20 wrong entries across codes (423 on send and verify), alerts the sender at 5 and at 20, and resend-email unlocks and emails the signer", async () => {
    const s = await otpSigner(org, "lock@example.com", { senderEmail: "alerts@example.com" });
    let wrong = 0;
    for (let round = 0; round < 4; round++) {
      await setClock(server, round * 31 * SECOND);
      expect((await s.otp.send()).status).toBe(200);
      const code = await mailedCode(baseUrl, org, "lock@example.com");
      for (let i = 0; i < 5; i++) {
        wrong++;
        const r = await s.otp.verify(wrongFor(code));
        if (wrong < 20) expectSignerError(r, 400, "wrong_passcode");
        else expectSignerError(r, 423, "locked");
        if (wrong === 5 || wrong === 19) {
          const alerts = (await mailsOf(baseUrl, org)).filter((m) => m.to === "alerts@example.com");
          expect(alerts.map((m) => m.kind)).toEqual(["passcode_alert"]);
          expect(alerts[0].text).toContain("5 wrong passcodes");
        }
      }
    }
    const alerts = (await mailsOf(baseUrl, org)).filter((m) => m.to === "alerts@example.com");
    expect(alerts.map((m) => m.kind)).toEqual(["passcode_lockout_alert", "passcode_alert"]);
    expect(alerts[0].text).toContain("20 wrong passcodes");

    await setClock(server, 10 * 60 * SECOND);
    expectSignerError(await s.otp.send(), 423, "locked");
    expectSignerError(await s.otp.verify("123456"), 423, "locked");
    expect((await mailsOf(baseUrl, org)).filter((m) => m.to === "alerts@example.com")).toHaveLength(2);

    // The document went out with sendEmail false; an explicit resend still emails the signer and lifts the lock.
    expect(await latestMailTo(baseUrl, org, "lock@example.com", "signing_request")).toBeUndefined();
    const resent = await as(
      baseUrl,
      org,
      "contributor",
    )(`/esign/documents/${s.documentId}/resend-email`, { method: "POST", body: { recipientIds: [s.recipientId] } });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.json.data).toEqual({ success: true, recipientCount: 1 });
    expect(await latestMailTo(baseUrl, org, "lock@example.com", "signing_request")).toBeTruthy();
    expect((await s.otp.send()).status).toBe(200);
    const code = await mailedCode(baseUrl, org, "lock@example.com");
    // The count starts again: one wrong entry does not lock.
    expectSignerError(await s.otp.verify(wrongFor(code)), 400, "wrong_passcode");
    expect((await s.otp.verify(code)).status).toBe(200);
  });

  it("sends no alert when the document has no sender email", async () => {
    const s = await otpSigner(org, "quiet@example.com", { senderEmail: null });
    for (let round = 0; round < 4; round++) {
      await setClock(server, round * 31 * SECOND);
      await s.otp.send();
      const code = await mailedCode(baseUrl, org, "quiet@example.com");
      for (let i = 0; i < 5; i++) await s.otp.verify(wrongFor(code));
    }
    expectSignerError(await s.otp.send(), 423, "locked");
    const mails = (await mailsOf(baseUrl, org)).filter((m) => m.documentId === s.documentId);
    expect(mails.filter((m) => m.kind.includes("alert"))).toEqual([]);
  });

  it("resend-email answers 409 DocumentNotSignable for a voided document and 404 RecipientNotFound for a stranger", async () => {
    const s = await otpSigner(org, "resend@example.com");
    expectSigningError(
      await as(
        baseUrl,
        org,
        "contributor",
      )(`/esign/documents/${s.documentId}/resend-email`, { method: "POST", body: { recipientIds: ["00000000-0000-4000-8000-000000000000"] } }),
      404,
      "RecipientNotFound",
    );
    await as(baseUrl, org, "contributor")(`/esign/documents/${s.documentId}/void`, { method: "POST", body: { reason: "replaced" } });
    expectSigningError(
      await as(baseUrl, org, "contributor")(`/esign/documents/${s.documentId}/resend-email`, { method: "POST", body: {} }),
      409,
      "DocumentNotSignable",
    );
  });
});

interface Received {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: URLSearchParams;
}

describe("SMS through a Twilio-compatible provider", () => {
  let sms: http.Server;
  let smsBase: string;
  const received: Received[] = [];
  let failNext = false;

  beforeAll(async () => {
    sms = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push({
          method: req.method!,
          path: req.url!,
          authorization: req.headers.authorization,
          contentType: req.headers["content-type"],
          form: new URLSearchParams(body),
        });
        if (failNext) {
          failNext = false;
          res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ message: "provider down" }));
          return;
        }
        res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ sid: `SM${received.length}`, status: "queued" }));
      });
    });
    await new Promise<void>((r) => sms.listen(0, "127.0.0.1", r));
    smsBase = `http://127.0.0.1:${(sms.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => sms.close(r));
  });

  it("posts To, From and Body with basic auth to /2010-04-01/Accounts/{sid}/Messages.json; the code verifies; a provider failure costs no limit", async () => {
    const o = await orgWith(server, {
      ...full,
      defaultChannel: "sms",
      sms: { provider: "twilio", apiBaseUrl: smsBase, accountSid: "AC0123456789abcdef", from: "+15005550006", authToken: "tw-secret-token" },
    });
    const prep = await prepareDoc(baseUrl, o, [{ name: "Sid Signer", email: "sid@example.com", phone: "+1 415 555 2671" }]);
    expect(prep.status, prep.text).toBe(200);
    const r = await signingUrlOf(baseUrl, o, prep.json.data.documentId, { recipientId: prep.json.data.recipients[0].id });
    expect(r.json.data.results).toMatchObject({ identityVerificationMode: "otp", pendingChecks: ["sms_otp"] });
    const otp = passcodeApi(baseUrl, tokenOfUrl(r.json.data.results.url));

    const sent = await otp.send();
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json.data).toMatchObject({ channel: "sms", destination: expect.stringMatching(/2671$/) });
    expect(received).toHaveLength(1);
    const msg = received[0];
    expect(msg.method).toBe("POST");
    expect(msg.path).toBe("/2010-04-01/Accounts/AC0123456789abcdef/Messages.json");
    expect(msg.authorization).toBe(`Basic ${Buffer.from("AC0123456789abcdef:tw-secret-token").toString("base64")}`);
    expect(msg.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect([...msg.form.keys()].sort()).toEqual(["Body", "From", "To"]);
    expect(msg.form.get("To")).toBe("+14155552671");
    expect(msg.form.get("From")).toBe("+15005550006");
    const code = /\b(\d{6})\b/.exec(msg.form.get("Body")!)![1];
    expect(msg.form.get("Body")).toContain("10 minutes");
    const ok = await otp.verify(code);
    expect(ok.status, ok.text).toBe(200);

    // The provider answers 500: the signer is told, and may try again at once (no code was spent).
    await setClock(server, 31 * SECOND);
    failNext = true;
    expectSignerError(await otp.send(), 503, "passcode_not_sent");
    expect(received).toHaveLength(2);
    expect((await otp.send()).status).toBe(200);
    expect(received).toHaveLength(3);
  });

  it("counts SMS codes against the plan's allowance: 402 SmsOtpLimitExceeded when sending, issuing URLs and on the signing page", async () => {
    const o = await orgWith(server, full, { smsAllowance: 1 });
    const smsSigner = { name: "Sid", email: "sid@example.com", phone: PHONE, identityVerification: { mode: "otp", channel: "sms" } };
    const prep = await prepareDoc(baseUrl, o, [smsSigner]);
    expect(prep.status, prep.text).toBe(200);
    const url = () => signingUrlOf(baseUrl, o, prep.json.data.documentId, { recipientId: prep.json.data.recipients[0].id });
    const otp = passcodeApi(baseUrl, tokenOfUrl((await url()).json.data.results.url));
    expect((await otp.send()).status).toBe(200);
    const outboxSms = await mailsOf(baseUrl, o, "sms_passcode");
    expect(outboxSms.map((m) => m.to)).toEqual([PHONE]);

    expectSigningError(await url(), 402, "SmsOtpLimitExceeded");
    expectSigningError(await prepareDoc(baseUrl, o, [smsSigner]), 402, "SmsOtpLimitExceeded");
    await setClock(server, 31 * SECOND);
    expectSignerError(await otp.send(), 402, "sms_otp_limit_exceeded");
    // Email passcodes are not part of the SMS allowance.
    expect((await prepareDoc(baseUrl, o, [{ name: "Eve", email: "eve@example.com", identityVerification: { mode: "otp", channel: "email" } }])).status).toBe(
      200,
    );

    const none = await orgWith(server, full, { smsAllowance: 0 });
    expectSigningError(await prepareDoc(baseUrl, none, [smsSigner]), 402, "SmsOtpLimitExceeded");
  });
});

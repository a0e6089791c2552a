// verifyWebhookSignature of the TypeScript SDK (lib/sdk/webhooks.ts), checked against signatures
// made here with node:crypto exactly as docs/contract.md "Webhooks" describes them (and as lib/webhooks/delivery.ts
// signs): t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  constructWebhookEvent,
  parseSignatureHeader,
  signWebhookPayload,
  verifyWebhookSignature,
  type WebhookEventBodies,
  type WebhookEventBody,
  WebhookSignatureError,
} from "../../lib/sdk/index";
import { signatureHeader } from "@/lib/webhooks/delivery";

const SECRET = `whsec_${crypto.randomBytes(32).toString("base64url")}`;
const BODY = JSON.stringify({
  id: crypto.randomUUID(),
  event: "signature.document.completed",
  createdOn: new Date().toISOString(),
  orgId: crypto.randomUUID(),
  data: { name: "Café agreement ✓" },
});

function header(body: string | Uint8Array, secret = SECRET, t = Math.floor(Date.now() / 1000)): string {
  const mac = crypto.createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex");
  return `t=${t},v1=${mac}`;
}

describe("verifyWebhookSignature", () => {
  it("accepts a valid signature over the raw body", () => {
    expect(verifyWebhookSignature(BODY, header(BODY), SECRET)).toBe(true);
  });

  it("accepts the header the Quire server itself produces", () => {
    const t = Math.floor(Date.now() / 1000);
    expect(verifyWebhookSignature(BODY, signatureHeader(SECRET, t, BODY), SECRET)).toBe(true);
    expect(signWebhookPayload(BODY, SECRET, t)).toBe(signatureHeader(SECRET, t, BODY));
  });

  it("rejects a tampered body, including re-serialized JSON of the same object", () => {
    const h = header(BODY);
    expect(verifyWebhookSignature(BODY.replace("Café", "Cafe"), h, SECRET)).toBe(false);
    expect(verifyWebhookSignature(`${BODY} `, h, SECRET)).toBe(false);
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(BODY), null, 2), h, SECRET)).toBe(false);
  });

  it("rejects a wrong secret", () => {
    expect(verifyWebhookSignature(BODY, header(BODY), `${SECRET}x`)).toBe(false);
    expect(verifyWebhookSignature(BODY, header(BODY, "whsec_other"), SECRET)).toBe(false);
  });

  it("rejects stale and far-future timestamps; toleranceSeconds widens or narrows the window", () => {
    const now = Math.floor(Date.now() / 1000);
    const old = header(BODY, SECRET, now - 301);
    expect(verifyWebhookSignature(BODY, old, SECRET)).toBe(false);
    expect(verifyWebhookSignature(BODY, old, SECRET, { toleranceSeconds: 600 })).toBe(true);
    expect(verifyWebhookSignature(BODY, header(BODY, SECRET, now - 290), SECRET)).toBe(true);
    expect(verifyWebhookSignature(BODY, header(BODY, SECRET, now - 60), SECRET, { toleranceSeconds: 30 })).toBe(false);
    expect(verifyWebhookSignature(BODY, header(BODY, SECRET, now + 3600), SECRET)).toBe(false);
    // A fixed clock.
    const t = 1_700_000_000;
    expect(verifyWebhookSignature(BODY, header(BODY, SECRET, t), SECRET, { now: t + 299 })).toBe(true);
    expect(verifyWebhookSignature(BODY, header(BODY, SECRET, t), SECRET, { now: new Date((t + 301) * 1000) })).toBe(false);
  });

  it("rejects malformed headers without throwing", () => {
    const good = header(BODY);
    const [tPart, vPart] = good.split(",");
    for (const bad of [
      "",
      null,
      undefined,
      "garbage",
      vPart, // no timestamp
      tPart, // no signature
      `${tPart},v1=zz${vPart.slice(5)}`, // not hex
      `${tPart},v1=${vPart.slice(3, 40)}`, // too short
      `t=abc,${vPart}`,
      `${tPart},${tPart},${vPart}`, // two timestamps
      `${tPart};${vPart}`,
      `${tPart},v0=${vPart.slice(3)}`, // other scheme only
    ]) {
      expect(verifyWebhookSignature(BODY, bad as string, SECRET), String(bad)).toBe(false);
    }
    expect(parseSignatureHeader(good)).toEqual({ timestamp: Number(tPart.slice(2)), signatures: [vPart.slice(3)] });
    // Spaces after commas and an upper-case digest are tolerated; extra schemes are ignored.
    expect(verifyWebhookSignature(BODY, `${tPart}, v1=${vPart.slice(3).toUpperCase()}, v2=abc`, SECRET)).toBe(true);
  });

  it("accepts any of several v1 signatures (secret rotation)", () => {
    const t = Math.floor(Date.now() / 1000);
    const mine = header(BODY, SECRET, t).split(",")[1];
    const other = header(BODY, "whsec_old", t).split(",")[1];
    expect(verifyWebhookSignature(BODY, `t=${t},${other},${mine}`, SECRET)).toBe(true);
    expect(verifyWebhookSignature(BODY, `t=${t},${other}`, SECRET)).toBe(false);
  });

  it("verifies a Uint8Array (and Buffer) body byte for byte", () => {
    const bytes = new TextEncoder().encode(BODY);
    const h = header(BODY);
    expect(verifyWebhookSignature(bytes, h, SECRET)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(BODY, "utf8"), h, SECRET)).toBe(true);
    const tampered = bytes.slice();
    tampered[10] ^= 1;
    expect(verifyWebhookSignature(tampered, h, SECRET)).toBe(false);
    // Bytes that are not valid UTF-8 are signed as bytes, not as decoded text.
    const raw = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]);
    expect(verifyWebhookSignature(raw, header(raw), SECRET)).toBe(true);
    expect(verifyWebhookSignature(new TextDecoder().decode(raw), header(raw), SECRET)).toBe(false);
  });

  it("refuses parsed JSON and an empty secret instead of silently failing", () => {
    expect(() => verifyWebhookSignature(JSON.parse(BODY), header(BODY), SECRET)).toThrow(TypeError);
    expect(() => verifyWebhookSignature(BODY, header(BODY), "")).toThrow(TypeError);
  });

  it("constructWebhookEvent verifies, then parses", () => {
    expect(constructWebhookEvent(BODY, header(BODY), SECRET)).toEqual(JSON.parse(BODY));
    expect(() => constructWebhookEvent(BODY, header(BODY, "whsec_other"), SECRET)).toThrow(WebhookSignatureError);
  });
});

describe("verifyStandardWebhook", () => {
  it("accepts what the standardwebhooks library signs, with standardSecret or secret, and refuses changes", async () => {
    const { Webhook } = await import("standardwebhooks");
    const { verifyStandardWebhook } = await import("../../lib/sdk/index");
    const raw = Buffer.alloc(32, 7);
    const secret = `whsec_${raw.toString("base64url")}`;
    const standardSecret = `whsec_${raw.toString("base64")}`;
    const body = '{"id":"evt_1","event":"signature.document.completed"}';
    const at = new Date();
    const signature = new Webhook(standardSecret).sign("evt_1", at, body);
    const headers = { "webhook-id": "evt_1", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature };
    expect(verifyStandardWebhook(body, headers, standardSecret)).toBe(true);
    expect(verifyStandardWebhook(body, headers, secret)).toBe(true);
    expect(verifyStandardWebhook(body.replace("1", "2"), headers, standardSecret)).toBe(false);
    expect(verifyStandardWebhook(body, { ...headers, "webhook-id": "evt_2" }, standardSecret)).toBe(false);
    expect(verifyStandardWebhook(body, { ...headers, "webhook-timestamp": String(Math.floor(at.getTime() / 1000) - 600) }, standardSecret)).toBe(false);
    expect(verifyStandardWebhook(body, { ...headers, "webhook-signature": "v1,AAAA" }, standardSecret)).toBe(false);
  });
});

describe("WebhookEventBody", () => {
  it("types each event's data by its name (tsc checks the narrowing)", () => {
    const remaining = (e: WebhookEventBody): number | string =>
      e.event === "signature.document.recipient_signed" ? e.data.remainingSigners : e.data.documentId;
    const signed: WebhookEventBodies["signature.document.recipient_signed"] = {
      id: "evt",
      event: "signature.document.recipient_signed",
      createdOn: "2026-11-26T00:00:00.000Z",
      orgId: "org",
      data: { documentId: "doc", name: "N", recipientId: "r", email: "a@b.c", signedAt: "2026-11-26T00:00:00.000Z", isFinalSigner: false, remainingSigners: 2 },
    };
    expect(remaining(signed)).toBe(2);
    expect(remaining({ ...signed, event: "signature.document.voided", data: { documentId: "doc", name: "N", reason: "r", voidedAt: signed.createdOn } })).toBe(
      "doc",
    );
  });
});

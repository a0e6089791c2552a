// Every signing event (docs/contract.md "Webhooks") provoked over HTTP and received once, each
// delivery verified twice: with the standardwebhooks library (standardSecret) and X-Service-Signature.
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { webhookEventSchema, type WebhookEventType } from "@/lib/webhooks/responses";
import { as, call } from "../support/helpers";
import { prepareDoc } from "../support/embedded";
import { PNG, SIGNING_LINK, signerApi, tokenOf } from "../support/esign";
import { startReceiver, verifySignature } from "../support/https-receiver";

const { baseUrl, seed } = inject("quire");
// The receiver must use the CA the server trusts (made once by the global setup).
process.env.QUIRE_TEST_CERTS_DIR ??= inject("quire").env.QUIRE_TEST_CERTS_DIR;
const admin = as(baseUrl, seed, "administrator");
const EVENTS = [
  "signature.document.sent",
  "signature.document.viewed",
  "signature.document.recipient_signed",
  "signature.document.completed",
  "signature.document.voided",
  "signature.document.declined",
];
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let hook: { secret: string; standardSecret: string };
const run = Date.now().toString(36);

beforeAll(async () => {
  receiver = await startReceiver();
  const created = await admin("/api/webhooks", { method: "POST", body: { name: `events-${run}`, urls: [`${receiver.url}?events-${run}`], events: EVENTS } });
  expect(created.status, created.text).toBe(201);
  hook = created.json.data;
});
afterAll(async () => {
  await receiver?.close();
});

async function until<T>(probe: () => T | null | undefined | false, what: string): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const v = probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** This test's deliveries for one document, each checked with both signatures. */
/** Deliveries go out concurrently, so they arrive in any order: sorted by when the event happened. */
function eventsOf(documentId: string): { event: string; createdOn: string; data: Record<string, unknown> }[] {
  return receiver.received
    .filter((d) => d.url.endsWith(`events-${run}`))
    .map((d) => {
      expect(verifySignature(hook.secret, String(d.headers["x-service-signature"]), d.body)).toBe(true);
      const headers = {
        "webhook-id": String(d.headers["webhook-id"]),
        "webhook-timestamp": String(d.headers["webhook-timestamp"]),
        "webhook-signature": String(d.headers["webhook-signature"]),
      };
      const event = new StandardWebhook(hook.standardSecret).verify(d.body, headers) as { event: string; createdOn: string; data: Record<string, unknown> };
      // The body is what the OpenAPI webhooks section documents for its event, no field more or less.
      expect(webhookEventSchema(event.event as WebhookEventType).parse(event)).toEqual(event);
      return event;
    })
    .filter((e) => e.data.documentId === documentId)
    .sort((a, b) => a.createdOn.localeCompare(b.createdOn));
}

async function linkOf(email: string): Promise<string> {
  const mails = await admin(`/api/outbox?to=${encodeURIComponent(email)}&limit=10`);
  return tokenOf(mails.json.data.results.map((m: { text: string }) => SIGNING_LINK.exec(m.text)?.[0]).find(Boolean));
}

describe("signing events", () => {
  it("sent, viewed (first open per signer), recipient_signed, completed: each once, in order", async () => {
    const [ada, bob] = [`ada-${run}@example.com`, `bob-${run}@example.com`];
    const res = await prepareDoc(
      baseUrl,
      seed,
      [
        { name: "Ada", email: ada, signingOrder: 1 },
        { name: "Bob", email: bob, signingOrder: 2 },
      ],
      { sendEmail: "true" },
    );
    expect(res.status, res.text).toBe(200);
    const id = res.json.data.documentId;
    const sign = async (email: string) => {
      const signer = signerApi(baseUrl, await linkOf(email));
      await Promise.all([signer.session(), signer.session(), signer.session()]); // three opens, one view
      const session = (await signer.session()).json.data;
      const signed = await signer.sign(
        Object.fromEntries(session.fields.map((f: { id: string; type: string }) => [f.id, f.type === "signature" ? PNG : "typed"])),
      );
      expect(signed.status, signed.text).toBe(200);
      return session.recipient.id as string;
    };
    const adaId = await sign(ada);
    const bobId = await sign(bob);
    await until(() => {
      const got = eventsOf(id);
      return got.some((e) => e.event === "signature.document.completed") && got;
    }, "the completed event");
    await new Promise((r) => setTimeout(r, 1500));
    expect(eventsOf(id).map((e) => e.event)).toEqual([
      "signature.document.sent",
      "signature.document.viewed",
      "signature.document.recipient_signed",
      "signature.document.viewed",
      "signature.document.recipient_signed",
      "signature.document.completed",
    ]);
    const signedEvents = eventsOf(id)
      .filter((e) => e.event === "signature.document.recipient_signed")
      .map((e) => e.data);
    expect(signedEvents).toEqual([
      expect.objectContaining({ recipientId: adaId, isFinalSigner: false, remainingSigners: 1 }),
      expect.objectContaining({ recipientId: bobId, isFinalSigner: true, remainingSigners: 0 }),
    ]);
    expect(eventsOf(id).find((e) => e.event === "signature.document.completed")!.data).toMatchObject({ documentHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("voided: once", async () => {
    const res = await prepareDoc(baseUrl, seed, [{ name: "Cy", email: `cy-${run}@example.com` }], { sendEmail: "true" });
    const id = res.json.data.documentId;
    expect((await as(baseUrl, seed, "contributor")(`/esign/documents/${id}/void`, { method: "POST", body: { reason: "Wrong file" } })).status).toBe(200);
    await until(() => eventsOf(id).some((e) => e.event === "signature.document.voided"), "the voided event");
    await new Promise((r) => setTimeout(r, 1000));
    expect(eventsOf(id).map((e) => e.event)).toEqual(["signature.document.sent", "signature.document.voided"]);
    expect(eventsOf(id)[1].data).toMatchObject({ reason: "Wrong file" });
  });

  it("declined: once, with the signer and the reason", async () => {
    const email = `dee-${run}@example.com`;
    const res = await prepareDoc(baseUrl, seed, [{ name: "Dee", email }], { sendEmail: "true" });
    const id = res.json.data.documentId;
    const token = await linkOf(email);
    const decline = () => call(baseUrl, `/api/signer/${token}/decline`, { method: "POST", body: { reason: "Not my name" } });
    const replies = await Promise.all([decline(), decline()]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 410]);
    await until(() => eventsOf(id).some((e) => e.event === "signature.document.declined"), "the declined event");
    await new Promise((r) => setTimeout(r, 1000));
    expect(eventsOf(id).map((e) => e.event)).toEqual(["signature.document.sent", "signature.document.viewed", "signature.document.declined"]);
    expect(eventsOf(id)[2].data).toMatchObject({ reason: "Not my name", email });
  });
});

// Size: every SDK method against one running server, in the order a user meets them.
// The TypeScript SDK (lib/sdk) against the running server: createEmbeddedSignature (docs/contract.md
// "Embedded signing"), local and API errors, and round trips of the deliverable, template, folder, tag,
// signing and webhook methods. Webhook deliveries need a receiver on loopback, so that part runs
// its own server with WEBHOOK_ALLOW_PRIVATE and checks real deliveries with verifyWebhookSignature.
import crypto from "node:crypto";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SeedResult } from "@/lib/orgs/seed";
import { buildSampleContractDocx, SAMPLE_CONTRACT_ANCHORS } from "@/lib/templates/samples";
import { constructWebhookEvent, PhoneRequiredForSmsOtp, QuireApiError, QuireClient, verifyWebhookSignature, type WebhookEnvelope } from "../../lib/sdk/index";
import { authHeaders, call } from "../support/api";
import { latestMailTo, orgWith, tokenOfUrl } from "../support/embedded";
import { onePagePdf, PNG } from "../support/esign";
import { popplerWords } from "../support/odd-pdfs";
import { startReceiver, testCertificates } from "../support/https-receiver";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";

const server = inject("quire");
const { baseUrl } = server;

const FRAMER = "https://app.example.com";
const enabled = { enabled: true, allowedFrameAncestors: [FRAMER], sms: { provider: "outbox" } };

type Role = keyof SeedResult["keys"];

function sdk(org: SeedResult, role: Role = "contributor", options: { fetch?: typeof fetch; url?: string } = {}) {
  return new QuireClient({ baseUrl: options.url ?? baseUrl, apiKey: org.keys[role], orgId: org.orgId, fetch: options.fetch, userAgent: "quire-sdk-tests" });
}

/** A one-page PDF whose text layer holds each anchor on its own line. */
async function pdfWithAnchors(anchors: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText("Mutual non-disclosure agreement", { x: 50, y: 780, size: 14, font });
  anchors.forEach((a, i) => page.drawText(a, { x: 50, y: 700 - i * 80, size: 11, font }));
  return Buffer.from(await doc.save());
}

/** What the signing page's API shows the holder of a (reusable) signing URL. */
async function signerSession(embedUrl: string) {
  return (await call(baseUrl, `/api/signer/${tokenOfUrl(embedUrl)}`)).json.data as {
    state: string;
    verification: { kind: string; channel?: string } | null;
    recipient: { id: string; email: string; returnUrl: string | null };
    fields: { id: string; type: string }[];
  };
}

async function rejection(p: Promise<unknown>): Promise<QuireApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(QuireApiError);
  return err as QuireApiError;
}

// Fresh organizations per block, made before its tests (the seed CLI takes seconds).
describe("createEmbeddedSignature", () => {
  let org: SeedResult, emailDefault: SeedResult, off: SeedResult;
  beforeAll(async () => {
    [org, emailDefault, off] = await Promise.all([orgWith(server, enabled), orgWith(server, { ...enabled, defaultChannel: "email" }), orgWith(server, {})]);
  });

  it("sends without emails: the first signer is ready with an embed URL that opens, the second pending; fields land on the anchors", async () => {
    const pdf = await pdfWithAnchors(["SIGN-ADA", "DATE-ADA", "SIGN-BOB", "INIT-BOB", "NAME-BOB"]);
    const client = sdk(org);
    const result = await client.createEmbeddedSignature({
      file: pdf,
      fileName: "nda.pdf",
      documentName: "SDK NDA",
      senderName: "Sam Sender",
      senderEmail: "sam@example.com",
      returnUrl: `${FRAMER}/signed`,
      recipients: [
        { name: "Ada Lovelace", email: "ada.sdk@example.com", fields: { signature: "SIGN-ADA", date: "DATE-ADA" } },
        { name: "Bob Boole", email: "bob.sdk@example.com", fields: { signature: "SIGN-BOB", initials: "INIT-BOB", fullName: "NAME-BOB" } },
      ],
    });
    expect(result.recipients).toEqual([
      {
        recipientId: expect.any(String),
        embedUrl: expect.stringMatching(new RegExp(`^${baseUrl}/sign/open\\?token=[A-Za-z0-9_-]+$`)),
        status: "ready",
        identityVerificationMode: null,
      },
      { recipientId: expect.any(String), embedUrl: null, status: "pending", identityVerificationMode: null },
    ]);
    const [ada, bob] = result.recipients;

    const doc = await client.esign.get(result.documentId);
    expect(doc).toMatchObject({ name: "SDK NDA", status: "sent", sendEmail: false });
    expect(doc.recipients.map((r) => [r.id, r.email, r.status])).toEqual([
      [ada.recipientId, "ada.sdk@example.com", "ready"],
      [bob.recipientId, "bob.sdk@example.com", "pending"],
    ]);
    expect(await client.esign.status(result.documentId)).toEqual({
      status: "sent",
      recipients: [
        { id: ada.recipientId, name: expect.any(String), email: "ada.sdk@example.com", status: "ready", signedAt: null },
        { id: bob.recipientId, name: expect.any(String), email: "bob.sdk@example.com", status: "pending", signedAt: null },
      ],
    });
    // sendEmail false: nobody was emailed a signing link.
    expect(await latestMailTo(baseUrl, org, "ada.sdk@example.com", "signing_request")).toBeUndefined();

    // The embed URL opens the signing page, which the allowed origin may frame.
    const open = await fetch(ada.embedUrl!, { redirect: "manual" });
    expect(open.status).toBe(303);
    const page = await fetch(new URL(open.headers.get("location")!, baseUrl));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(`frame-ancestors ${FRAMER}`);

    // Each signer got exactly the shorthand's fields, on the anchors of the document.
    const adaSession = await signerSession(ada.embedUrl!);
    expect(adaSession).toMatchObject({ state: "ready", recipient: { id: ada.recipientId, returnUrl: `${FRAMER}/signed` } });
    expect(adaSession.fields.map((f) => f.type).sort()).toEqual(["date", "signature"]);

    // Ada signs; Bob's turn comes, and his URL shows his three fields.
    const values = Object.fromEntries(adaSession.fields.map((f) => [f.id, f.type === "signature" ? PNG : "2026-01-15"]));
    const signed = await call(baseUrl, `/api/signer/${tokenOfUrl(ada.embedUrl!)}/sign`, { method: "POST", body: { values } });
    expect(signed.status, signed.text).toBe(200);
    expect((await client.esign.get(result.documentId)).recipients.map((r) => r.status)).toEqual(["completed", "ready"]);
    const bobUrl = await client.esign.createSigningUrl(result.documentId, { recipientId: bob.recipientId });
    expect(bobUrl).toMatchObject({ recipientId: bob.recipientId, identityVerificationMode: null, pendingChecks: [], expiresAt: null });
    expect((await signerSession(bobUrl.url)).fields.map((f) => f.type).sort()).toEqual(["full_name", "initial", "signature"]);

    const trail = await client.esign.auditTrail(result.documentId);
    expect(trail.document).toEqual({ id: result.documentId, name: "SDK NDA" });
    expect(trail.auditTrail.map((e) => e.actionType)).toEqual(expect.arrayContaining(["created", "sent", "signing_url_issued", "signed"]));
    const current = await client.esign.download(result.documentId);
    expect(current.contentType).toBe("application/pdf");
    expect(Buffer.from(current.data).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("auth shorthand: an email passcode gives the ready signer mode otp with an email_otp check; a pending SMS signer reports the requested mode", async () => {
    const client = sdk(org);
    const result = await client.createEmbeddedSignature({
      file: await onePagePdf(),
      fileName: "nda.pdf",
      recipients: [
        { name: "Ada", email: "ada.otp@example.com", auth: { emailOtp: true } },
        { name: "Bob", email: "bob.otp@example.com", auth: { smsOtp: { phone: "+14155552671" } } },
        { name: "Cy", email: "cy.otp@example.com" },
      ],
    });
    expect(result.recipients.map((r) => [r.status, r.identityVerificationMode, r.embedUrl === null])).toEqual([
      ["ready", "otp", false],
      ["pending", "otp", true],
      ["pending", null, true],
    ]);
    const url = await client.esign.createSigningUrl(result.documentId, { recipientId: result.recipients[0].recipientId });
    expect(url).toMatchObject({ url: result.recipients[0].embedUrl, identityVerificationMode: "otp", pendingChecks: ["email_otp"] });
    expect(await signerSession(url.url)).toMatchObject({ state: "verification_required", verification: { kind: "otp", channel: "email" }, fields: [] });
  });

  it("reports the mode resolved for a ready signer, but null for a pending signer that asked for nothing, under an organization default", async () => {
    const result = await sdk(emailDefault).createEmbeddedSignature({
      file: await onePagePdf(),
      fileName: "nda.pdf",
      recipients: [
        { name: "Ada", email: "ada.def@example.com" },
        { name: "Bob", email: "bob.def@example.com" },
      ],
    });
    expect(result.recipients.map((r) => [r.status, r.identityVerificationMode])).toEqual([
      ["ready", "otp"],
      ["pending", null],
    ]);
    expect((await sdk(emailDefault).esign.getEmbeddedSigningSettings()).defaultChannel).toBe("email");
  });

  it("signs a deliverable: the sample contract's anchors take the shorthand fields", async () => {
    const client = sdk(org);
    const template = await client.templates.upload({
      file: await buildSampleContractDocx(),
      fileName: "contract.docx",
      name: `SDK contract ${crypto.randomUUID().slice(0, 8)}`,
    });
    const deliverable = await client.deliverables.create({
      name: "Contract for Initech",
      templateId: template.id,
      variables: [{ placeholder: "{ClientName}", text: "Initech", mimeType: "text" }],
    });
    const result = await client.createEmbeddedSignature({
      deliverableId: deliverable.id,
      recipients: [
        { name: "Peter", email: "peter@initech.example", fields: { signature: SAMPLE_CONTRACT_ANCHORS.signature, date: SAMPLE_CONTRACT_ANCHORS.date } },
      ],
    });
    expect(result.recipients).toHaveLength(1);
    expect(result.recipients[0].status).toBe("ready");
    const session = await signerSession(result.recipients[0].embedUrl!);
    expect(session.fields.map((f) => f.type).sort()).toEqual(["date", "signature"]);
    expect((await client.esign.get(result.documentId)).name).toBe("Contract for Initech");

    // Signed, the contract shows the stamped values and no longer the anchors they replaced.
    const values = Object.fromEntries(session.fields.map((f) => [f.id, f.type === "signature" ? PNG : "2026-11-24"]));
    const signed = await call(baseUrl, `/api/signer/${tokenOfUrl(result.recipients[0].embedUrl!)}/sign`, { method: "POST", body: { values } });
    expect(signed.status, signed.text).toBe(200);
    await expect.poll(async () => (await client.esign.get(result.documentId)).status, { timeout: 20_000 }).toBe("completed");
    const res = await fetch(`${baseUrl}/esign/documents/${result.documentId}/download`, { headers: authHeaders(org, "contributor") });
    const signedPdf = Buffer.from(await res.arrayBuffer());
    const words = popplerWords(signedPdf).map((w) => w.text);
    // The keyless link hands out the same bytes.
    const link = await client.esign.downloadLink(result.documentId);
    expect(link.fileName).toBe("Contract for Initech (signed).pdf");
    expect(Buffer.from(await (await fetch(link.downloadUrl)).arrayBuffer()).equals(signedPdf)).toBe(true);
    expect(words).toContain("2026-11-24");
    expect(words.filter((w) => w.includes("[[sign:") || w.includes("[[date:"))).toEqual([]);
  });

  it("throws PhoneRequiredForSmsOtp for an SMS signer without a phone before any request", async () => {
    const calls: string[] = [];
    const spy: typeof fetch = (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    };
    const client = sdk(org, "contributor", { fetch: spy });
    const before = (await sdk(org).esign.list({ limit: 1 })).totalRecords;
    const err = await client
      .createEmbeddedSignature({
        file: await onePagePdf(),
        fileName: "nda.pdf",
        recipients: [
          { name: "Ada", email: "ada.sms@example.com" },
          { name: "Bob", email: "bob.sms@example.com", auth: { smsOtp: {} } },
        ],
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(PhoneRequiredForSmsOtp);
    expect(err).toMatchObject({ code: "PhoneRequiredForSmsOtp", recipientIndex: 1, email: "bob.sms@example.com" });
    expect(calls).toEqual([]);
    expect((await sdk(org).esign.list({ limit: 1 })).totalRecords).toBe(before);
    // The same recipient with the phone on the recipient goes through (and the spy sees the requests).
    const ok = await client.createEmbeddedSignature({
      file: await onePagePdf(),
      fileName: "nda.pdf",
      recipients: [{ name: "Bob", email: "bob.sms@example.com", phone: "+14155552671", auth: { smsOtp: {} } }],
    });
    expect(ok.recipients[0]).toMatchObject({ status: "ready", identityVerificationMode: "otp" });
    expect(calls.map((u) => new URL(u).pathname)).toEqual(["/esign/single/prepare-for-signing", `/esign/documents/${ok.documentId}/signing-url`]);
  });

  it("surfaces API errors as QuireApiError with status and code", async () => {
    const file = await onePagePdf();
    const one = [{ name: "Ada", email: "ada.err@example.com" }];

    const anchor = await rejection(
      sdk(org).createEmbeddedSignature({ file, fileName: "nda.pdf", recipients: [{ ...one[0], fields: { signature: "NOT-IN-THE-DOCUMENT" } }] }),
    );
    expect(anchor).toMatchObject({ status: 400, code: "AnchorNotFound" });
    expect(anchor.message).toContain("NOT-IN-THE-DOCUMENT");

    const phone = await rejection(
      sdk(org).createEmbeddedSignature({ file, fileName: "nda.pdf", recipients: [{ ...one[0], auth: { smsOtp: { phone: "+10000000000" } } }] }),
    );
    expect(phone).toMatchObject({ status: 400, code: "OtpPhoneInvalid", body: { code: "OtpPhoneInvalid", type: "OtpPhoneInvalid" } });

    // A User key may not send for signing: a plain 403.
    const forbidden = await rejection(sdk(org, "user").createEmbeddedSignature({ file, fileName: "nda.pdf", recipients: one }));
    expect(forbidden).toMatchObject({ status: 403, code: null, message: "Forbidden" });

    // Embedded signing off: the document is sent, then the signing URL is refused; the error names the document.
    const notEnabled = await rejection(sdk(off).createEmbeddedSignature({ file, fileName: "nda.pdf", recipients: one }));
    expect(notEnabled).toMatchObject({ status: 403, code: "EmbeddedSigningNotEnabled", documentId: expect.any(String) });
    const voided = await sdk(off).esign.void(notEnabled.documentId!, "embedding is off");
    expect(voided).toMatchObject({ id: notEnabled.documentId, status: "voided", voidReason: "embedding is off" });

    const missing = await rejection(sdk(org).esign.get(crypto.randomUUID()));
    expect(missing).toMatchObject({ status: 404, code: "DocumentNotFound" });
    const badKey = await rejection(new QuireClient({ baseUrl, apiKey: "qk_000000000000_nope", orgId: org.orgId }).deliverables.list());
    expect(badKey.status).toBe(401);
    const wrongOrg = await rejection(new QuireClient({ baseUrl, apiKey: org.keys.administrator, orgId: server.other.orgId }).deliverables.list());
    expect(wrongOrg).toMatchObject({ status: 403, code: "InvalidOrganization" });
    const listing = await rejection(sdk(org).templates.listItems({ limit: 0 }));
    expect(listing).toMatchObject({ status: 400, code: "ValidationError" });
    expect((listing.body as { data: { errors: { field: string }[] } }).data.errors[0].field).toBe("limit");
  });
});

describe("deliverables, templates, folders and tags", () => {
  let org: SeedResult;
  beforeAll(async () => {
    org = await orgWith(server, enabled);
  });

  it("round-trips a template and a folder", async () => {
    const client = sdk(org);
    const docx = await buildSampleContractDocx();
    const label = `sdk-${crypto.randomBytes(3).toString("hex")}`;
    const template = await client.templates.upload({
      file: new Blob([new Uint8Array(docx)]),
      fileName: "services.docx",
      name: "SDK Services Agreement",
      description: "uploaded by the SDK",
      tags: [label],
    });
    expect(template).toMatchObject({
      name: "SDK Services Agreement",
      description: "uploaded by the SDK",
      type: "template",
      templateFolderId: null,
      fileSize: docx.length,
      tags: [expect.objectContaining({ label })],
    });
    expect(template.variables).toEqual(
      expect.arrayContaining([
        { placeholder: "{ClientName}", name: "ClientName", kind: "text" },
        { placeholder: "{@Scope}", name: "Scope", kind: "html" },
      ]),
    );
    expect((await client.tags.list()).map((t) => t.label)).toContain(label);

    const folder = await client.templates.folders.create({ name: "SDK folder" });
    expect(folder).toMatchObject({ name: "SDK folder", type: "folder", templateFolderId: null });
    const moved = await client.templates.update(template.id, { templateFolderId: folder.id, name: "SDK Services Agreement v2" });
    expect(moved).toMatchObject({ templateFolderId: folder.id, folderName: "SDK folder", name: "SDK Services Agreement v2" });
    expect(await client.templates.get(template.id)).toMatchObject({ id: template.id, folderName: "SDK folder" });

    const inFolder = await client.templates.listItems({ folderId: folder.id });
    expect(inFolder).toMatchObject({ totalRecords: 1, results: [{ id: template.id, type: "template", tags: [label] }] });
    const tagId = (await client.tags.list()).find((t) => t.label === label)!.id;
    const all = await client.templates.listItems({ type: "template", selectedTags: [tagId], column0: "name", order0: "asc" });
    expect(all.results.map((t) => t.id)).toEqual([template.id]);
    expect((await client.templates.listItems({ query: "SDK folder" })).results.map((i) => [i.id, i.type])).toEqual([[folder.id, "folder"]]);

    const renamed = await client.templates.folders.update(folder.id, { name: "SDK folder renamed" });
    expect(renamed.name).toBe("SDK folder renamed");
    expect((await client.templates.folders.get(folder.id)).path).toEqual([{ id: folder.id, name: "SDK folder renamed" }]);
    const notEmpty = await rejection(client.templates.folders.delete(folder.id));
    expect(notEmpty.status).toBe(409);
    expect(notEmpty.code).toBe("FolderNotEmpty");

    const original = await client.templates.downloadFile(template.id);
    expect(Buffer.from(original.data).equals(docx)).toBe(true);
    expect(original.fileName).toBe("SDK Services Agreement v2.docx");

    expect(await client.templates.delete(template.id)).toEqual({ message: expect.any(String), templateId: template.id });
    expect(await client.templates.folders.delete(folder.id)).toEqual({ message: expect.any(String), folderId: folder.id });
    expect((await client.templates.listItems({ type: "template", selectedTags: [tagId] })).totalRecords).toBe(0);

    const bad = await rejection(client.templates.upload({ file: await onePagePdf(), fileName: "renamed.docx" }));
    expect(bad).toMatchObject({ status: 400, code: "ValidationError" });
    const viewer = await rejection(sdk(org, "viewer").templates.upload({ file: docx, fileName: "x.docx" }));
    expect(viewer).toMatchObject({ status: 403, code: null, body: null });
  });

  it("round-trips a deliverable: create, list, get, update, downloads, delete", async () => {
    const client = sdk(org, "user");
    const template = await sdk(org).templates.upload({
      file: await buildSampleContractDocx(),
      fileName: "contract.docx",
      name: "SDK contract for deliverables",
    });
    const created = await client.deliverables.create({
      name: "Agreement with Globex",
      templateId: template.id,
      description: "made by the SDK",
      tags: ["sdk-deliverable"],
      variables: [
        { placeholder: "{ClientName}", text: "Globex Corporation", mimeType: "text" },
        { placeholder: "{@Scope}", text: "<p>Build <b>the portal</b></p>", mimeType: "html" },
        {
          placeholder: "{ItemName}",
          mimeType: "text",
          variableStack: [
            { text: "Discovery", mimeType: "text" },
            { text: "Build", mimeType: "text" },
          ],
        },
      ],
    });
    expect(created).toMatchObject({ name: "Agreement with Globex", templateId: template.id, description: "made by the SDK", isActive: true });

    const page = await client.deliverables.list({ query: "Globex", showTags: true, limit: 10 });
    expect(page.totalRecords).toBe(1);
    expect(page.results[0]).toMatchObject({
      id: created.id,
      fileType: expect.stringContaining("wordprocessingml"),
      tags: [expect.objectContaining({ label: "sdk-deliverable" })],
    });
    const one = await client.deliverables.get(created.id, { showTags: true });
    expect(one).toMatchObject({
      id: created.id,
      templateName: "SDK contract for deliverables",
      templateNotDeleted: true,
      tags: [expect.objectContaining({ label: "sdk-deliverable" })],
    });
    expect(one.variables.map((v) => v.placeholder)).toEqual(expect.arrayContaining(["{ClientName}", "{@Scope}"]));
    expect(await client.deliverables.get(created.id)).not.toHaveProperty("tags");

    expect(await client.deliverables.update(created.id, { name: "Agreement with Globex Corp", tags: [] })).toEqual({
      message: expect.any(String),
      deliverableId: created.id,
    });
    expect(await client.deliverables.get(created.id, { showTags: true })).toMatchObject({ name: "Agreement with Globex Corp", tags: [] });

    const pdf = await client.deliverables.downloadPdf(created.id);
    expect(pdf).toMatchObject({ contentType: "application/pdf", fileName: "Agreement with Globex Corp.pdf" });
    expect(Buffer.from(pdf.data).subarray(0, 5).toString()).toBe("%PDF-");
    const source = await client.deliverables.downloadFile(created.id);
    expect(source.fileName).toBe("Agreement with Globex Corp.docx");
    expect(Buffer.from(source.data).subarray(0, 2).toString()).toBe("PK");
    const viewer = await rejection(sdk(org, "viewer").deliverables.downloadPdf(created.id));
    expect(viewer).toMatchObject({ status: 403, code: "MissingRole" });

    expect(await client.deliverables.delete(created.id)).toEqual({ message: expect.any(String), deliverableId: created.id });
    const gone = await rejection(client.deliverables.get(created.id));
    expect(gone).toMatchObject({ status: 404, code: "DeliverableNotFound" });
    const invalid = await rejection(client.deliverables.create({ name: "ab", templateId: template.id, variables: [] }));
    expect(invalid).toMatchObject({ status: 422 });
  });
});

describe("webhook methods on the shared server", () => {
  let org: SeedResult;
  beforeAll(async () => {
    org = await orgWith(server, enabled);
  });

  // Private and loopback receivers are refused in tests/unit/webhooks-safety.test.ts: the shared test
  // server allows loopback receivers (WEBHOOK_ALLOW_PRIVATE) for the webhook suites.
  it("refuses URLs that are not HTTPS, with the listing error bodies", async () => {
    const client = sdk(org, "administrator");
    const plain = await rejection(client.webhooks.create({ urls: ["http://hooks.example.com/q"], events: ["signature.document.completed"] }));
    expect(plain).toMatchObject({ status: 400, code: "ValidationError" });
    expect((plain.body as { data: { errors: { field: string }[] } }).data.errors[0].field).toBe("urls.0");
    const missing = await rejection(client.webhooks.get());
    expect(missing).toMatchObject({ status: 404, code: null, message: "Webhook not found", body: { error: "Webhook not found" } });
    expect((await rejection(client.webhooks.test())).status).toBe(404);
    const contributor = await rejection(sdk(org, "contributor").webhooks.get());
    expect(contributor).toMatchObject({ status: 403, code: null, body: null });
    expect(await client.webhooks.list()).toEqual([]);
  });
});

describe("webhook deliveries verified with verifyWebhookSignature", () => {
  let quire: RunningQuire;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    quire = await startQuireServer((process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase, {
      extraEnv: { WEBHOOK_ALLOW_PRIVATE: "true", NODE_EXTRA_CA_CERTS: testCertificates().caFile, WEBHOOK_RETRY_SCALE: "0.0001" },
    });
  });

  afterAll(async () => {
    await quire?.stop();
    await receiver?.close();
  });

  const admin = () => sdk(quire.server.seed, "administrator", { url: quire.server.baseUrl });
  const header = (i: number) => String(receiver.received[i].headers["x-service-signature"]);

  async function waitForDelivery(count: number) {
    const deadline = Date.now() + 20_000;
    while (receiver.received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received.length).toBeGreaterThanOrEqual(count);
  }

  it("creates, reads, tests, replays, pauses and deletes the signature webhook; every delivery verifies with the current secret only", async () => {
    const client = admin();
    const created = await client.webhooks.create({ urls: [receiver.url], events: ["signature.document.completed", "signature.document.voided"] });
    expect(created).toMatchObject({ name: "signature", urls: [receiver.url], secretExists: true, isActive: true, orgId: quire.server.seed.orgId });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const taken = await rejection(client.webhooks.create({ urls: [receiver.url], events: ["signature.document.completed"] }));
    expect(taken).toMatchObject({ status: 409, code: "WebhookNameTaken", body: { data: { name: "signature" } } });

    const detail = await client.webhooks.get();
    expect(detail).toMatchObject({
      id: created.id,
      maskedSecret: `whsec_…${created.secret.slice(-4)}`,
      availableEvents: [
        "signature.document.sent",
        "signature.document.viewed",
        "signature.document.recipient_signed",
        "signature.document.completed",
        "signature.document.finalization_failed",
        "signature.document.voided",
        "signature.document.declined",
      ],
      deliveryStats: { total: 0 },
    });
    expect(detail).not.toHaveProperty("secret");

    // Test: a real, signed delivery.
    const tested = await client.webhooks.test({ eventType: "signature.document.completed", payload: { documentId: "sdk-test" } });
    expect(tested.summary).toEqual({ total: 1, successful: 1, failed: 0, errors: [] });
    expect(tested.deliveries[0]).toMatchObject({ url: receiver.url, isDelivered: true, status: "delivered", httpStatus: 200 });
    await waitForDelivery(1);
    const first = receiver.received[0];
    expect(verifyWebhookSignature(first.body, header(0), created.secret)).toBe(true);
    expect(verifyWebhookSignature(new TextEncoder().encode(first.body), header(0), created.secret, { toleranceSeconds: 60 })).toBe(true);
    expect(verifyWebhookSignature(first.body, header(0), `${created.secret}x`)).toBe(false);
    expect(verifyWebhookSignature(first.body.replace("sdk-test", "sdk-evil"), header(0), created.secret)).toBe(false);
    const event = constructWebhookEvent<{ documentId: string }>(first.body, header(0), created.secret);
    expect(event).toMatchObject({ event: "signature.document.completed", orgId: quire.server.seed.orgId, data: { documentId: "sdk-test" } });

    // A new secret signs from now on; the old one no longer verifies.
    const rotated = await client.webhooks.regenerateSecret();
    expect(rotated.secret).not.toBe(created.secret);
    const replayed = await client.webhooks.replay(tested.deliveries[0].id);
    expect(replayed).toMatchObject({ isDelivered: true, status: "delivered" });
    await waitForDelivery(2);
    expect(receiver.received[1].body).toBe(first.body);
    expect(verifyWebhookSignature(receiver.received[1].body, header(1), rotated.secret)).toBe(true);
    expect(verifyWebhookSignature(receiver.received[1].body, header(1), created.secret)).toBe(false);

    // A real event: voiding a document sent through the SDK.
    const sent = await sdk(quire.server.seed, "contributor", { url: quire.server.baseUrl }).esign.prepareForSigning({
      file: await onePagePdf(),
      fileName: "nda.pdf",
      documentName: "Voided by the SDK",
      sendEmail: false,
      recipients: [{ name: "Ada", email: "ada.hook@example.com" }],
    });
    expect(sent).toMatchObject({ status: "sent", recipients: [{ email: "ada.hook@example.com", status: "ready" }] });
    await admin().esign.void(sent.documentId, "changed our minds");
    await waitForDelivery(3);
    const voided = receiver.received[2];
    expect(verifyWebhookSignature(voided.body, header(2), rotated.secret)).toBe(true);
    const voidEvent = JSON.parse(voided.body) as WebhookEnvelope<{ documentId: string; reason: string }>;
    expect(voidEvent).toMatchObject({ event: "signature.document.voided", data: { documentId: sent.documentId, reason: "changed our minds" } });

    // The receiver has the body before Quire records its answer: wait for the record.
    let deliveries = await client.webhooks.listDeliveries({ limit: 10 });
    for (const deadline = Date.now() + 10_000; !deliveries.results.every((d) => d.isDelivered) && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 100));
      deliveries = await client.webhooks.listDeliveries({ limit: 10 });
    }
    expect(deliveries.totalRecords).toBe(3);
    expect(deliveries.results.every((d) => d.isDelivered && d.webhookId === created.id)).toBe(true);
    expect((await client.webhooks.listDeliveries({ eventType: "signature.document.voided" })).totalRecords).toBe(1);

    // Paused: kept, but cannot be tested; urls and events are replaced on update.
    const paused = await client.webhooks.update({ isActive: false, events: ["signature.document.voided"] });
    expect(paused).toMatchObject({ isActive: false, events: ["signature.document.voided"], maskedSecret: expect.stringMatching(/^whsec_…/) });
    const inactive = await rejection(client.webhooks.test());
    expect(inactive).toMatchObject({ status: 400, message: "Cannot test inactive webhook" });
    expect((await client.webhooks.list()).map((w) => w.id)).toEqual([created.id]);

    expect(await client.webhooks.delete()).toEqual({ id: created.id });
    expect((await rejection(client.webhooks.get())).status).toBe(404);
  });
});

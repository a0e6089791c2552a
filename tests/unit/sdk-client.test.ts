// The SDK client's wire format against a recording fetch: headers (docs/contract.md "Authentication and roles"), JSON versus
// multipart bodies, createEmbeddedSignature's request and result (4.3, 2.10), local errors thrown
// before any request, and QuireApiError for each family's error body (7.x).
import { describe, expect, it } from "vitest";
import { PhoneRequiredForSmsOtp, QuireApiError, QuireClient, QuireInputError, type CreateEmbeddedSignatureInput } from "../../lib/sdk/index";

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that records each request and answers from `answer`. */
function recorder(answer: (req: Seen, n: number) => Response | Promise<Response> = () => Response.json({ data: {} })) {
  const seen: Seen[] = [];
  const fetch = (async (url: string, init: RequestInit = {}) => {
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const body = init.body instanceof FormData ? init.body : typeof init.body === "string" ? JSON.parse(init.body) : init.body;
    const req = { method: init.method ?? "GET", url, headers, body };
    seen.push(req);
    return answer(req, seen.length);
  }) as typeof globalThis.fetch;
  return { seen, fetch };
}

const options = { baseUrl: "https://quire.example.com/", apiKey: "qk_abc_def", orgId: "3f6c8a2e-0000-4000-8000-000000000001" };

describe("QuireClient requests", () => {
  it("sends the key, the organization, Accept, User-Agent, and Content-Type only with a JSON body", async () => {
    const { seen, fetch } = recorder(() => Response.json({ data: { message: "ok", deliverableId: "d" } }));
    const client = new QuireClient({ ...options, fetch });
    await client.deliverables.update("d 1", { name: "New name" });
    await client.deliverables.list({ limit: 5, showTags: true, selectedTags: ["t1", "t2"] });
    expect(seen[0]).toMatchObject({ method: "PATCH", url: "https://quire.example.com/v1/deliverable/d%201", body: { name: "New name" } });
    expect(seen[0].headers).toEqual({
      authorization: "Bearer qk_abc_def",
      "x-service-org-id": options.orgId,
      accept: "application/json",
      "user-agent": expect.stringMatching(/^quire-sdk-typescript\/\d/),
      "content-type": "application/json",
    });
    expect(seen[1].url).toBe("https://quire.example.com/v1/deliverable?limit=5&showTags=true&selectedTags=t1&selectedTags=t2");
    expect(seen[1].headers["content-type"]).toBeUndefined();
    const custom = recorder(() => Response.json({ data: { results: [] } }));
    await new QuireClient({ ...options, fetch: custom.fetch, userAgent: "acme-crm/2.1" }).tags.list();
    expect(custom.seen[0].headers["user-agent"]).toBe("acme-crm/2.1");
  });

  it("refuses a client without baseUrl, apiKey or orgId", () => {
    expect(() => new QuireClient({ ...options, apiKey: "" })).toThrow(QuireInputError);
    expect(() => new QuireClient({ ...options, orgId: undefined as unknown as string })).toThrow(/orgId/);
    expect(() => new QuireClient({ ...options, baseUrl: "not a url" })).toThrow(/baseUrl/);
    // The key is not an enumerable property (it does not end up in logs of the client object).
    expect(JSON.stringify(Object.entries(new QuireClient(options)))).not.toContain("qk_abc_def");
  });

  it("sends prepare-for-signing as multipart with a file and as JSON without one", async () => {
    const reply = { data: { success: true, documentId: "doc", status: "sent", message: "m", recipients: [] } };
    const { seen, fetch } = recorder(() => Response.json(reply));
    const client = new QuireClient({ ...options, fetch });
    const recipients = [{ name: "Ada", email: "ada@example.com", signingOrder: 1 }];
    await client.esign.prepareForSigning({
      file: new Uint8Array([37, 80, 68, 70]),
      fileName: "a.pdf",
      recipients,
      sendEmail: false,
      ccEmails: ["c@example.com"],
      expiresAt: new Date("2030-01-01T00:00:00Z"),
    });
    const form = seen[0].body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(seen[0].headers["content-type"]).toBeUndefined(); // fetch sets the multipart boundary
    expect(JSON.parse(form.get("recipients") as string)).toEqual(recipients);
    expect(form.get("sendEmail")).toBe("false");
    expect(form.get("ccEmails")).toBe('["c@example.com"]');
    expect(form.get("expiresAt")).toBe("2030-01-01T00:00:00.000Z");
    const file = form.get("file") as File;
    expect(file.name).toBe("a.pdf");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([37, 80, 68, 70]));

    await client.esign.prepareForSigning({ templateId: "tpl", recipients });
    expect(seen[1].headers["content-type"]).toBe("application/json");
    expect(seen[1].body).toEqual({ templateId: "tpl", recipients });
  });

  it("creates the webhook named signature unless told otherwise, and addresses it by that name", async () => {
    const { seen, fetch } = recorder(() => Response.json({ data: { id: "w" } }, { status: 201 }));
    const client = new QuireClient({ ...options, fetch });
    await client.webhooks.create({ urls: ["https://h.example/q"], events: ["signature.document.completed"] });
    await client.webhooks.get();
    await client.webhooks.update({ isActive: false });
    await client.webhooks.listDeliveries({ status: "failed" }, "other");
    await client.webhooks.replay("dlv", "other");
    expect(seen.map((s) => `${s.method} ${s.url.replace(options.baseUrl.slice(0, -1), "")}`)).toEqual([
      "POST /api/webhooks",
      "GET /api/webhooks/signature",
      "PATCH /api/webhooks/signature",
      "GET /api/webhooks/other/deliveries?status=failed",
      "POST /api/webhooks/other/deliveries/dlv/replay",
    ]);
    expect(seen[0].body).toEqual({ name: "signature", urls: ["https://h.example/q"], events: ["signature.document.completed"] });
  });
});

describe("QuireApiError", () => {
  const failing = (status: number, body: string, headers: Record<string, string> = {}) =>
    new QuireClient({ ...options, fetch: recorder(() => new Response(body, { status, headers })).fetch });
  const errorOf = async (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e as QuireApiError,
    );

  it("carries status, code and body for every family's error shape", async () => {
    const cases: [number, string, string | null, string][] = [
      [404, JSON.stringify({ error: "DeliverableNotFound", message: "Deliverable not found" }), "DeliverableNotFound", "Deliverable not found"],
      [
        400,
        JSON.stringify({ message: "Recipient 0 has no phone", type: "OtpPhoneRequired", error: "Recipient 0 has no phone", code: "OtpPhoneRequired" }),
        "OtpPhoneRequired",
        "Recipient 0 has no phone",
      ],
      [404, JSON.stringify({ message: "Document not found", type: "DocumentNotFound" }), "DocumentNotFound", "Document not found"],
      [
        400,
        JSON.stringify({ message: "Validation failed", type: "ValidationError", data: { errors: [{ field: "limit", message: "must be a whole number" }] } }),
        "ValidationError",
        "Validation failed",
      ],
      [409, JSON.stringify({ message: "taken", error: "WebhookNameTaken", data: { name: "signature" } }), "WebhookNameTaken", "taken"],
      [404, JSON.stringify({ error: "Webhook not found" }), null, "Webhook not found"],
      [401, "", null, "HTTP 401"],
      [502, "<html>bad gateway</html>", null, "<html>bad gateway</html>"],
    ];
    for (const [status, body, code, message] of cases) {
      const err = await errorOf(failing(status, body).deliverables.get("x"));
      expect(err, body).toBeInstanceOf(QuireApiError);
      expect({ status: err!.status, code: err!.code, message: err!.message }, body).toEqual({ status, code, message });
      expect(err!.body).toEqual(body ? (body.startsWith("{") ? JSON.parse(body) : body) : null);
      expect(err!.method).toBe("GET");
      expect(err!.path).toBe("/v1/deliverable/x");
    }
    const limited = await errorOf(failing(429, JSON.stringify({ error: "RateLimited", message: "slow down" }), { "retry-after": "17" }).tags.list());
    expect(limited!.retryAfterSeconds).toBe(17);
  });
});

describe("createEmbeddedSignature", () => {
  const base: CreateEmbeddedSignatureInput = {
    fileLink: "https://files.example.com/nda.pdf",
    documentName: "NDA",
    returnUrl: "https://app.example.com/done",
    recipients: [
      { name: "Ada", email: "ada@example.com", auth: { emailOtp: true }, fields: { signature: "Signature A:", date: "Date A:" } },
      {
        name: "Bob",
        email: "bob@example.com",
        phone: "+14155550100",
        auth: { smsOtp: {} },
        fields: { initials: "Init B:", fullName: { anchor: "Name B:", placement: "below" } },
      },
      { name: "Cy", email: "cy@example.com" },
    ],
  };

  function server(statuses: string[]) {
    return recorder((req) => {
      if (req.url.endsWith("/prepare-for-signing")) {
        const recipients = (req.body as { recipients: { email: string; name: string; signingOrder: number }[] }).recipients;
        // The service lists recipients by signing order.
        const listed = recipients
          .map((r, i) => ({ id: `r${i}`, name: r.name, email: r.email, externalId: null, signingOrder: r.signingOrder, status: statuses[i] }))
          .sort((a, b) => a.signingOrder - b.signingOrder);
        return Response.json({ data: { success: true, documentId: "doc-1", status: "sent", message: "not sent", recipients: listed } });
      }
      const m = /\/esign\/documents\/doc-1\/signing-url$/.exec(req.url);
      if (m) {
        const { recipientId } = req.body as { recipientId: string };
        return Response.json({
          data: {
            results: {
              url: `https://quire.example.com/sign/open?token=${recipientId}`,
              expiresAt: null,
              recipientId,
              externalId: null,
              identityVerificationMode: "otp",
              pendingChecks: ["email_otp"],
            },
          },
        });
      }
      return new Response("unexpected", { status: 500 });
    });
  }

  it("sends with sendEmail false, auth as identityVerification and fields on anchors, then asks a URL for the ready signer only", async () => {
    const { seen, fetch } = server(["ready", "pending", "pending"]);
    const result = await new QuireClient({ ...options, fetch }).esign.createEmbeddedSignature(base);
    expect(seen).toHaveLength(2);
    expect(seen[0].url).toBe("https://quire.example.com/esign/single/prepare-for-signing");
    expect(seen[0].body).toEqual({
      fileLink: "https://files.example.com/nda.pdf",
      documentName: "NDA",
      returnUrl: "https://app.example.com/done",
      sendEmail: false,
      recipients: [
        { name: "Ada", email: "ada@example.com", signingOrder: 1, identityVerification: { mode: "otp", channel: "email" } },
        { name: "Bob", email: "bob@example.com", signingOrder: 2, phone: "+14155550100", identityVerification: { mode: "otp", channel: "sms" } },
        { name: "Cy", email: "cy@example.com", signingOrder: 3 },
      ],
      fields: [
        { type: "signature", recipientEmail: "ada@example.com", template: { anchor: "Signature A:" } },
        { type: "date", recipientEmail: "ada@example.com", template: { anchor: "Date A:" } },
        { type: "initial", recipientEmail: "bob@example.com", template: { anchor: "Init B:" } },
        { type: "full_name", recipientEmail: "bob@example.com", template: { anchor: "Name B:", placement: "below" } },
      ],
    });
    expect(seen[1]).toMatchObject({
      method: "POST",
      url: "https://quire.example.com/esign/documents/doc-1/signing-url",
      body: { recipientId: "r0", returnUrl: "https://app.example.com/done" },
    });
    expect(result).toEqual({
      documentId: "doc-1",
      recipients: [
        { recipientId: "r0", embedUrl: "https://quire.example.com/sign/open?token=r0", status: "ready", identityVerificationMode: "otp" },
        { recipientId: "r1", embedUrl: null, status: "pending", identityVerificationMode: "otp" },
        { recipientId: "r2", embedUrl: null, status: "pending", identityVerificationMode: null },
      ],
    });
  });

  it("returns recipients in signing order (parallel signers both ready), top-level fields replace the shorthand, sendEmail passes through", async () => {
    const { seen, fetch } = server(["pending", "ready", "ready"]);
    const fields = [{ type: "signature" as const, recipientEmail: "cy@example.com", page: 1, x: 10, y: 10, width: 100, height: 30 }];
    const result = await new QuireClient({ ...options, fetch }).esign.createEmbeddedSignature({
      ...base,
      returnUrl: undefined,
      sendEmail: true,
      fields,
      recipients: [
        { ...base.recipients[0], signingOrder: 2 },
        { name: "Bob", email: "bob@example.com", signingOrder: 1 },
        { name: "Cy", email: "cy@example.com", signingOrder: 1 },
      ],
    });
    const body = seen[0].body as Record<string, unknown>;
    expect(body.fields).toEqual(fields);
    expect(body.sendEmail).toBe(true);
    expect(body).not.toHaveProperty("returnUrl");
    expect(seen.slice(1).map((s) => s.body)).toEqual([{ recipientId: "r1" }, { recipientId: "r2" }]);
    expect(result.recipients.map((r) => [r.recipientId, r.status, r.embedUrl !== null, r.identityVerificationMode])).toEqual([
      ["r1", "ready", true, "otp"],
      ["r2", "ready", true, "otp"],
      ["r0", "pending", false, "otp"],
    ]);
  });

  it("reports completed signers as completed without a URL", async () => {
    const { seen, fetch } = server(["completed", "ready", "pending"]);
    const result = await new QuireClient({ ...options, fetch }).esign.createEmbeddedSignature(base);
    expect(result.recipients.map((r) => r.status)).toEqual(["completed", "ready", "pending"]);
    expect(result.recipients[0]).toEqual({ recipientId: "r0", embedUrl: null, status: "completed", identityVerificationMode: "otp" });
    expect(seen).toHaveLength(2);
  });

  it("throws PhoneRequiredForSmsOtp and input errors before any request", async () => {
    const { seen, fetch } = server(["ready"]);
    const client = new QuireClient({ ...options, fetch });
    const attempt = (input: CreateEmbeddedSignatureInput) =>
      client.esign.createEmbeddedSignature(input).then(
        () => null,
        (e: unknown) => e,
      );

    const noPhone = await attempt({ ...base, recipients: [base.recipients[0], { name: "Bob", email: "bob@example.com", auth: { smsOtp: {} } }] });
    expect(noPhone).toBeInstanceOf(PhoneRequiredForSmsOtp);
    expect(noPhone).toMatchObject({ code: "PhoneRequiredForSmsOtp", recipientIndex: 1, email: "bob@example.com", field: "recipients.1.phone" });
    expect(await attempt({ ...base, recipients: [{ name: "Bob", email: "bob@example.com", phone: "  ", auth: { smsOtp: { phone: "" } } }] })).toBeInstanceOf(
      PhoneRequiredForSmsOtp,
    );

    const bad: [Partial<CreateEmbeddedSignatureInput>, RegExp][] = [
      [{ fileLink: undefined }, /exactly one document source/],
      [{ templateId: "tpl" }, /exactly one document source.*fileLink, templateId/],
      [{ fileLink: undefined, fileName: "x.pdf", deliverableId: "d" }, /fileName goes with file/],
      [{ recipients: [] }, /at least one signer/],
      [
        {
          recipients: [
            { name: "A", email: "a@example.com" },
            { name: "B", email: "A@example.com" },
          ],
        },
        /listed twice/,
      ],
      [{ recipients: [{ name: "A", email: "a@example.com", auth: { sms: { phone: "+1" } } as never }] }, /unknown key/],
      [{ recipients: [{ name: "A", email: "a@example.com", auth: { emailOtp: true, smsOtp: { phone: "+14155550100" } } as never }] }, /choose one/],
      [
        { recipients: [{ name: "A", email: "a@example.com", phone: "+14155550100", auth: { smsOtp: { phone: "+14155550199" } } }] },
        /two different phone numbers/,
      ],
      [{ recipients: [{ name: "A", email: "a@example.com", fields: { stamp: "X" } as never }] }, /unknown field/],
      [{ recipients: [{ name: "A", email: "a@example.com", signingOrder: 0 }] }, /signingOrder/],
    ];
    for (const [change, message] of bad) {
      const err = await attempt({ ...base, ...change } as CreateEmbeddedSignatureInput);
      expect(err, String(message)).toBeInstanceOf(QuireInputError);
      expect((err as Error).message).toMatch(message);
    }
    expect(seen).toHaveLength(0);
  });

  it("tags an API error of a later step with the document id", async () => {
    const { fetch } = recorder((req) =>
      req.url.endsWith("/prepare-for-signing")
        ? Response.json({
            data: {
              success: true,
              documentId: "doc-9",
              status: "sent",
              message: "",
              recipients: [{ id: "r0", name: "Ada", email: "ada@example.com", externalId: null, signingOrder: 1, status: "ready" }],
            },
          })
        : Response.json(
            { message: "not enabled", type: "EmbeddedSigningNotEnabled", error: "not enabled", code: "EmbeddedSigningNotEnabled" },
            { status: 403 },
          ),
    );
    const err = await new QuireClient({ ...options, fetch }).esign
      .createEmbeddedSignature({ ...base, recipients: [base.recipients[0]] })
      .catch((e: unknown) => e as QuireApiError);
    expect(err).toBeInstanceOf(QuireApiError);
    expect(err).toMatchObject({ status: 403, code: "EmbeddedSigningNotEnabled", documentId: "doc-9" });
  });
});

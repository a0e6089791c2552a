// Input that used to answer 500 (issue 16), over HTTP: NUL characters and lone surrogates in queries,
// paths and JSON; malformed percent-encoding in path segments; hostile download names; addresses that
// hide a loopback in IPv6. Each gets its family's 400 naming what is wrong, and writes nothing.
import { describe, expect, inject, it } from "vitest";
import PizZip from "pizzip";
import { as, call } from "../support/helpers";
import { buildDocx, withWordComment } from "../support/ooxml";

const { baseUrl, seed } = inject("quire");
const user = as(baseUrl, seed, "user");
const contributor = as(baseUrl, seed, "contributor");
const admin = as(baseUrl, seed, "administrator");

async function counts() {
  return {
    deliverables: (await user("/v1/deliverable?limit=1")).json.data.totalRecords as number,
    templates: (await user("/template-item?type=template&limit=1")).json.data.totalRecords as number,
    documents: (await contributor("/esign/documents?limit=1")).json.data.totalRecords as number,
  };
}

/** A JSON body sent as written (JSON.stringify would not let a test write a raw \u0000 escape into a key). */
const raw = (text: string) => ({ method: "POST", body: text, headers: { "content-type": "application/json" } });

describe("NUL characters and lone surrogates", () => {
  it("in query strings and path segments: the family's 400 naming the parameter", async () => {
    const deliverables = await user("/v1/deliverable?query=%00");
    expect(deliverables.status).toBe(400);
    expect(deliverables.json).toEqual({ error: "InvalidText", message: expect.stringMatching(/query.*NUL/) });
    const items = await user("/template-item?query=ab%00cd");
    expect(items.status).toBe(400);
    expect(items.json).toMatchObject({ type: "ValidationError", data: { errors: [{ field: "query", message: expect.stringMatching(/NUL/) }] } });
    const documents = await contributor("/esign/documents?query=%00");
    expect(documents.status).toBe(400);
    expect(documents.json).toMatchObject({ code: "InvalidText", type: "InvalidText" });
    const hook = await admin("/api/webhooks/%00");
    expect(hook.status).toBe(400);
    expect(hook.json).toMatchObject({ type: "ValidationError", data: { errors: [{ field: "path" }] } });
    const outbox = await admin("/api/outbox?to=%00");
    expect(outbox.status).toBe(400);
  });

  it("in JSON fields (values and keys, NUL or an unpaired surrogate): 400 naming the field, nothing written", async () => {
    const before = await counts();
    const templateId = (await user("/template-item?type=template&query=Invoice")).json.data.results[0].id;
    for (const body of [
      `{"name":"Letter \\u0000 one","templateId":"${templateId}","variables":[]}`,
      `{"name":"Letter ab\\ud800cd","templateId":"${templateId}","variables":[]}`,
      `{"name":"Letter fine","templateId":"${templateId}","variables":[{"placeholder":"{invoice}","value":"{\\"a\\u0000\\":1}","mimeType":"text"}]}`,
      `{"name":"Letter fine","templateId":"${templateId}","variables":[],"tags":["ok","bad\\udc00"]}`,
    ]) {
      const res = await user("/v1/deliverable", raw(body));
      expect(res.status, body).toBe(400);
      expect(res.json.error).toBe("InvalidText");
      expect(res.json.message).toMatch(/^(name|variables\.0\.value|tags\.1) contains (a NUL|an unpaired UTF-16 surrogate)/);
    }
    const folder = await contributor("/template-folder", raw('{"name":"Fol\\u0000der"}'));
    expect(folder.status).toBe(400);
    expect(folder.json.data.errors[0]).toMatchObject({ field: "name" });
    const key = await contributor("/template-folder", raw('{"name":"ok","\\u0000":1}'));
    expect(key.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it("in multipart fields and file names: 400, nothing stored", async () => {
    const before = await counts();
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(buildDocx(["Hello {Name}"]))]), "letter.docx");
    form.set("name", "Bad\u0000name");
    const res = await contributor("/template", { method: "POST", body: form });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/NUL/);
    const named = new FormData();
    named.set("file", new Blob([new Uint8Array(buildDocx(["Hello {Name}"]))]), "let\u0000ter.docx");
    expect((await contributor("/template", { method: "POST", body: named })).status).toBe(400);
    expect(await counts()).toEqual(before);
  });
});

describe("deep nesting", () => {
  it("a markdown or html value thousands of levels deep is a 400 naming it, not a stack overflow", async () => {
    const before = await counts();
    const contractId = (await user("/template-item?type=template&query=services%20agreement")).json.data.results[0].id;
    for (const [mimeType, text] of [
      ["markdown", `${">".repeat(5_000)} deep`],
      ["html", `${"<blockquote>".repeat(5_000)}deep`],
    ]) {
      const res = await user("/v1/deliverable", {
        method: "POST",
        body: { name: "Deep", templateId: contractId, variables: [{ placeholder: "{@Scope}", text, mimeType }] },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.json).toEqual({ error: "NestingTooDeep", message: expect.stringMatching(/\{@Scope\}.*nested/) });
    }
    expect(await counts()).toEqual(before);
  });
});

describe("documents LibreOffice used to stop on", () => {
  it("a DOCX with Word comments becomes a template, a deliverable with its PDF, and a document to sign", async () => {
    const file = withWordComment(buildDocx(["Hello {Name}, welcome.", "Terms apply."]));
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(file)]), "commented.docx");
    const template = await contributor("/template", { method: "POST", body: form });
    expect(template.status, template.text).toBe(201);
    const created = await user("/v1/deliverable", {
      method: "POST",
      body: { name: "Commented", templateId: template.json.data.id, variables: [{ placeholder: "{Name}", text: "Ada", mimeType: "text" }] },
    });
    expect(created.status, created.text).toBe(200);
    const signing = new FormData();
    signing.set("file", new Blob([new Uint8Array(file)]), "commented.docx");
    signing.set("recipients", JSON.stringify([{ name: "Ada", email: "ada.comments@example.com" }]));
    signing.set("sendEmail", "false");
    const prepared = await contributor("/esign/single/prepare-for-signing", { method: "POST", body: signing });
    expect(prepared.status, prepared.text).toBe(200);
  });
});

describe("template messages in Quire's words", () => {
  const upload = (file: Buffer, name: string) => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(file)]), name);
    return contributor("/template", { method: "POST", body: form });
  };

  it("a {=…} tag is named with its place; a { in the document properties is just text", async () => {
    const formula = await upload(buildDocx(["Total: {= price * 2}"]), "formula.docx");
    expect(formula.status).toBe(400);
    expect(formula.json.message).toContain('"{= price * 2}" (word/document.xml) starts with "="');
    const zip = new PizZip(buildDocx(["Dear {Name}"]));
    zip.file(
      "docProps/core.xml",
      '<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Offer {draft</dc:title></cp:coreProperties>',
    );
    const props = await upload(zip.generate({ type: "nodebuffer" }), "props.docx");
    expect(props.status, props.text).toBe(201);
    expect(props.json.data.variables.map((v: { placeholder: string }) => v.placeholder)).toEqual(["{Name}"]);
    const made = await user("/v1/deliverable", {
      method: "POST",
      body: { name: "Props", templateId: props.json.data.id, variables: [{ placeholder: "{Name}", text: "Ada", mimeType: "text" }] },
    });
    expect(made.status, made.text).toBe(200);
  });

  it("a variableStack sharing its row with a section tag says exactly that", async () => {
    const cell = (t: string) => `<w:tc><w:p><w:r><w:t>${t}</w:t></w:r></w:p></w:tc>`;
    const zip = new PizZip(buildDocx(["Items"]));
    const doc = zip
      .file("word/document.xml")!
      .asText()
      .replace("<w:body>", `<w:body><w:tbl><w:tr>${cell("{#vip}VIP")}${cell("{Item}{/vip}")}</w:tr></w:tbl>`);
    zip.file("word/document.xml", doc);
    const template = await upload(zip.generate({ type: "nodebuffer" }), "stacked.docx");
    expect(template.status, template.text).toBe(201);
    const res = await user("/v1/deliverable", {
      method: "POST",
      body: {
        name: "Stacked",
        templateId: template.json.data.id,
        variables: [
          {
            placeholder: "{Item}",
            mimeType: "text",
            variableStack: [
              { text: "a", mimeType: "text" },
              { text: "b", mimeType: "text" },
            ],
          },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: "StackNotSupported",
      message: expect.stringContaining("{Item} has a variableStack, which repeats its whole table row, and that table row also holds {#vip}"),
    });
  });
});

describe("malformed percent-encoding in a path", () => {
  it("answers in the endpoint family's shape instead of a plain-text 500", async () => {
    const deliverable = await user("/v1/deliverable/%zz");
    expect(deliverable.status).toBe(400);
    expect(deliverable.json).toEqual({ error: "InvalidText", message: expect.stringMatching(/percent-encoding/) });
    const overlong = await contributor("/esign/documents/%C0%AE%C0%AE");
    expect(overlong.status).toBe(400);
    expect(overlong.json).toMatchObject({ code: "InvalidText", message: expect.stringMatching(/percent-encoding/) });
    const signer = await call(baseUrl, "/api/signer/%zz");
    expect(signer.status).toBe(400);
    expect(signer.json).toEqual({ error: expect.stringMatching(/percent-encoding/), code: "invalid_text" });
    const hook = await admin("/api/webhooks/%zz");
    expect(hook.status).toBe(400);
    expect(hook.json.type).toBe("ValidationError");
    const page = await fetch(`${baseUrl}/templates/%zz`);
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(/not a valid URL/);
  });
});

describe("download file names", () => {
  it("cannot name a path and quote RFC 8187's reserved characters", async () => {
    const templateId = (await user("/template-item?type=template&query=Invoice")).json.data.results[0].id;
    for (const [name, plain, star] of [
      ["../../etc/passwd", 'filename="_.._etc_passwd.pdf"', "filename*=UTF-8''_.._etc_passwd.pdf"],
      ["Offer (draft) it's *final*", `filename="Offer (draft) it's _final_.pdf"`, "filename*=UTF-8''Offer%20%28draft%29%20it%27s%20_final_.pdf"],
      ["Zoë: Q4\\Q1", 'filename="Zo__ Q4_Q1.pdf"', "filename*=UTF-8''Zo%C3%AB_%20Q4_Q1.pdf"],
    ] as const) {
      const created = await user("/v1/deliverable", { method: "POST", body: { name, templateId, variables: [] } });
      expect(created.status, created.text).toBe(200);
      const res = await fetch(`${baseUrl}/v1/deliverable/file/pdf/${created.json.data.results.deliverable.id}`, {
        headers: { authorization: `Bearer ${seed.keys.user}`, "x-service-org-id": seed.orgId },
      });
      const disposition = res.headers.get("content-disposition") ?? "";
      expect(disposition, name).toContain(plain);
      expect(disposition, name).toContain(star);
    }
  });
});

describe("outbound addresses", () => {
  it("refuses a file link whose IPv6 address hides a loopback (::7f00:1) or a private range", async () => {
    const before = await counts();
    for (const host of ["[::7f00:1]", "[::ffff:7f00:1]", "[64:ff9b::a00:1]", "[2002:7f00:1::]"]) {
      const res = await contributor("/esign/single/prepare-for-signing", {
        method: "POST",
        body: { fileLink: `https://${host}/contract.pdf`, recipients: [{ name: "A", email: "a@example.com" }] },
      });
      expect(res.status, host).toBe(400);
      expect(res.json.message, host).toMatch(/private|public|not allowed|loopback/i);
    }
    expect(await counts()).toEqual(before);
  });
});

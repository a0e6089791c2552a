// Saved field layouts (issue 19 item 10): fields for signer roles saved once, then a document sent from
// the layout with only names and emails; its fields equal the layout's, read back through the signer API.
import { describe, expect, inject, it } from "vitest";
import { as } from "../support/helpers";
import { prepareDoc, signingUrlOf, tokenOfUrl } from "../support/embedded";
import { signerApi } from "../support/esign";

const server = inject("quire");
const { baseUrl, seed, other } = server;
const contributor = as(baseUrl, seed, "contributor");

const FIELDS = [
  { role: "Client", type: "signature", page: 1, x: 50, y: 600, width: 160, height: 40 },
  { role: "client", type: "date", page: 1, x: 250, y: 610, width: 100, height: 20 },
  { role: "Witness", type: "signature", page: 1, x: 50, y: 700, width: 160, height: 40, required: false },
];

async function uploadedDraft(): Promise<string> {
  const res = await prepareDoc(baseUrl, seed, [{ name: "Dora", email: "dora@example.com" }], {}, { path: "/esign/single/prepare-for-review" });
  expect(res.status, res.text).toBe(200);
  return res.json.data.documentId;
}

async function saveLayout(body: Record<string, unknown>) {
  return contributor("/esign/layouts", { method: "POST", body });
}

/** The fields a recipient of a document sees, through a signing URL (sendEmail false). */
async function fieldsOf(documentId: string, recipientId: string) {
  const url = await signingUrlOf(baseUrl, seed, documentId, { recipientId });
  expect(url.status, url.text).toBe(200);
  const session = await signerApi(baseUrl, tokenOfUrl(url.json.data.results.url)).session();
  expect(session.status, session.text).toBe(200);
  return (session.json.data.fields as { type: string; page: number; x: number; y: number; width: number; height: number; required: boolean }[]).map(
    ({ type, page, x, y, width, height, required }) => ({ type, page, x, y, width, height, required }),
  );
}

describe("saved field layouts", () => {
  it("a layout saved from an uploaded PDF is reused: the document gets the layout's fields for each role", async () => {
    const documentId = await uploadedDraft();
    const saved = await saveLayout({ name: "NDA two parties", roles: ["Client", "Witness"], documentId, fields: FIELDS });
    expect(saved.status, saved.text).toBe(201);
    const layout = saved.json.data;
    expect(layout).toMatchObject({ name: "NDA two parties", sourceKind: "document", sourceRef: documentId, pageCount: 1, roles: ["Client", "Witness"] });
    expect(layout.fields[1]).toMatchObject({ role: "Client", type: "date", required: true });
    expect(layout.fields[2].required).toBe(false);
    expect((await contributor(`/esign/layouts/${layout.id}`)).json.data).toEqual(layout);
    expect((await contributor("/esign/layouts")).json.data.map((l: { id: string }) => l.id)).toContain(layout.id);

    // Roles named, in another order than the layout's.
    const sent = await contributor("/esign/single/prepare-for-signing", {
      method: "POST",
      body: {
        layoutId: layout.id,
        sendEmail: false,
        recipients: [
          { name: "Walt Witness", email: "walt@example.com", role: "witness" },
          { name: "Cleo Client", email: "cleo@example.com", role: "Client" },
        ],
      },
    });
    expect(sent.status, sent.text).toBe(200);
    const { documentId: fromLayout, recipients } = sent.json.data;
    const walt = recipients.find((r: { email: string }) => r.email === "walt@example.com");
    const cleo = recipients.find((r: { email: string }) => r.email === "cleo@example.com");
    const strip = ({ role: _r, ...f }: (typeof layout.fields)[number]) => f;
    expect(await fieldsOf(fromLayout, cleo.id)).toEqual(layout.fields.filter((f: { role: string }) => f.role === "Client").map(strip));
    // Each signs in the place of its role, whatever the order given.
    expect([cleo.signingOrder, walt.signingOrder]).toEqual([1, 2]);
    expect((await contributor(`/esign/documents/${fromLayout}`)).json.data.name).toBe("NDA two parties");

    // By order (both at once here): the first recipient takes the first role.
    const review = await contributor("/esign/single/prepare-for-review", {
      method: "POST",
      body: {
        layoutId: layout.id,
        sendEmail: false,
        recipients: [
          { name: "First", email: "first@example.com", signingOrder: 1 },
          { name: "Second", email: "second@example.com", signingOrder: 1 },
        ],
      },
    });
    expect(review.status, review.text).toBe(200);
    expect(review.json.data.status).toBe("draft");
    const byEmail = (e: string) => review.json.data.recipients.find((r: { email: string }) => r.email === e);
    expect((await contributor(`/esign/documents/${review.json.data.documentId}/send`, { method: "POST" })).status).toBe(200);
    expect(await fieldsOf(review.json.data.documentId, byEmail("first@example.com").id)).toEqual(
      layout.fields.filter((f: { role: string }) => f.role === "Client").map(strip),
    );
    expect(await fieldsOf(review.json.data.documentId, byEmail("second@example.com").id)).toEqual(
      layout.fields.filter((f: { role: string }) => f.role === "Witness").map(strip),
    );

    // Deleting the layout leaves the documents sent from it.
    expect((await as(baseUrl, seed, "user")(`/esign/layouts/${layout.id}`, { method: "DELETE" })).status).toBe(403);
    expect((await as(baseUrl, other, "administrator")(`/esign/layouts/${layout.id}`, { method: "DELETE" })).status).toBe(404);
    const deleted = await contributor(`/esign/layouts/${layout.id}`, { method: "DELETE" });
    expect(deleted.json.data).toEqual({ id: layout.id, name: "NDA two parties", deleted: true });
    expect((await contributor(`/esign/layouts/${layout.id}`)).json.code ?? (await contributor(`/esign/layouts/${layout.id}`)).json.type).toBe("LayoutNotFound");
    expect((await contributor(`/esign/documents/${fromLayout}`)).status).toBe(200);
    const gone = await contributor("/esign/single/prepare-for-signing", {
      method: "POST",
      body: {
        layoutId: layout.id,
        recipients: [
          { name: "A", email: "a@example.com" },
          { name: "B", email: "b@example.com" },
        ],
      },
    });
    expect(gone.status).toBe(404);
  });

  it("a signer's fields come in reading order (page, top to bottom, left to right), whatever order they were placed in", async () => {
    const placed = [
      { y: 700, x: 50 },
      { y: 100, x: 300 },
      { y: 400, x: 50 },
      { y: 100, x: 50 },
    ].map((at) => ({ type: "text", recipientEmail: "rita@example.com", page: 1, width: 120, height: 20, ...at }));
    const res = await prepareDoc(baseUrl, seed, [{ name: "Rita", email: "rita@example.com" }], { fields: placed });
    expect(res.status, res.text).toBe(200);
    const [rita] = res.json.data.recipients as { id: string }[];
    const seen = (await fieldsOf(res.json.data.documentId, rita.id)).map(({ x, y }) => [x, y]);
    expect(seen).toEqual([
      [50, 100],
      [300, 100],
      [50, 400],
      [50, 700],
    ]);
  });

  it("a layout on a template keeps its PDF; other organizations and read-only roles cannot use or change it", async () => {
    const templates = await contributor("/template-item?type=template&query=services%20agreement");
    const templateId = templates.json.data.results[0].id;
    const saved = await saveLayout({ name: "Services", roles: ["Client"], templateId, fields: [FIELDS[0]] });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.json.data).toMatchObject({ sourceKind: "templateId", sourceRef: templateId, roles: ["Client"] });
    const id = saved.json.data.id;

    const foreign = as(baseUrl, other, "administrator");
    expect((await foreign(`/esign/layouts/${id}`)).status).toBe(404);
    expect((await foreign("/esign/layouts")).json.data.map((l: { id: string }) => l.id)).not.toContain(id);
    const foreignUse = await foreign("/esign/single/prepare-for-signing", {
      method: "POST",
      body: { layoutId: id, recipients: [{ name: "X", email: "x@example.com" }] },
    });
    expect(foreignUse.status).toBe(404);
    expect((await as(baseUrl, seed, "viewer")("/esign/layouts", { method: "POST", body: { name: "n", roles: ["A"], templateId, fields: [] } })).status).toBe(
      403,
    );
    expect((await as(baseUrl, seed, "viewer")(`/esign/layouts/${id}`)).status).toBe(200);

    const used = await contributor("/esign/single/prepare-for-signing", {
      method: "POST",
      body: { layoutId: id, sendEmail: false, recipients: [{ name: "Cy", email: "cy@example.com" }] },
    });
    expect(used.status, used.text).toBe(200);
    expect(await fieldsOf(used.json.data.documentId, used.json.data.recipients[0].id)).toEqual([
      { type: "signature", page: 1, x: 50, y: 600, width: 160, height: 40, required: true },
    ]);
  });

  it("recipients that do not match the roles, and bad layouts, get clear 400s and create nothing", async () => {
    const documentId = await uploadedDraft();
    const layout = (await saveLayout({ name: "Pair", roles: ["Client", "Witness"], documentId, fields: FIELDS })).json.data;
    const before = (await contributor("/esign/documents?limit=100")).json.data.totalRecords;
    const send = (body: Record<string, unknown>) =>
      contributor("/esign/single/prepare-for-signing", { method: "POST", body: { layoutId: layout.id, ...body } });
    const two = [
      { name: "A", email: "a@example.com" },
      { name: "B", email: "b@example.com" },
    ];

    const cases: [Record<string, unknown>, string, string][] = [
      [{ recipients: [two[0]] }, "LayoutRecipientsMismatch", "Client, Witness"],
      [{ recipients: [...two, { name: "C", email: "c@example.com" }] }, "LayoutRecipientsMismatch", "got 3"],
      [
        {
          recipients: [
            { ...two[0], role: "Client" },
            { ...two[1], role: "Notary" },
          ],
        },
        "LayoutRoleUnknown",
        "Notary",
      ],
      [
        {
          recipients: [
            { ...two[0], role: "Client" },
            { ...two[1], role: "client" },
          ],
        },
        "LayoutRoleDuplicate",
        "client",
      ],
      [{ recipients: [{ ...two[0], role: "Client" }, two[1]] }, "LayoutRoleMissing", "recipients.1"],
      [
        { recipients: two, fields: [{ type: "text", recipientEmail: "a@example.com", page: 1, x: 1, y: 1, width: 10, height: 10 }] },
        "LayoutFieldsGiven",
        "layout",
      ],
      [{ recipients: two, templateId: "x" }, "DocumentSourceInvalid", "layoutId"],
    ];
    for (const [body, code, says] of cases) {
      const res = await send(body);
      expect(res.status, `${code}: ${res.text}`).toBe(400);
      expect(res.json.code ?? res.json.type, res.text).toBe(code);
      expect(res.text).toContain(says);
    }
    expect((await contributor("/esign/documents?limit=100")).json.data.totalRecords).toBe(before);

    const bad: [Record<string, unknown>, string, string][] = [
      [{ name: "x", roles: ["A"], fields: [{ ...FIELDS[0], role: "A" }] }, "LayoutSourceInvalid", "none"],
      [{ name: "x", roles: ["A", "a"], documentId, fields: [{ ...FIELDS[0], role: "A" }] }, "LayoutRoleDuplicate", "twice"],
      [{ name: "x", roles: ["A"], documentId, fields: [{ ...FIELDS[0], role: "B" }] }, "LayoutRoleUnknown", "fields.0.role"],
      [{ name: "x", roles: ["A", "B"], documentId, fields: [{ ...FIELDS[0], role: "A" }] }, "SignerWithoutFields", "B"],
      [{ name: "x", roles: ["A"], documentId, fields: [{ ...FIELDS[0], role: "A", x: 500 }] }, "FieldOutOfPage", "does not fit"],
      [{ name: "x", roles: ["A"], documentId, fields: [{ ...FIELDS[0], role: "A", page: 2 }] }, "FieldOutOfDocument", "1 page"],
    ];
    for (const [body, code, says] of bad) {
      const res = await saveLayout(body);
      expect(res.status, `${code}: ${res.text}`).toBe(400);
      expect(res.json.code ?? res.json.type, res.text).toBe(code);
      expect(res.text).toContain(says);
    }
    expect((await saveLayout({ name: "x", roles: ["A"], documentId: crypto.randomUUID(), fields: [{ ...FIELDS[0], role: "A" }] })).status).toBe(404);
    expect((await contributor("/esign/layouts/not-a-uuid")).status).toBe(404);
  });
});

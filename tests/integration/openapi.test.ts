// GET /api/openapi.json from the running server, and real replies of the running server checked
// against the response schemas that document states (ajv, JSON Schema 2020-12): the document is
// proven to describe what the server sends, success and error bodies alike.
import crypto from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { as, call, type ApiReply } from "../support/api";
import { prepareDoc } from "../support/embedded";
import { describeErrors, openApiValidator } from "../support/openapi";
import { buildDocx } from "../support/ooxml";

const { baseUrl, seed } = inject("quire");
const admin = as(baseUrl, seed, "administrator");
const contributor = as(baseUrl, seed, "contributor");

let doc: { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>> };
let v: ReturnType<typeof openApiValidator>;

/** The reply's status is documented for this operation, and its body matches the documented schema. */
function expectDocumented(method: string, path: string, reply: ApiReply, status?: number) {
  const label = `${method.toUpperCase()} ${path} -> ${reply.status}`;
  if (status !== undefined) expect(reply.status, `${label}: ${reply.text.slice(0, 300)}`).toBe(status);
  const documented = doc.paths[path]?.[method]?.responses[String(reply.status)];
  expect(documented, `${label} is not documented (${reply.text.slice(0, 300)})`).toBeDefined();
  if (!documented!.content) {
    expect(reply.text, `${label}: documented without a body`).toBe("");
    return;
  }
  const errors = v.responseErrors(method, path, reply.status, reply.json);
  expect(errors, `${label}: ${describeErrors(errors)}\n${reply.text.slice(0, 2000)}`).toEqual([]);
}

beforeAll(async () => {
  const r = await call(baseUrl, "/api/openapi.json");
  expect(r.status, r.text).toBe(200);
  doc = r.json;
  v = openApiValidator(doc);
});

describe("GET /api/openapi.json", () => {
  it("serves the OpenAPI 3.1 document without a key, cacheable and open to any origin", async () => {
    const res = await fetch(`${baseUrl}/api/openapi.json`, { headers: { origin: "https://elsewhere.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = await res.json();
    expect(body.openapi).toBe("3.1.0");
    expect(body.servers).toEqual([{ url: baseUrl }]);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(["/v1/deliverable", "/template-item", "/esign/documents/{id}/signing-url", "/api/webhooks/{name}/test"]),
    );
    expect(body.components.securitySchemes.organization).toMatchObject({ type: "apiKey", in: "header", name: "x-service-org-id" });
  });
});

describe("real replies match the documented schemas", () => {
  it("service endpoints", async () => {
    expectDocumented("get", "/api/whoami", await contributor("/api/whoami"));
    expectDocumented("get", "/api/health", await call(baseUrl, "/api/health"));
    expectDocumented("get", "/api/ready", await call(baseUrl, "/api/ready"));
    expectDocumented("get", "/api/outbox", await admin("/api/outbox?limit=5"));
    expectDocumented(
      "get",
      "/api/whoami",
      await call(baseUrl, "/api/whoami", { headers: { authorization: "Bearer nope", "x-service-org-id": seed.orgId } }),
      401,
    );
  });

  it("templates, folders, tags and the template listing", async () => {
    const folder = await contributor("/template-folder", { method: "POST", body: { name: `OpenAPI ${crypto.randomUUID().slice(0, 8)}` } });
    expectDocumented("post", "/template-folder", folder, 201);
    const folderId = folder.json.data.id;
    expectDocumented("get", "/template-folder/{id}", await admin(`/template-folder/${folderId}`));
    expectDocumented(
      "patch",
      "/template-folder/{id}",
      await contributor(`/template-folder/${folderId}`, { method: "PATCH", body: { name: "OpenAPI renamed" } }),
    );

    const f = new FormData();
    f.set("file", new Blob([new Uint8Array(buildDocx(["Dear {Name},", "{Body}"]))]), "openapi.docx");
    f.set("name", "OpenAPI letter");
    f.set("templateFolderId", folderId);
    f.set("tags", JSON.stringify(["openapi", "letters"]));
    const uploaded = await contributor("/template", { method: "POST", body: f });
    expectDocumented("post", "/template", uploaded, 201);
    const templateId = uploaded.json.data.id;
    expectDocumented("get", "/template/{id}", await admin(`/template/${templateId}`));
    expectDocumented("patch", "/template/{id}", await contributor(`/template/${templateId}`, { method: "PATCH", body: { description: "Documented" } }));

    // Root (folders and templates), one folder's children, every template without tags.
    for (const query of ["", `?folderId=${folderId}`, "?type=template&showTags=false&column0=name&order0=desc&limit=3"]) {
      const list = await admin(`/template-item${query}`);
      expectDocumented("get", "/template-item", list);
      expect(list.json.data.results.length).toBeGreaterThan(0);
    }
    expect((await admin("/template-item")).json.data.results.some((i: { type: string }) => i.type === "folder")).toBe(true);
    expectDocumented("get", "/tag", await admin("/tag"));

    // Errors of the listing family: validation, not found, the empty 401.
    expectDocumented("get", "/template-item", await admin("/template-item?limit=abc"), 400);
    expectDocumented("get", "/template/{id}", await admin(`/template/${crypto.randomUUID()}`), 404);
    expectDocumented("get", "/template-item", await call(baseUrl, "/template-item"), 401);
    expectDocumented("delete", "/template-folder/{id}", await contributor(`/template-folder/${folderId}`, { method: "DELETE" }), 409);

    expectDocumented("delete", "/template/{id}", await contributor(`/template/${templateId}`, { method: "DELETE" }));
    expectDocumented("delete", "/template-folder/{id}", await contributor(`/template-folder/${folderId}`, { method: "DELETE" }), 200);
  });

  it("deliverables", async () => {
    const f = new FormData();
    f.set("file", new Blob([new Uint8Array(buildDocx(["Hello {Name}", "{Items}"]))]), "openapi-deliverable.docx");
    const templateId = (await contributor("/template", { method: "POST", body: f })).json.data.id;
    const created = await contributor("/v1/deliverable", {
      method: "POST",
      body: {
        name: "OpenAPI deliverable",
        templateId,
        tags: ["openapi"],
        variables: [
          { placeholder: "{Name}", text: "Ada", mimeType: "text" },
          {
            placeholder: "{Items}",
            mimeType: "text",
            variableStack: [
              { text: "one", mimeType: "text" },
              { text: "two", mimeType: "text" },
            ],
          },
        ],
      },
    });
    expectDocumented("post", "/v1/deliverable", created, 200);
    const id = created.json.data.results.deliverable.id;
    expectDocumented("get", "/v1/deliverable", await admin("/v1/deliverable?showTags=true&limit=5"));
    expectDocumented("get", "/v1/deliverable", await admin("/v1/deliverable"));
    const one = await admin(`/v1/deliverable/${id}?showTags=true`);
    expectDocumented("get", "/v1/deliverable/{id}", one);
    expect(one.json.data.results.variables).toHaveLength(2);
    expectDocumented("get", "/v1/deliverable/{id}", await admin(`/v1/deliverable/${id}`));
    expectDocumented(
      "patch",
      "/v1/deliverable/{id}",
      await contributor(`/v1/deliverable/${id}`, { method: "PATCH", body: { name: "OpenAPI deliverable 2", tags: [] } }),
    );

    // Errors of the deliverable family.
    expectDocumented("post", "/v1/deliverable", await contributor("/v1/deliverable", { method: "POST", body: { name: "x" } }), 400);
    expectDocumented(
      "post",
      "/v1/deliverable",
      await contributor("/v1/deliverable", { method: "POST", body: { name: "OpenAPI", templateId: crypto.randomUUID(), variables: [] } }),
      404,
    );
    expectDocumented(
      "patch",
      "/v1/deliverable/{id}",
      await as(baseUrl, seed, "viewer")(`/v1/deliverable/${id}`, { method: "PATCH", body: { name: "nope" } }),
      403,
    );
    expectDocumented("delete", "/v1/deliverable/{id}", await contributor(`/v1/deliverable/${id}`, { method: "DELETE" }));
    expectDocumented("get", "/v1/deliverable/{id}", await admin(`/v1/deliverable/${id}`), 404);
  });

  it("signing documents, signing URLs and settings", async () => {
    const prepared = await prepareDoc(baseUrl, seed, [
      { name: "Ada Signer", email: "ada.openapi@example.com", externalId: `ext-${crypto.randomUUID()}` },
      { name: "Bob Signer", email: "bob.openapi@example.com" },
    ]);
    expectDocumented("post", "/esign/single/prepare-for-signing", prepared, 200);
    const { documentId, recipients } = prepared.json.data;
    expectDocumented("get", "/esign/documents/{id}", await admin(`/esign/documents/${documentId}`));
    expectDocumented("get", "/esign/documents", await admin("/esign/documents?limit=3"));
    expectDocumented("get", "/esign/documents/{id}/status", await admin(`/esign/documents/${documentId}/status`));

    const url = await contributor(`/esign/documents/${documentId}/signing-url`, {
      method: "POST",
      body: { recipientId: recipients[0].id, returnUrl: "https://app.example/done" },
    });
    expectDocumented("post", "/esign/documents/{id}/signing-url", url, 200);
    expectDocumented(
      "post",
      "/esign/documents/{id}/signing-url",
      await contributor(`/esign/documents/${documentId}/signing-url`, { method: "POST", body: { externalId: recipients[0].externalId } }),
    );
    const link = await contributor(`/esign/documents/${documentId}/recipients/${recipients[0].id}/signing-link`);
    expectDocumented("get", "/esign/documents/{id}/recipients/{recipientId}/signing-link", link);
    expect(link.headers.get("deprecation")).toBe("true");
    expectDocumented("get", "/esign/embedded-signing-settings", await as(baseUrl, seed, "viewer")("/esign/embedded-signing-settings"));

    // Errors of the signing family: a coded 400, a plain 403, the two 404 bodies, a 409.
    expectDocumented(
      "post",
      "/esign/documents/{id}/signing-url",
      await contributor(`/esign/documents/${documentId}/signing-url`, { method: "POST", body: {} }),
      400,
    );
    expectDocumented(
      "post",
      "/esign/documents/{id}/signing-url",
      await as(baseUrl, seed, "user")(`/esign/documents/${documentId}/signing-url`, { method: "POST", body: { recipientId: recipients[0].id } }),
      403,
    );
    expectDocumented(
      "post",
      "/esign/documents/{id}/signing-url",
      await contributor(`/esign/documents/${crypto.randomUUID()}/signing-url`, { method: "POST", body: { recipientId: recipients[0].id } }),
      404,
    );
    expectDocumented(
      "post",
      "/esign/documents/{id}/signing-url",
      await contributor(`/esign/documents/${documentId}/signing-url`, { method: "POST", body: { externalId: "nobody" } }),
      404,
    );
    expectDocumented(
      "post",
      "/esign/documents/{id}/signing-url",
      await contributor(`/esign/documents/${documentId}/signing-url`, { method: "POST", body: { recipientId: recipients[1].id } }),
      409,
    );

    expectDocumented(
      "post",
      "/esign/documents/{id}/resend-email",
      await contributor(`/esign/documents/${documentId}/resend-email`, { method: "POST", body: {} }),
    );
    expectDocumented("get", "/esign/documents/{id}/audit-trail", await admin(`/esign/documents/${documentId}/audit-trail`));
    const jsonDownload = await contributor(`/esign/documents/${documentId}/download`, { headers: { accept: "application/json" } });
    expectDocumented("get", "/esign/documents/{id}/download", jsonDownload, 200);
    const token = new URL(jsonDownload.json.data.downloadUrl).pathname.split("/").pop()!;
    expectDocumented("get", "/esign/files/{token}", await call(baseUrl, `/esign/files/${token.slice(0, -4)}AAAA`), 403);
    expectDocumented(
      "post",
      "/esign/documents/{id}/void",
      await contributor(`/esign/documents/${documentId}/void`, { method: "POST", body: { reason: "Documented" } }),
    );

    const review = await prepareDoc(
      baseUrl,
      seed,
      [{ name: "Cy Reviewer", email: "cy.openapi@example.com" }],
      {},
      { path: "/esign/single/prepare-for-review" },
    );
    expectDocumented("post", "/esign/single/prepare-for-review", review);
    expectDocumented("post", "/esign/documents/{id}/send", await contributor(`/esign/documents/${review.json.data.documentId}/send`, { method: "POST" }));
  });

  it("webhooks and their deliveries", async () => {
    const name = `openapi-${crypto.randomBytes(3).toString("hex")}`;
    // Nothing listens there: the test delivery fails, which the delivery documents too.
    const created = await admin("/api/webhooks", {
      method: "POST",
      body: { name, urls: ["https://127.0.0.1:9/hook"], events: ["signature.document.completed"] },
    });
    expectDocumented("post", "/api/webhooks", created, 201);
    expectDocumented(
      "post",
      "/api/webhooks",
      await admin("/api/webhooks", { method: "POST", body: { name, urls: ["https://127.0.0.1:9/hook"], events: ["signature.document.completed"] } }),
      409,
    );
    expectDocumented(
      "post",
      "/api/webhooks",
      await admin("/api/webhooks", { method: "POST", body: { name: "bad name!", urls: ["http://plain.example"], events: [] } }),
      400,
    );
    expectDocumented(
      "post",
      "/api/webhooks",
      await contributor("/api/webhooks", { method: "POST", body: { name, urls: ["https://127.0.0.1:9/hook"], events: ["signature.document.completed"] } }),
      403,
    );

    expectDocumented("get", "/api/webhooks", await admin("/api/webhooks"));
    expectDocumented("get", "/api/webhooks/{name}", await admin(`/api/webhooks/${name}`));
    expectDocumented("get", "/api/webhooks/{name}", await admin(`/api/webhooks/no-such-${name}`), 404);
    expectDocumented(
      "patch",
      "/api/webhooks/{name}",
      await admin(`/api/webhooks/${name}`, { method: "PATCH", body: { events: ["signature.document.completed", "signature.document.voided"] } }),
    );

    const tested = await admin(`/api/webhooks/${name}/test`, { method: "POST", body: {} });
    expectDocumented("post", "/api/webhooks/{name}/test", tested);
    expect(tested.json.data.deliveries[0].isDelivered).toBe(false);
    const list = await admin(`/api/webhooks/${name}/deliveries?limit=10`);
    expectDocumented("get", "/api/webhooks/{name}/deliveries", list);
    expect(list.json.data.results.length).toBeGreaterThan(0);
    expectDocumented(
      "post",
      "/api/webhooks/{name}/deliveries/{deliveryId}/replay",
      await admin(`/api/webhooks/${name}/deliveries/${list.json.data.results[0].id}/replay`, { method: "POST" }),
    );
    expectDocumented("post", "/api/webhooks/{name}/regenerate-secret", await admin(`/api/webhooks/${name}/regenerate-secret`, { method: "POST" }));

    expectDocumented("patch", "/api/webhooks/{name}", await admin(`/api/webhooks/${name}`, { method: "PATCH", body: { isActive: false } }));
    expectDocumented("post", "/api/webhooks/{name}/test", await admin(`/api/webhooks/${name}/test`, { method: "POST", body: {} }), 400);
    expectDocumented("delete", "/api/webhooks/{name}", await admin(`/api/webhooks/${name}`, { method: "DELETE" }));
  });
});

// S3-compatible storage end to end: a Quire server with STORAGE_DRIVER=s3 against a local s3rver
// keeps templates and generated files as objects, serves them back, and reports readiness by them.
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, authHeaders, call } from "../support/api";
import { onePagePdf } from "../support/esign";
import { buildDocx } from "../support/ooxml";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";
import { startS3Server } from "../support/s3-server";

const CRON_SECRET = "a-cron-secret-for-tests-0123456789";
let s3: Awaited<ReturnType<typeof startS3Server>>;
let quire: RunningQuire;
let baseUrl: string;

async function objectKeys(): Promise<string[]> {
  const client = new S3Client({
    region: "us-east-1",
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  const res = await client.send(new ListObjectsV2Command({ Bucket: "quire" }));
  return (res.Contents ?? []).map((o) => o.Key!);
}

beforeAll(async () => {
  s3 = await startS3Server();
  quire = await startQuireServer((process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase, { extraEnv: { ...s3.env, CRON_SECRET } });
  baseUrl = quire.server.baseUrl;
});

afterAll(async () => {
  await quire?.stop();
  await s3?.stop();
});

describe("S3 storage", () => {
  it("stores templates and generated documents as objects and serves them back", async () => {
    const admin = as(baseUrl, quire.server.seed, "administrator");
    // The seed put the sample templates into the bucket, under the configured prefix.
    const seeded = await objectKeys();
    expect(seeded.length).toBeGreaterThanOrEqual(2);
    expect(seeded.every((k) => k.startsWith("quire/"))).toBe(true);

    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(buildDocx(["Hello {Name}"]))]), "hello.docx");
    const template = await admin("/template", { method: "POST", body: form });
    expect(template.status, template.text).toBe(201);
    const created = await admin("/v1/deliverable", {
      method: "POST",
      body: { name: "Hello Ada", templateId: template.json.data.id, variables: [{ placeholder: "{Name}", text: "Ada", mimeType: "text" }] },
    });
    expect(created.status, created.text).toBe(200);
    const id = created.json.data.results.deliverable.id;
    expect((await objectKeys()).length).toBe(seeded.length + 3); // the template, the DOCX, the PDF

    const pdf = await fetch(`${baseUrl}/v1/deliverable/file/pdf/${id}`, {
      headers: { authorization: `Bearer ${quire.server.seed.keys.user}`, "x-service-org-id": quire.server.seed.orgId },
    });
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const source = await fetch(`${baseUrl}/template/${template.json.data.id}/file`, {
      headers: { authorization: `Bearer ${quire.server.seed.keys.user}`, "x-service-org-id": quire.server.seed.orgId },
    });
    expect(
      Buffer.from(await source.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe("PK");
  });

  it("hands out an S3 presigned URL as a document's JSON download link: keyless, the same bytes", async () => {
    const contributor = as(baseUrl, quire.server.seed, "contributor");
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await onePagePdf("Stored on S3"))]), "s3.pdf");
    form.set("documentName", "On S3");
    form.set("sendEmail", "false");
    form.set("recipients", JSON.stringify([{ name: "Sue", email: "sue@example.com" }]));
    form.set("fields", JSON.stringify([{ type: "signature", recipientEmail: "sue@example.com", page: 1, x: 50, y: 120, width: 150, height: 40 }]));
    const prepared = await contributor("/esign/single/prepare-for-signing", { method: "POST", body: form });
    expect(prepared.status, prepared.text).toBe(200);
    const id = prepared.json.data.documentId;

    const link = await contributor(`/esign/documents/${id}/download`, { headers: { "content-type": "application/json" } });
    expect(link.status, link.text).toBe(200);
    const url = new URL(link.json.data.downloadUrl);
    expect(url.origin).toBe(s3.endpoint);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("300");
    const file = await fetch(url);
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    const keyed = await fetch(`${baseUrl}/esign/documents/${id}/download`, { headers: authHeaders(quire.server.seed, "contributor") });
    expect(bytes.equals(Buffer.from(await keyed.arrayBuffer()))).toBe(true);
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    // S3 itself checks the signature (s3rver, the test double, does not); the URL carries one.
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("drives webhook deliveries from the cron route only with its secret", async () => {
    expect((await call(baseUrl, "/api/cron/webhooks")).status).toBe(401);
    expect((await call(baseUrl, "/api/cron/webhooks", { headers: { authorization: "Bearer not-the-secret" } })).status).toBe(401);
    const ok = await call(baseUrl, "/api/cron/webhooks", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(ok.status).toBe(200);
    expect(ok.json.data.attempted).toBeGreaterThanOrEqual(0);
    expect(ok.json.data.reminded).toBeGreaterThanOrEqual(0);
  });

  it("is ready while the bucket answers and not ready once it is gone; liveness stays up", async () => {
    const ready = await call(baseUrl, "/api/ready");
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: "ready", database: "ok", storage: "ok", pdfConverter: "ok" });
    await s3.stop();
    const gone = await call(baseUrl, "/api/ready");
    expect(gone.status).toBe(503);
    expect(gone.json).toMatchObject({ status: "not_ready", database: "ok", storage: "unavailable" });
    expect((await call(baseUrl, "/api/health")).status).toBe(200);
  });
});

import fs from "node:fs";
import path from "node:path";
import PizZip from "pizzip";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { buildSampleProposalPptx } from "@/lib/templates/samples";
import { as, call } from "../support/helpers";
import { buildDocx } from "../support/ooxml";
import { deflatedZeros, writeZip } from "../support/zip";

const { baseUrl, seed, other, dataDir } = inject("quire");
const admin = as(baseUrl, seed, "administrator");
const contributor = as(baseUrl, seed, "contributor");
const viewer = as(baseUrl, seed, "viewer");
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

function form(file: Buffer, fileName: string, fields: Record<string, string> = {}): FormData {
  const f = new FormData();
  f.set("file", new Blob([new Uint8Array(file)]), fileName);
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

async function upload(fileName: string, fields: Record<string, string> = {}, file = buildDocx([`Hello {Name} from {Company}`])) {
  return contributor("/template", { method: "POST", body: form(file, fileName, fields) });
}

function storedFiles(orgId: string): string[] {
  const dir = path.join(dataDir, "files", "templates", orgId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

async function listAll(query: string, caller = admin) {
  return caller(`/template-item?${query}`);
}

describe("POST /template", () => {
  it("stores a DOCX with its placeholders and tags, including tags Word split across runs", async () => {
    const file = buildDocx([["Dear {Cli", "ent", "Name}"], "Total: {Fee} due {DueDate}", "Again {Fee}"]);
    const res = await upload("Offer letter.docx", { description: "Standard offer", tags: JSON.stringify(["Sales", "Offer-Letters", "sales"]) }, file);
    expect(res.status).toBe(201);
    const t = res.json.data;
    expect(t).toMatchObject({
      name: "Offer letter",
      description: "Standard offer",
      type: "template",
      isActive: true,
      templateFolderId: null,
      fileType: DOCX,
      fileSize: file.length,
      deliverableCount: 0,
    });
    expect(t.variables).toEqual([
      { placeholder: "{ClientName}", name: "ClientName", kind: "text" },
      { placeholder: "{Fee}", name: "Fee", kind: "text" },
      { placeholder: "{DueDate}", name: "DueDate", kind: "text" },
    ]);
    expect(t.tags.map((x: { label: string }) => x.label)).toEqual(["Offer-Letters", "Sales"]);
    expect(t.email).toBe(seed.login.email);

    const got = await viewer(`/template/${t.id}`);
    expect(got.status).toBe(200);
    expect(got.json.data.variables).toEqual(t.variables);
  });

  it("stores a PPTX", async () => {
    const res = await upload("Proposal.pptx", { name: "Proposal deck" }, await buildSampleProposalPptx());
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ name: "Proposal deck", fileType: PPTX });
    expect(res.json.data.variables.map((v: { name: string }) => v.name)).toContain("ClientName");
  });

  const zeros = Buffer.alloc(4096);
  const hostile: [string, string, Buffer, RegExp][] = [
    ["an empty file", "empty.docx", Buffer.alloc(0), /empty/i],
    ["a PDF renamed .docx", "renamed.docx", Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\ntrailer\n%%EOF"), /PDF/],
    ["random bytes", "noise.docx", Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919) % 251)), /DOCX|PPTX|Office Open XML/i],
    ["a truncated DOCX", "truncated.docx", buildDocx(["{A}"]).subarray(0, 200), /corrupt|damaged|incomplete/i],
    ["a text file", "notes.txt", Buffer.from("hello {Name}"), /\.docx|\.pptx|DOCX|PPTX/],
    ["unbalanced braces", "broken.docx", buildDocx(["Dear {Client", "Total {Fee}"]), /\{Client|unbalanced|unclosed|not closed/i],
    ["a stray closing brace", "stray.docx", buildDocx(["Dear Name} and {Fee}"]), /Name\}|unopened|not opened|closing/i],
    [
      "a zip that is not OOXML",
      "plain.docx",
      (() => {
        const z = new PizZip();
        z.file("a.txt", zeros);
        return z.generate({ type: "nodebuffer" });
      })(),
      /DOCX|Office|word\/document/i,
    ],
  ];

  it("refuses a zip bomb (300 MB declared inside a small file) with 400 and nothing stored", async () => {
    const size = 300 * 1024 * 1024;
    const bomb = writeZip([{ name: "word/media/zeros.bin", data: await deflatedZeros(size), uncompressedSize: size }]);
    const filesBefore = storedFiles(seed.orgId).length;
    const res = await upload("bomb.docx", {}, bomb);
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/zip bomb/i);
    expect(storedFiles(seed.orgId).length).toBe(filesBefore);
  });

  it.each(hostile)("refuses %s with 400, a message naming the problem, and nothing stored", async (_label, fileName, file, message) => {
    const filesBefore = storedFiles(seed.orgId).length;
    const countBefore = (await listAll("type=template&limit=1")).json.data.totalRecords;
    const res = await upload(fileName, {}, file);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ type: "ValidationError", data: { errors: expect.any(Array) } });
    expect(res.json.message).toMatch(message);
    expect(storedFiles(seed.orgId).length).toBe(filesBefore);
    expect((await listAll("type=template&limit=1")).json.data.totalRecords).toBe(countBefore);
  });

  it("refuses a file over the size limit before reading it", async () => {
    const big = Buffer.alloc(27 * 1024 * 1024, 1);
    const res = await upload("big.docx", {}, big);
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/larger than|limit/i);
  });

  it("refuses a request without a file, or with bad fields, listing every error", async () => {
    const noFile = new FormData();
    noFile.set("name", "x");
    expect((await contributor("/template", { method: "POST", body: noFile })).status).toBe(400);
    const bad = await upload("ok.docx", { templateFolderId: "nope", tags: "[not json" });
    expect(bad.status).toBe(400);
    expect(bad.json.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(["tags", "templateFolderId"]);
  });

  it("enforces roles with empty 401/403 bodies", async () => {
    const anonymous = await call(baseUrl, "/template", { method: "POST", body: form(buildDocx(["{A}"]), "a.docx") });
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toBe("");
    for (const role of ["viewer", "user"] as const) {
      const res = await as(baseUrl, seed, role)("/template", { method: "POST", body: form(buildDocx(["{A}"]), "a.docx") });
      expect(res.status).toBe(403);
      expect(res.text).toBe("");
    }
  });
});

describe("template detail, update, delete, download", () => {
  let id: string;
  beforeAll(async () => {
    id = (await upload("Lifecycle.docx", { tags: JSON.stringify(["One"]) })).json.data.id;
  });

  it("updates name, description and tags (replacing them; [] clears)", async () => {
    const res = await contributor(`/template/${id}`, { method: "PATCH", body: { name: "Lifecycle v2", description: "d", tags: ["Two", "Three"] } });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ name: "Lifecycle v2", description: "d" });
    expect(res.json.data.tags.map((t: { label: string }) => t.label)).toEqual(["Three", "Two"]);
    const cleared = await contributor(`/template/${id}`, { method: "PATCH", body: { tags: [] } });
    expect(cleared.json.data.tags).toEqual([]);
  });

  it("rejects bad updates with every error listed", async () => {
    const res = await contributor(`/template/${id}`, { method: "PATCH", body: { name: "", tags: "x", color: "red" } });
    expect(res.status).toBe(400);
    expect(res.json.data.errors.length).toBeGreaterThanOrEqual(3);
    expect((await viewer(`/template/${id}`, { method: "PATCH", body: { name: "x" } })).status).toBe(403);
  });

  it("downloads the original file for writers, not for viewers", async () => {
    const res = await fetch(`${baseUrl}/template/${id}/file`, { headers: { authorization: `Bearer ${seed.keys.user}`, "x-service-org-id": seed.orgId } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(DOCX);
    expect(res.headers.get("content-disposition")).toContain('filename="Lifecycle v2.docx"');
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe("PK");
    expect((await viewer(`/template/${id}/file`)).status).toBe(403);
  });

  it("keeps other organizations out", async () => {
    const res = await as(baseUrl, other, "administrator")(`/template/${id}`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: "Template not found" });
    expect((await as(baseUrl, other, "administrator")(`/template/${id}`, { method: "DELETE" })).status).toBe(404);
    expect((await admin(`/template/not-a-uuid`)).status).toBe(404);
  });

  it("soft-deletes: gone from reads and listings, and from the list's total", async () => {
    const before = (await listAll("type=template&limit=1000")).json.data;
    expect(before.totalRecords).toBe(before.results.length);
    const res = await contributor(`/template/${id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ message: "Template deleted", templateId: id });
    expect((await admin(`/template/${id}`)).status).toBe(404);
    const listed = (await listAll("type=template&limit=1000")).json.data;
    expect(listed.results.map((r: { id: string }) => r.id)).not.toContain(id);
    // The unfiltered total comes from a counter the database keeps: it follows the rows.
    expect([listed.totalRecords, listed.results.length]).toEqual([before.totalRecords - 1, before.totalRecords - 1]);
  });
});

describe("the seeded demo workspace", () => {
  it("holds the sample DOCX and PPTX in folders, ready to generate from", async () => {
    const root = await admin("/template-item?limit=100");
    const sales = root.json.data.results.find((r: { name: string; type: string }) => r.type === "folder" && r.name === "Sales");
    expect(sales).toBeDefined();
    expect(sales.templateCount).toBeGreaterThanOrEqual(2);
    const found = await admin("/template-item?type=template&query=services%20agreement");
    expect(found.json.data.totalRecords).toBe(1);
    const detail = await admin(`/template/${found.json.data.results[0].id}`);
    expect(detail.json.data.variables.map((v: { placeholder: string }) => v.placeholder)).toEqual(
      expect.arrayContaining(["{ClientName}", "{@Scope}", "{%Logo}"]),
    );
    const deck = await admin("/template-item?type=template&query=project%20proposal");
    expect(deck.json.data.results[0].fileType).toBe(PPTX);
  });
});

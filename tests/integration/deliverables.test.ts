// Size: one operation family's scenarios against one server and its sample templates.
// /v1/deliverable, over HTTP, as the OpenAPI document and docs/contract.md "Error bodies" describe it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import PizZip from "pizzip";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { buildSampleProposalPptx } from "@/lib/templates/samples";
import { as, call, roomInThisMinute, runSeedAgainst } from "../support/helpers";
import {
  buildDocx,
  houseStyleXml,
  latentStylesXml,
  listDefinitionXml,
  rsidsXml,
  withHouseStyles,
  withUnusedNumbering,
  withSlideComments,
  withSpeakerNotes,
  withWordEditingData,
} from "../support/ooxml";

const quire = inject("quire");
const { baseUrl, seed, other, dataDir } = quire;
const user = as(baseUrl, seed, "user");
const viewer = as(baseUrl, seed, "viewer");
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

let templateId: string; // a small DOCX uploaded for these tests
let contractId: string; // the seeded sample contract

function pdfText(pdf: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-pdf-")), "d.pdf");
  fs.writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

async function download(pathname: string, role: "user" | "viewer" | "administrator" = "user", who = seed) {
  const res = await fetch(`${baseUrl}${pathname}`, { headers: { authorization: `Bearer ${who.keys[role]}`, "x-service-org-id": who.orgId } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

function deliverableFiles(orgId: string): string[] {
  const dir = path.join(dataDir, "files", "deliverables", orgId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

const textVars = (name: string) => [
  { placeholder: "{Name}", text: name, mimeType: "text" },
  { placeholder: "{Company}", text: "Acme & Sons <Ltd>", mimeType: "text" },
];

async function create(body: Record<string, unknown>, caller = user) {
  return caller("/v1/deliverable", { method: "POST", body });
}

/** A one-line letter template ("Hello {Name}") uploaded by the organization's administrator; its id and size. */
async function uploadLetter(org: typeof seed): Promise<{ id: string; size: number }> {
  const file = buildDocx(["Hello {Name}"]);
  const f = new FormData();
  f.set("file", new Blob([new Uint8Array(file)]), "letter.docx");
  return { id: (await as(baseUrl, org, "administrator")("/template", { method: "POST", body: f })).json.data.id, size: file.length };
}

/** A create of that letter. */
const letter = (templateId: string, name = "Counted") => ({ name, templateId, variables: [{ placeholder: "{Name}", text: "a", mimeType: "text" }] });

beforeAll(async () => {
  const f = new FormData();
  f.set("file", new Blob([new Uint8Array(buildDocx(["Hello {Name} from {Company}"]))]), "letter.docx");
  templateId = (await as(baseUrl, seed, "administrator")("/template", { method: "POST", body: f })).json.data.id;
  contractId = (await as(baseUrl, seed, "administrator")("/template-item?type=template&query=services%20agreement")).json.data.results[0].id;
});

describe("POST /v1/deliverable", () => {
  it("generates the document and its PDF, answering the 2.3 shape", async () => {
    const res = await create({ name: "Letter for Ada", templateId, variables: textVars("Ada"), description: "first", tags: ["letters"] });
    expect(res.status, res.text).toBe(200);
    const d = res.json.data.results.deliverable;
    expect(Object.keys(d).sort()).toEqual([
      "createdBy",
      "createdOn",
      "defaultFont",
      "description",
      "fonts",
      "id",
      "isActive",
      "name",
      "templateId",
      "updatedOn",
    ]);
    expect(d).toMatchObject({ name: "Letter for Ada", description: "first", templateId, isActive: true, defaultFont: "" });
    const pdf = await download(`/v1/deliverable/file/pdf/${d.id}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toContain('filename="Letter for Ada.pdf"');
    expect(pdfText(pdf.body)).toContain("Hello Ada from Acme & Sons <Ltd>");
    const source = await download(`/v1/deliverable/file/${d.id}`);
    expect(source.headers.get("content-type")).toBe(DOCX);
    expect(source.headers.get("content-disposition")).toContain('filename="Letter for Ada.docx"');
    expect(source.body.toString("latin1")).toContain("PK");
  });

  it("fills the sample contract with text, html, a stack and an image", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const res = await create({
      name: "Contract for Globex",
      templateId: contractId,
      variables: [
        { placeholder: "{ClientName}", text: "Globex Corporation", mimeType: "text" },
        { placeholder: "{@Scope}", text: "<p>Build <b>the portal</b></p><ul><li>Design</li><li>Delivery</li></ul>", mimeType: "html" },
        { placeholder: "{%Logo}", text: `data:image/png;base64,${png}`, mimeType: "image" },
        {
          placeholder: "{ItemName}",
          mimeType: "text",
          variableStack: [
            { text: "Discovery", mimeType: "text" },
            { text: "Build", mimeType: "text" },
          ],
        },
        { placeholder: "{Fee}", text: "12,000 EUR", mimeType: "text" },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const text = pdfText((await download(`/v1/deliverable/file/pdf/${res.json.data.results.deliverable.id}`)).body);
    for (const expected of ["Globex Corporation", "the portal", "Design", "Delivery", "Discovery", "Build", "12,000 EUR"]) expect(text).toContain(expected);
  });

  it("converts a template saved by Word (latent styles, revision ids, a glossary, unused house styles and lists), and keeps all of it in the source", async () => {
    const file = withUnusedNumbering(withHouseStyles(withWordEditingData(buildDocx(["Dear {Name},", "Regards"]))));
    const f = new FormData();
    f.set("file", new Blob([new Uint8Array(file)]), "word-saved.docx");
    const wordSaved = (await as(baseUrl, seed, "administrator")("/template", { method: "POST", body: f })).json.data.id;
    // Twice: the second document's copy for LibreOffice is made from the leaner parts kept after the first.
    for (const name of ["Grace", "Linus"]) {
      const res = await create({ name: `Word-saved for ${name}`, templateId: wordSaved, variables: [{ placeholder: "{Name}", text: name, mimeType: "text" }] });
      expect(res.status, res.text).toBe(200);
      const id = res.json.data.results.deliverable.id;
      const text = pdfText((await download(`/v1/deliverable/file/pdf/${id}`)).body);
      expect(text).toContain(`Dear ${name},`);
      expect(text.match(/Click or tap here to enter placeholder text 0\./g)).toHaveLength(1);
      const source = new PizZip((await download(`/v1/deliverable/file/${id}`)).body);
      expect(source.file("word/styles.xml")!.asText()).toContain(latentStylesXml(376));
      expect(source.file("word/settings.xml")!.asText()).toContain(rsidsXml(600));
      expect(source.file("word/glossary/document.xml")!.asText()).toContain("DefaultPlaceholder_11");
      expect(source.file("word/styles.xml")!.asText()).toContain(houseStyleXml(149));
      expect(source.file("word/numbering.xml")!.asText()).toContain(listDefinitionXml(939));
    }
  });

  it("converts a deck with speaker notes and comments to its slides alone, and keeps the notes and comments in the source", async () => {
    const file = withSlideComments(withSpeakerNotes(await buildSampleProposalPptx()));
    const f = new FormData();
    f.set("file", new Blob([new Uint8Array(file)]), "with-notes.pptx");
    const deck = (await as(baseUrl, seed, "administrator")("/template", { method: "POST", body: f })).json.data.id;
    // Twice: the second document's copy for LibreOffice is made from the leaner parts kept after the first.
    for (const client of ["Globex", "Initech"]) {
      const variables = [
        { placeholder: "{ProposalTitle}", text: `Proposal for ${client}`, mimeType: "text" },
        { placeholder: "{Price}", text: "12,000 EUR", mimeType: "text" },
      ];
      const res = await create({ name: `Deck for ${client}`, templateId: deck, variables });
      expect(res.status, res.text).toBe(200);
      const id = res.json.data.results.deliverable.id;
      const text = pdfText((await download(`/v1/deliverable/file/pdf/${id}`)).body);
      expect(text).toContain(`Proposal for ${client}`);
      expect(text).toContain("Total price: 12,000 EUR");
      expect(text.match(/\f/g)).toHaveLength(3); // three slides, no notes pages
      expect(text).not.toMatch(/Speaker note|Check this on slide/);
      const source = new PizZip((await download(`/v1/deliverable/file/${id}`)).body);
      expect(source.file("ppt/slides/_rels/slide3.xml.rels")!.asText()).toMatch(/notesSlide3\.xml.*comment3\.xml/);
      expect(source.file("ppt/notesSlides/notesSlide3.xml")!.asText()).toContain("Speaker note 5 for slide 3");
      expect(source.file("ppt/comments/comment3.xml")!.asText()).toContain("Check this on slide 3 (4).");
    }
  });

  it("answers 400 for missing or mistyped fields and 422 for length constraints", async () => {
    const missing = await create({ templateId, variables: [] });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: "ValidationError", message: expect.stringContaining("name") });
    expect((await create({ name: "Okay name", templateId, variables: [{ placeholder: "{Name}", text: "x", mimeType: "pdf" }] })).status).toBe(400);
    expect((await create({ name: "Okay name", templateId, variables: [{ placeholder: "{Name}", mimeType: "text" }] })).status).toBe(400);
    const sub = { placeholder: "{First}", mimeType: "text", text: "A", subvariables: [] };
    const nested = await create({
      name: "Okay name",
      templateId,
      variables: [{ placeholder: "{Name}", mimeType: "html", text: "<p>{First}</p>", subvariables: [sub] }],
    });
    expect(nested.status).toBe(400);
    expect(nested.text).toContain("one level only");
    expect((await create({ name: "ab", templateId, variables: textVars("x") })).status).toBe(422);
    expect((await create({ name: "x".repeat(256), templateId, variables: textVars("x") })).status).toBe(422);
    expect((await create({ name: "Okay name", description: "d".repeat(65_536), templateId, variables: textVars("x") })).status).toBe(422);
    const prompt = await create({
      name: "Okay name",
      templateId,
      variables: [{ placeholder: "{Name}", text: "x", mimeType: "text", aiPrompt: "p".repeat(16_001) }],
    });
    expect(prompt.status).toBe(422);
    const onlyPrompt = await create({ name: "Okay name", templateId, variables: [{ placeholder: "{Name}", mimeType: "text", aiPrompt: "Write a name" }] });
    expect(onlyPrompt.status).toBe(400);
    expect(onlyPrompt.json.message).toMatch(/AI provider/);
    const unknown = await create({ name: "Okay name", templateId, variables: [{ placeholder: "{Nope}", text: "x", mimeType: "text" }] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toContain("{Nope}");
  });

  it("answers 404 for a template of another organization or a bad id, and 403 to viewers", async () => {
    const theirs = await as(baseUrl, other, "user")("/v1/deliverable", { method: "POST", body: { name: "Nope nope", templateId, variables: textVars("x") } });
    expect(theirs.status).toBe(404);
    expect((await create({ name: "Okay name", templateId: "x", variables: [] })).status).toBe(404);
    expect((await create({ name: "Okay name", templateId, variables: textVars("x") }, viewer)).status).toBe(403);
  });

  it("refuses an image URL that points inside the network, leaving nothing behind", async () => {
    const before = deliverableFiles(seed.orgId).length;
    const res = await create({
      name: "Sneaky image",
      templateId: contractId,
      variables: [{ placeholder: "{%Logo}", text: "https://169.254.169.254/latest/meta-data/logo.png", mimeType: "image" }],
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/private|local/);
    expect(deliverableFiles(seed.orgId).length).toBe(before);
  });

  const hostile: [string, () => Record<string, unknown>, number, RegExp][] = [
    [
      "an oversized text",
      () => ({ variables: [{ placeholder: "{Name}", text: "x".repeat(1_000_001), mimeType: "text" }] }),
      400,
      /1,?000,?000|too long|at most/i,
    ],
    [
      "a huge base64 image",
      () => ({
        templateId: contractId,
        variables: [{ placeholder: "{%Logo}", text: `data:image/png;base64,${"A".repeat(16 * 1024 * 1024)}`, mimeType: "image" }],
      }),
      400,
      /image|MB/i,
    ],
    [
      "text that is not an image",
      () => ({ templateId: contractId, variables: [{ placeholder: "{%Logo}", text: Buffer.from("hello").toString("base64"), mimeType: "image" }] }),
      400,
      /PNG|JPEG|GIF|image/i,
    ],
    [
      "1,001 variables",
      () => ({ variables: Array.from({ length: 1001 }, (_, i) => ({ placeholder: `{V${i}}`, text: "x", mimeType: "text" })) }),
      400,
      /1,?000/,
    ],
    ["a wrong mimeType", () => ({ variables: [{ placeholder: "{Name}", text: "x", mimeType: "pdf" }] }), 400, /mimeType/],
    ["a variable that is not an object", () => ({ variables: ["{Name}"] }), 400, /variables/],
  ];

  it.each(hostile)("refuses %s with the contract's error and leaves nothing behind", async (_label, body, status, message) => {
    const before = { files: deliverableFiles(seed.orgId).length, rows: (await user("/v1/deliverable?limit=1")).json.data.totalRecords };
    const res = await create({ name: "Hostile input", templateId, ...body() });
    expect(res.status, res.text.slice(0, 300)).toBe(status);
    expect(res.json.error).toEqual(expect.any(String));
    expect(res.json.message).toMatch(message);
    expect(deliverableFiles(seed.orgId).length).toBe(before.files);
    expect((await user("/v1/deliverable?limit=1")).json.data.totalRecords).toBe(before.rows);
  });

  it("renders broken html leniently instead of failing", async () => {
    const res = await create({
      name: "Broken html",
      templateId: contractId,
      variables: [
        { placeholder: "{@Scope}", text: "<p>Open <b><i>nested</b> tags<table><tr><td>cell", mimeType: "html" },
        { placeholder: "{ClientName}", text: "<script>alert(1)</script>", mimeType: "text" },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const text = pdfText((await download(`/v1/deliverable/file/pdf/${res.json.data.results.deliverable.id}`)).body);
    expect(text).toContain("nested");
    expect(text).toContain("cell");
    expect(text).toContain("<script>alert(1)</script>");
  });

  it("renders markdown and html subvariables", async () => {
    const res = await create({
      name: "Markdown one",
      templateId: contractId,
      variables: [
        {
          placeholder: "{@Scope}",
          text: "## Phase one\n\n- **Audit** the {System}\n- Report",
          mimeType: "markdown",
          subvariables: [{ placeholder: "{System}", text: "billing system", mimeType: "text" }],
        },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const text = pdfText((await download(`/v1/deliverable/file/pdf/${res.json.data.results.deliverable.id}`)).body);
    expect(text).toContain("Phase one");
    expect(text).toContain("Audit the billing system");
  });

  it("enforces the deliverable quota", async () => {
    const small = await runSeedAgainst(quire, ["--org", "quota", "--plan", JSON.stringify({ maxDeliverables: 1 })]);
    const { id } = await uploadLetter(small);
    const make = () => create(letter(id, "Quota test"), as(baseUrl, small, "user"));
    expect((await make()).status).toBe(200);
    const refused = await make();
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe("DeliverableQuotaExceeded");
    expect(deliverableFiles(small.orgId).length).toBe(2);
  });

  it("enforces the storage quota, counting templates and every stored deliverable file", async () => {
    const plan = async (maxStorageBytes: number) => {
      const seeded = await runSeedAgainst(quire, ["--org", "storage-quota", "--plan", JSON.stringify({ maxStorageBytes })]);
      // The seed CLI blocks this process; keep-alive sockets the server closed meanwhile fail once, on GETs.
      for (let i = 0; i < 3; i++) await fetch(`${baseUrl}/api/health`).catch(() => {});
      return seeded;
    };
    // Seeding again sets the plan and rotates the keys, so calls use the latest seed's.
    let org = await plan(50 * 1024 * 1024);
    const template = await uploadLetter(org);
    const make = () => create(letter(template.id, "Storage quota test"), as(baseUrl, org, "user"));
    expect((await make()).status).toBe(200);
    const dir = path.join(dataDir, "files", "deliverables", org.orgId);
    const stored = deliverableFiles(org.orgId).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
    // Room for the template, the first deliverable and half of another: the next one no longer fits.
    org = await plan(template.size + stored + Math.floor(stored / 2));
    const refused = await make();
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe("StorageQuotaExceeded");
    expect(deliverableFiles(org.orgId).length).toBe(2);
    org = await plan(template.size + 2 * stored + Math.floor(stored / 2));
    expect((await make()).status).toBe(200);
  });

  it("cleans up when the client disconnects during generation", async () => {
    const before = { files: deliverableFiles(seed.orgId).length, rows: (await user("/v1/deliverable?limit=1")).json.data.totalRecords };
    const controller = new AbortController();
    const pending = fetch(`${baseUrl}/v1/deliverable`, {
      method: "POST",
      headers: { authorization: `Bearer ${seed.keys.user}`, "x-service-org-id": seed.orgId, "content-type": "application/json" },
      // A long price table keeps the server busy (render + conversion) well past the abort below.
      body: JSON.stringify({
        name: "Abandoned",
        templateId: contractId,
        variables: [
          { placeholder: "{ClientName}", text: "Gone", mimeType: "text" },
          { placeholder: "{ItemName}", mimeType: "text", variableStack: Array.from({ length: 600 }, (_, i) => ({ text: `Line item ${i}`, mimeType: "text" })) },
        ],
      }),
      signal: controller.signal,
    }).catch((e) => e);
    setTimeout(() => controller.abort(), 150);
    await pending;
    await new Promise((r) => setTimeout(r, 3000));
    expect(deliverableFiles(seed.orgId).length).toBe(before.files);
    expect((await user("/v1/deliverable?limit=1")).json.data.totalRecords).toBe(before.rows);
  });
});

// On PostgreSQL a create's key is admitted by the statement that reads its template and the quotas (ADR
// 0022), and by its own statement when the request fails before that one; on the embedded database in
// memory (ADR 0021). Either way every request counts once, a 401 or 429 comes before anything else, and a
// refused create writes nothing.
describe("a create's key: admitted once per request, before anything is answered or written", () => {
  it("counts bad bodies and good ones alike, answers 429 past the plan's rate with nothing written, and 401 for a rotated key before a bad body's 400", async () => {
    await roomInThisMinute(30);
    const plan = ["--plan", JSON.stringify({ rateLimitPerMinute: 4 })];
    const limited = await runSeedAgainst(quire, ["--org", "create-rate", ...plan]);
    const { id: tid } = await uploadLetter(limited); // the administrator's key: the user's count is its own
    const make = (body: Record<string, unknown>, org = limited) => create(body, as(baseUrl, org, "user"));

    expect((await make({ name: "No template" })).status).toBe(400);
    expect((await make(letter(tid))).status).toBe(200);
    expect((await make({ ...letter(tid), templateId: "not-a-uuid" })).status).toBe(404);
    expect((await make(letter(tid))).status).toBe(200);
    // The plan's four requests are spent: the fifth is refused whatever its body says, and writes nothing.
    for (const body of [letter(tid), { name: "No template" }]) {
      const refused = await make(body);
      expect(refused.status, refused.text).toBe(429);
      expect(refused.json.error).toBe("RateLimitExceeded");
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    }
    expect(deliverableFiles(limited.orgId).length).toBe(4);

    // Seeding again rotates the keys: the old one gets 401 before its body is looked at.
    const rotated = await runSeedAgainst(quire, ["--org", "create-rate", ...plan]);
    for (const body of [letter(tid), { name: "No template" }, { ...letter(tid), templateId: "not-a-uuid" }]) expect((await make(body)).status).toBe(401);
    expect(deliverableFiles(limited.orgId).length).toBe(4);
    expect((await as(baseUrl, rotated, "user")("/v1/deliverable?limit=1")).json.data.totalRecords).toBe(2);
  });

  it.runIf(process.env.QUIRE_TEST_DB === "postgres")(
    "reads the plan in the create's own first statement: a quota lowered between two creates of a cached key applies to the second",
    async () => {
      const org = await runSeedAgainst(quire, ["--org", "create-plan", "--plan", JSON.stringify({ maxDeliverables: 10 })]);
      const { id: tid } = await uploadLetter(org);
      expect((await create(letter(tid), as(baseUrl, org, "user"))).status).toBe(200);
      const db = new pg.Client({ connectionString: quire.env.DATABASE_URL });
      await db.connect();
      try {
        await db.query(`UPDATE organization SET "maxDeliverables" = 1 WHERE id = $1`, [org.orgId]);
      } finally {
        await db.end();
      }
      const refused = await create(letter(tid), as(baseUrl, org, "user"));
      expect(refused.status, refused.text).toBe(403);
      expect(refused.json.error).toBe("DeliverableQuotaExceeded");
      expect(deliverableFiles(org.orgId).length).toBe(2);
    },
  );
});

describe("GET, PATCH, DELETE /v1/deliverable", () => {
  let ids: string[] = [];
  beforeAll(async () => {
    ids = [];
    for (const [i, tags] of [["red"], ["red", "blue"], ["blue"], [], ["red", "blue", "green"], ["green"], ["red"]].entries()) {
      const res = await create({ name: `Listed ${i} Item`, templateId, variables: textVars(`n${i}`), tags });
      ids.push(res.json.data.results.deliverable.id);
    }
  });

  it("lists newest first with limit 6 by default, paging by totalRecords", async () => {
    const first = await viewer("/v1/deliverable");
    expect(first.status).toBe(200);
    expect(first.json.data.results.length).toBe(6);
    const total = first.json.data.totalRecords;
    const seen: string[] = [];
    for (let offset = 0; offset < total; offset += 4)
      seen.push(...(await viewer(`/v1/deliverable?limit=4&offset=${offset}`)).json.data.results.map((r: { id: string }) => r.id));
    expect(new Set(seen).size).toBe(total);
    // Past the end: no rows, and still the total (which a page's rows carry otherwise).
    expect((await viewer(`/v1/deliverable?limit=4&offset=${total + 10}`)).json.data).toEqual({ results: [], totalRecords: total });
    const item = first.json.data.results[0];
    expect(item).not.toHaveProperty("tags");
    expect(Object.keys(item).sort()).toEqual([
      "createdBy",
      "createdOn",
      "defaultFont",
      "description",
      "email",
      "fileSize",
      "fileType",
      "fonts",
      "id",
      "isActive",
      "name",
      "templateId",
      "updatedOn",
    ]);
    expect(item.fileType).toBe(DOCX);
    expect(item.email).toBe(seed.login.email);
  });

  it("searches by name and filters by tags (AND), with tags as Tag objects when asked", async () => {
    const found = await viewer("/v1/deliverable?query=LISTED%203&showTags=true");
    expect(found.json.data.results.map((r: { id: string }) => r.id)).toEqual([ids[3]]);
    expect(found.json.data.results[0].tags).toEqual([]);
    const tags = (await viewer("/tag")).json.data.results as { id: string; label: string }[];
    const id = (label: string) => tags.find((t) => t.label === label)!.id;
    const red = await viewer(`/v1/deliverable?query=Listed&selectedTags=${id("red")}&limit=100`);
    expect(red.json.data.totalRecords).toBe(4);
    const both = await viewer(`/v1/deliverable?query=Listed&selectedTags=${id("red")}&selectedTags=${id("blue")}&showTags=true`);
    expect(both.json.data.results.map((r: { id: string }) => r.id).sort()).toEqual([ids[1], ids[4]].sort());
    expect(both.json.data.results[0].tags[0]).toMatchObject({ id: expect.any(String), label: expect.any(String), isActive: true, orgId: seed.orgId });
    const comma = await viewer(`/v1/deliverable?query=Listed&selectedTags=${id("red")},${id("blue")}`);
    expect(comma.json.data.totalRecords).toBe(2);
  });

  it("sorts by column0 and order0 like the template listing: ascending unless asked, ties broken by id", async () => {
    const names = async (q: string) => (await viewer(`/v1/deliverable?query=Listed&limit=100&${q}`)).json.data.results.map((r: { name: string }) => r.name);
    const byName = ["Listed 0 Item", "Listed 1 Item", "Listed 2 Item", "Listed 3 Item", "Listed 4 Item", "Listed 5 Item", "Listed 6 Item"];
    expect(await names("column0=name")).toEqual(byName);
    expect(await names("column0=name&order0=desc")).toEqual([...byName].reverse());
    expect(await names("column0=createdOn&order0=asc")).toEqual(byName);
    expect(await names("")).toEqual([...byName].reverse());
    expect(await names("order0=asc")).toEqual(byName);
    // One creator for all: the email sort falls back to the id, which still pages without repeats.
    const byEmail = (await viewer("/v1/deliverable?query=Listed&limit=100&column0=email")).json.data.results.map((r: { id: string }) => r.id);
    const paged: string[] = [];
    for (let offset = 0; offset < 7; offset += 3)
      paged.push(...(await viewer(`/v1/deliverable?query=Listed&limit=3&offset=${offset}&column0=email`)).json.data.results.map((r: { id: string }) => r.id));
    expect(paged).toEqual(byEmail);
    expect(new Set(paged).size).toBe(7);
    expect((await viewer("/v1/deliverable?query=Listed&limit=3&offset=6")).json.data.totalRecords).toBe(7);
    expect((await viewer("/v1/deliverable?query=Listed&limit=3&offset=9")).json.data).toEqual({ results: [], totalRecords: 7 });
  });

  it("validates list parameters", async () => {
    for (const q of ["limit=0", "limit=101", "limit=x", "offset=-1", "selectedTags=nope", "showTags=maybe", "column0=size", "order0=up"]) {
      const res = await viewer(`/v1/deliverable?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.json.error).toBe("ValidationError");
    }
  });

  it("reads one with its variables, template name and tags", async () => {
    const res = await viewer(`/v1/deliverable/${ids[4]}?showTags=true`);
    expect(res.status).toBe(200);
    const d = res.json.data.results;
    expect(d).toMatchObject({ id: ids[4], templateId, templateName: "letter", templateNotDeleted: true, fileType: DOCX, isActive: true });
    expect(d.variables).toEqual(textVars("n4"));
    expect(d.tags.map((t: { label: string }) => t.label)).toEqual(["blue", "green", "red"]);
    expect((await viewer(`/v1/deliverable/${ids[4]}`)).json.data.results).not.toHaveProperty("tags");
    // The list renders timestamps and tags in its SQL: the same JSON as the single read's.
    const listed = (await viewer(`/v1/deliverable?query=${encodeURIComponent(d.name)}&showTags=true&limit=100`)).json.data.results;
    const row = listed.find((r: { id: string }) => r.id === ids[4]);
    expect(row).toMatchObject({ createdOn: d.createdOn, updatedOn: d.updatedOn, tags: d.tags });
    expect(row.createdOn).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await as(baseUrl, other, "viewer")(`/v1/deliverable/${ids[4]}`)).status).toBe(404);
  });

  it("updates only the fields sent; tags replace, [] clears", async () => {
    const res = await user(`/v1/deliverable/${ids[0]}`, { method: "PATCH", body: { name: "Renamed item", tags: ["x", "y"] } });
    expect(res.json).toEqual({ data: { message: expect.any(String), deliverableId: ids[0] } });
    let d = (await viewer(`/v1/deliverable/${ids[0]}?showTags=true`)).json.data.results;
    expect(d.name).toBe("Renamed item");
    expect(d.tags.map((t: { label: string }) => t.label)).toEqual(["x", "y"]);
    await user(`/v1/deliverable/${ids[0]}`, { method: "PATCH", body: { tags: [] } });
    d = (await viewer(`/v1/deliverable/${ids[0]}?showTags=true`)).json.data.results;
    expect(d.tags).toEqual([]);
    expect(d.name).toBe("Renamed item");
    expect((await user(`/v1/deliverable/${ids[0]}`, { method: "PATCH", body: { name: "no" } })).status).toBe(422);
    expect((await viewer(`/v1/deliverable/${ids[0]}`, { method: "PATCH", body: { name: "Viewer try" } })).status).toBe(403);
  });

  it("soft-deletes: not listed, not readable, not downloadable", async () => {
    // The unfiltered total is the organization's counter row; it must drop with the delete, like a count would.
    const totalBefore = (await viewer("/v1/deliverable?limit=1")).json.data.totalRecords;
    const res = await user(`/v1/deliverable/${ids[6]}`, { method: "DELETE" });
    expect(res.json).toEqual({ data: { message: expect.any(String), deliverableId: ids[6] } });
    expect((await viewer(`/v1/deliverable/${ids[6]}`)).status).toBe(404);
    expect((await download(`/v1/deliverable/file/pdf/${ids[6]}`)).status).toBe(404);
    expect((await viewer("/v1/deliverable?query=Listed%206")).json.data.totalRecords).toBe(0);
    const after = (await viewer("/v1/deliverable?limit=100")).json.data;
    expect(after.totalRecords).toBe(totalBefore - 1);
    if (after.totalRecords <= 100) expect(after.results.length).toBe(after.totalRecords);
  });

  it("lets viewers read but never download; the source needs hasFileDownload", async () => {
    expect((await download(`/v1/deliverable/file/pdf/${ids[1]}`, "viewer")).status).toBe(403);
    expect((await download(`/v1/deliverable/file/${ids[1]}`, "viewer")).status).toBe(403);
    const locked = await runSeedAgainst(quire, ["--org", "nodownload", "--plan", JSON.stringify({ hasFileDownload: false })]);
    const f = new FormData();
    f.set("file", new Blob([new Uint8Array(buildDocx(["Hi {Name}"]))]), "n.docx");
    const tid = (await as(baseUrl, locked, "administrator")("/template", { method: "POST", body: f })).json.data.id;
    const made = await as(
      baseUrl,
      locked,
      "user",
    )("/v1/deliverable", {
      method: "POST",
      body: { name: "Locked one", templateId: tid, variables: [{ placeholder: "{Name}", text: "a", mimeType: "text" }] },
    });
    const did = made.json.data.results.deliverable.id;
    const source = await download(`/v1/deliverable/file/${did}`, "user", locked);
    expect(source.status).toBe(403);
    expect(JSON.parse(source.body.toString())).toEqual({ error: "LicenseFeatureMissing", message: expect.stringContaining("hasFileDownload") });
    expect((await download(`/v1/deliverable/file/pdf/${did}`, "user", locked)).status).toBe(200);
  });

  it("reports templateNotDeleted=false once the template is deleted, and still serves the files", async () => {
    const f = new FormData();
    f.set("file", new Blob([new Uint8Array(buildDocx(["Bye {Name}"]))]), "bye.docx");
    const tid = (await as(baseUrl, seed, "administrator")("/template", { method: "POST", body: f })).json.data.id;
    const did = (await create({ name: "Orphan soon", templateId: tid, variables: [{ placeholder: "{Name}", text: "z", mimeType: "text" }] })).json.data.results
      .deliverable.id;
    await as(baseUrl, seed, "administrator")(`/template/${tid}`, { method: "DELETE" });
    expect((await viewer(`/v1/deliverable/${did}`)).json.data.results.templateNotDeleted).toBe(false);
    expect((await download(`/v1/deliverable/file/pdf/${did}`)).status).toBe(200);
  });

  it("answers 401 without a key, in the deliverable error shape", async () => {
    const res = await call(baseUrl, "/v1/deliverable");
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: "Unauthorized", message: expect.any(String) });
  });
});

// GET /template-item as the OpenAPI document describes it, plus folders (docs/contract.md "Templates and folders").
import { beforeAll, describe, expect, inject, it } from "vitest";
import { as, call } from "../support/helpers";
import { buildDocx } from "../support/ooxml";

const { baseUrl, seed, other } = inject("quire");
const admin = as(baseUrl, seed, "administrator");
const viewer = as(baseUrl, seed, "viewer");

type Item = { id: string; name: string; type: string; tags?: string[]; templateCount: number; deliverableCount: number; templateFolderId: string | null };

let lab: string; // folder "Listing Lab" at the root
let nested: string; // "Nested" inside lab
const ids: Record<string, string> = {};
const tagIds: Record<string, string> = {};

async function uploadInto(folderId: string, name: string, tags: string[]) {
  const f = new FormData();
  f.set("file", new Blob([new Uint8Array(buildDocx([`{Greeting} ${name}`]))]), `${name}.docx`);
  f.set("templateFolderId", folderId);
  f.set("tags", JSON.stringify(tags));
  const res = await admin("/template", { method: "POST", body: f });
  expect(res.status).toBe(201);
  ids[name] = res.json.data.id;
}

async function list(query: string, caller = admin): Promise<{ results: Item[]; totalRecords: number }> {
  const res = await caller(`/template-item?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}
const names = (items: Item[]) => items.map((i) => i.name);

beforeAll(async () => {
  lab = (await admin("/template-folder", { method: "POST", body: { name: "Listing Lab" } })).json.data.id;
  nested = (await admin("/template-folder", { method: "POST", body: { name: "Nested", parentId: lab } })).json.data.id;
  await uploadInto(lab, "alpha", ["red", "blue"]);
  await uploadInto(lab, "Bravo", ["red"]);
  await uploadInto(lab, "charlie", ["blue"]);
  await uploadInto(lab, "delta", ["red", "blue", "green"]);
  await uploadInto(lab, "Echo", []);
  await uploadInto(nested, "nested-one", ["red"]);
  for (const t of (await admin("/tag")).json.data.results) tagIds[t.label] = t.id;
});

describe("GET /template-item", () => {
  it("lists a folder's children: folders first, then templates by name (case-insensitive)", async () => {
    const page = await list(`folderId=${lab}`);
    expect(page.totalRecords).toBe(6);
    expect(names(page.results)).toEqual(["Nested", "alpha", "Bravo", "charlie", "delta", "Echo"]);
    const folder = page.results[0];
    expect(folder).toEqual({
      id: nested,
      name: "Nested",
      type: "folder",
      isActive: true,
      templateFolderId: lab,
      templateCount: 1,
      deliverableCount: 0,
      tags: [],
    });
    const alpha = page.results[1] as Item & Record<string, unknown>;
    expect(alpha).toMatchObject({
      type: "template",
      templateFolderId: lab,
      deliverableCount: 0,
      fileType: expect.stringContaining("wordprocessingml"),
      createdBy: expect.any(String),
      email: seed.login.email,
    });
    expect(alpha.tags).toEqual(["blue", "red"]);
    expect(Object.keys(alpha).sort()).toEqual(
      [
        "createdBy",
        "createdOn",
        "deliverableCount",
        "description",
        "email",
        "fileSize",
        "fileType",
        "id",
        "isActive",
        "name",
        "tags",
        "templateCount",
        "templateFolderId",
        "type",
        "updatedOn",
      ].sort(),
    );
  });

  it("says a template's timestamps as its single read does, in every listing shape", async () => {
    const single = (await admin(`/template/${ids.alpha}`)).json.data;
    expect(single.createdOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    for (const query of [`folderId=${lab}`, "type=template&limit=1000", "type=template&limit=1000&query=alpha"]) {
      const listed = (await list(query)).results.find((r) => r.id === ids.alpha) as unknown as Record<string, string>;
      expect({ createdOn: listed.createdOn, updatedOn: listed.updatedOn }, query).toEqual({ createdOn: single.createdOn, updatedOn: single.updatedOn });
    }
  });

  it("lists the root: root folders (with recursive counts) and root templates; limit defaults to 9", async () => {
    const page = await list("limit=1000");
    const labItem = page.results.find((r) => r.id === lab)!;
    expect(labItem.templateCount).toBe(6);
    expect(page.results.every((r) => r.templateFolderId === null)).toBe(true);
    expect(page.results.some((r) => r.id === nested)).toBe(false);
    const defaults = await list("");
    expect(defaults.results.length).toBe(Math.min(9, defaults.totalRecords));
  });

  it("type=template lists every template across folders and no folders", async () => {
    const page = await list("type=template&limit=1000");
    expect(page.results.every((r) => r.type === "template")).toBe(true);
    expect(page.results.map((r) => r.id)).toEqual(expect.arrayContaining(Object.values(ids)));
    expect(page.totalRecords).toBe(page.results.length);
  });

  it("pages to the end by totalRecords with limit and offset", async () => {
    const seen: string[] = [];
    let total = Infinity;
    for (let offset = 0; offset < total; offset += 4) {
      const page = await list(`type=template&limit=4&offset=${offset}&column0=name&order0=asc`);
      total = page.totalRecords;
      expect(page.results.length).toBe(Math.min(4, total - offset));
      seen.push(...page.results.map((r) => r.id));
    }
    expect(new Set(seen).size).toBe(total);
    const past = await list(`type=template&limit=4&offset=${total + 10}`);
    expect(past).toEqual({ results: [], totalRecords: total });
    // Past the end of a filtered list and of a folder's, the total is still the whole list's.
    expect(await list("type=template&query=a&limit=4&offset=1000")).toEqual({
      results: [],
      totalRecords: (await list("type=template&query=a&limit=1")).totalRecords,
    });
    expect(await list(`folderId=${lab}&offset=1000`)).toEqual({ results: [], totalRecords: 6 });
  });

  it("type=template pages in every sort order: its pages put together are the whole list, in that order", async () => {
    for (const column of ["name", "createdOn", "updatedOn", "email", "templateCount"]) {
      const whole: Record<string, Item[]> = {};
      for (const order of ["asc", "desc"]) {
        whole[order] = (await list(`type=template&limit=1000&column0=${column}&order0=${order}`)).results;
        const paged: Item[] = [];
        for (let offset = 0; offset < whole[order].length; offset += 3)
          paged.push(...(await list(`type=template&limit=3&offset=${offset}&column0=${column}&order0=${order}`)).results);
        expect(paged, `${column} ${order}`).toEqual(whole[order]);
      }
      // Ties are broken by id in the same direction, so one order is exactly the other reversed
      // (whatever the database's collation does with the names).
      expect(
        whole.desc.map((i) => i.id),
        column,
      ).toEqual(whole.asc.map((i) => i.id).reverse());
      if (column === "createdOn" || column === "updatedOn") {
        const stamps = whole.asc.map((i) => (i as unknown as Record<string, string>)[column]);
        expect(stamps).toEqual([...stamps].sort());
      }
    }
  });

  it("sorts by each column in both directions", async () => {
    expect(names((await list(`folderId=${lab}&column0=name&order0=desc`)).results)).toEqual(["Nested", "Echo", "delta", "charlie", "Bravo", "alpha"]);
    expect(names((await list(`folderId=${lab}&column0=createdOn&order0=asc`)).results)).toEqual(["Nested", "alpha", "Bravo", "charlie", "delta", "Echo"]);
    expect(names((await list(`folderId=${lab}&column0=createdOn&order0=desc`)).results)).toEqual(["Nested", "Echo", "delta", "charlie", "Bravo", "alpha"]);
    await admin(`/template/${ids.charlie}`, { method: "PATCH", body: { description: "touched" } });
    expect(names((await list(`folderId=${lab}&column0=updatedOn&order0=desc`)).results).slice(0, 2)).toEqual(["Nested", "charlie"]);
    expect((await list(`folderId=${lab}&column0=email&order0=asc`)).totalRecords).toBe(6);
    const root = (await list("column0=templateCount&order0=desc&limit=1000")).results.filter((r) => r.type === "folder");
    const counts = root.map((r) => r.templateCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it("searches names case-insensitively, treating wildcards literally", async () => {
    expect(names((await list(`folderId=${lab}&query=ALP`)).results)).toEqual(["alpha"]);
    expect(names((await list("type=template&query=NESTED-one")).results)).toEqual(["nested-one"]);
    expect((await list(`folderId=${lab}&query=%25`)).totalRecords).toBe(0);
    expect((await list(`folderId=${lab}&query=_`)).totalRecords).toBe(0);
  });

  it("filters by tags: a template must carry every selected tag (single, repeated, comma, [] forms)", async () => {
    const red = tagIds.red;
    const blue = tagIds.blue;
    expect(names((await list(`folderId=${lab}&selectedTags=${red}`)).results)).toEqual(["alpha", "Bravo", "delta"]);
    expect(names((await list(`folderId=${lab}&selectedTags=${red}&selectedTags=${blue}`)).results)).toEqual(["alpha", "delta"]);
    expect(names((await list(`folderId=${lab}&selectedTags=${red},${blue}`)).results)).toEqual(["alpha", "delta"]);
    expect(names((await list(`folderId=${lab}&selectedTags[]=${red}&selectedTags[]=${tagIds.green}`)).results)).toEqual(["delta"]);
    const everywhere = await list(`type=template&selectedTags=${red}&limit=100`);
    expect(names(everywhere.results)).toEqual(expect.arrayContaining(["alpha", "Bravo", "delta", "nested-one"]));
    expect(names((await list(`type=template&selectedTags=${red}&query=nest`)).results)).toEqual(["nested-one"]);
  });

  it("shows tags as strings by default and omits them with showTags=false", async () => {
    const shown = await list(`folderId=${lab}&query=delta`);
    expect(shown.results[0].tags).toEqual(["blue", "green", "red"]);
    const hidden = await list(`folderId=${lab}&query=delta&showTags=false`);
    expect(hidden.results[0]).not.toHaveProperty("tags");
  });

  it("lets viewers list", async () => {
    expect((await list(`folderId=${lab}`, viewer)).totalRecords).toBe(6);
  });

  it("answers 400 listing every validation error", async () => {
    const res = await admin("/template-item?limit=abc&offset=-1&column0=size&order0=up&selectedTags=nope&showTags=maybe&type=folder&folderId=x");
    expect(res.status).toBe(400);
    expect(res.json.type).toBe("ValidationError");
    expect(typeof res.json.message).toBe("string");
    expect(res.json.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ["column0", "folderId", "limit", "offset", "order0", "selectedTags.0", "showTags", "type"].sort(),
    );
    for (const q of ["limit=0", "limit=1.5", "limit=", "offset=ten", "column0=NAME", "order0=ASC"]) {
      expect((await admin(`/template-item?${q}`)).status, q).toBe(400);
    }
  });

  it("keeps organizations apart and answers 401/403 with empty bodies", async () => {
    const theirs = await as(baseUrl, other, "administrator")("/template-item?type=template&limit=100");
    expect(theirs.json.data.results.map((r: Item) => r.id)).not.toEqual(expect.arrayContaining([ids.alpha]));
    expect((await as(baseUrl, other, "administrator")(`/template-item?folderId=${lab}`)).status).toBe(404);
    const none = await call(baseUrl, "/template-item");
    expect([none.status, none.text]).toEqual([401, ""]);
    const wrongOrg = await call(baseUrl, "/template-item", { headers: { authorization: `Bearer ${seed.keys.viewer}`, "x-service-org-id": other.orgId } });
    expect([wrongOrg.status, wrongOrg.text]).toEqual([403, ""]);
  });
});

describe("template folders", () => {
  it("refuses to delete a non-empty folder, saying what is inside", async () => {
    const res = await admin(`/template-folder/${lab}`, { method: "DELETE" });
    expect(res.status).toBe(409);
    expect(res.json.message).toMatch(/not empty/);
  });

  it("refuses to move a folder into its own subfolder", async () => {
    const res = await admin(`/template-folder/${lab}`, { method: "PATCH", body: { parentId: nested } });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/itself|subfolder/);
  });

  it("renames and moves folders and templates; deletes an emptied folder", async () => {
    expect((await admin(`/template-folder/${nested}`, { method: "PATCH", body: { name: "Nested (renamed)" } })).json.data.name).toBe("Nested (renamed)");
    const detail = await admin(`/template-folder/${nested}`);
    expect(detail.json.data.path.map((p: { name: string }) => p.name)).toEqual(["Listing Lab", "Nested (renamed)"]);
    const moved = await admin(`/template/${ids["nested-one"]}`, { method: "PATCH", body: { templateFolderId: lab } });
    expect(moved.json.data.templateFolderId).toBe(lab);
    expect((await admin(`/template-folder/${nested}`, { method: "DELETE" })).json.data).toEqual({ message: "Folder deleted", folderId: nested });
    expect((await admin(`/template-folder/${nested}`)).status).toBe(404);
    expect((await list(`folderId=${lab}`)).totalRecords).toBe(6);
  });

  it("validates folder input and roles", async () => {
    const bad = await admin("/template-folder", { method: "POST", body: { name: "", parentId: "x", extra: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.json.data.errors.length).toBe(3);
    expect((await admin("/template-folder", { method: "POST", body: { name: "x", parentId: "00000000-0000-4000-8000-000000000000" } })).status).toBe(400);
    const forbidden = await viewer("/template-folder", { method: "POST", body: { name: "x" } });
    expect([forbidden.status, forbidden.text]).toEqual([403, ""]);
  });
});

describe("deliverable counts", () => {
  it("counts a template's active deliverables on every listing path, and a folder's across its subtree", async () => {
    const create = async (template: string) => {
      const res = await admin("/v1/deliverable", {
        method: "POST",
        body: { name: `From ${template}`, templateId: ids[template], variables: [{ placeholder: "{Greeting}", text: "Hello", mimeType: "text" }] },
      });
      expect(res.status, res.text).toBe(200);
      return res.json.data.results.deliverable.id as string;
    };
    const [first] = [await create("Echo"), await create("Echo"), await create("nested-one")];
    expect((await admin(`/v1/deliverable/${first}`, { method: "DELETE" })).status).toBe(200);
    const count = (items: Item[], name: string) => items.find((i) => i.name === name)?.deliverableCount;
    const inLab = (await list(`folderId=${lab}`)).results;
    expect([count(inLab, "Echo"), count(inLab, "alpha"), count(inLab, "nested-one")]).toEqual([1, 0, 1]);
    // By now nested-one lives in the lab too (moved by an earlier test): the lab folder counts both.
    const atRoot = (await list("query=listing%20lab")).results;
    expect(atRoot.find((i) => i.id === lab)?.deliverableCount).toBe(2);
    const templatesOnly = (await list("type=template&query=echo")).results;
    expect(count(templatesOnly, "Echo")).toBe(1);
    const tagged = (await list(`folderId=${lab}&selectedTags=${tagIds.red}&showTags=true`)).results;
    expect(tagged.find((i) => i.name === "nested-one")).toMatchObject({ deliverableCount: 1, tags: ["red"] });
  });
});

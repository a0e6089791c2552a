// Deleting a draft (issue 19 item 12; docs/contract.md "Signing documents"): drafts only, with their
// stored PDF; 409 DocumentNotDeletable once sent; a delete racing a send is a compare-and-set.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { as } from "../support/helpers";
import { prepareDoc } from "../support/embedded";

const server = inject("quire");
const { baseUrl, seed, other } = server;
const contributor = as(baseUrl, seed, "contributor");

/** Stored files of a document (local storage under DATA_DIR/files). */
function filesOf(documentId: string): string[] {
  const root = path.join(server.dataDir, "files");
  return fs.existsSync(root) ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.includes(documentId) && f.endsWith(".pdf")) : [];
}

const draft = async (email: string) => {
  const res = await prepareDoc(baseUrl, seed, [{ name: "Dora", email }], {}, { path: "/esign/single/prepare-for-review" });
  expect(res.status, res.text).toBe(200);
  expect(res.json.data.status).toBe("draft");
  return res.json.data.documentId as string;
};

describe("deleting a draft", () => {
  it("removes the draft and its stored PDF; only senders of its own organization may", async () => {
    const id = await draft("dora@example.com");
    expect(filesOf(id).length).toBeGreaterThan(0);

    expect((await as(baseUrl, seed, "user")(`/esign/documents/${id}`, { method: "DELETE" })).status).toBe(403);
    const foreign = await as(baseUrl, other, "administrator")(`/esign/documents/${id}`, { method: "DELETE" });
    expect(foreign.status).toBe(404);
    expect((await contributor(`/esign/documents/${id}`)).status).toBe(200);

    const deleted = await contributor(`/esign/documents/${id}`, { method: "DELETE" });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json.data).toEqual({ id, name: "NDA", deleted: true });
    expect((await contributor(`/esign/documents/${id}`)).status).toBe(404);
    expect((await contributor(`/esign/documents/${id}/audit-trail`)).status).toBe(404);
    expect(filesOf(id)).toEqual([]);
    expect((await contributor(`/esign/documents?limit=100`)).json.data.results.map((d: { id: string }) => d.id)).not.toContain(id);
    const again = await contributor(`/esign/documents/${id}`, { method: "DELETE" });
    expect(again.status).toBe(404);
    expect(again.json.type).toBe("DocumentNotFound");
    expect((await contributor(`/esign/documents/not-a-uuid`, { method: "DELETE" })).status).toBe(404);
  });

  it("refuses anything sent with 409 DocumentNotDeletable and keeps it whole", async () => {
    const res = await prepareDoc(baseUrl, seed, [{ name: "Sid", email: "sid@example.com" }]);
    const id = res.json.data.documentId;
    const refused = await contributor(`/esign/documents/${id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: "DocumentNotDeletable", message: expect.stringContaining("sent") });
    expect((await contributor(`/esign/documents/${id}`)).json.data.status).toBe("sent");
    expect(filesOf(id).length).toBeGreaterThan(0);

    expect((await contributor(`/esign/documents/${id}/void`, { method: "POST", body: { reason: "x" } })).status).toBe(200);
    expect((await contributor(`/esign/documents/${id}`, { method: "DELETE" })).json.code).toBe("DocumentNotDeletable");
  });

  it("a delete racing a send: exactly one wins, the other gets the error for the state it finds", async () => {
    for (let round = 0; round < 4; round++) {
      const id = await draft(`race-${round}@example.com`);
      const [sent, deleted] = await Promise.all([
        contributor(`/esign/documents/${id}/send`, { method: "POST", body: {} }),
        contributor(`/esign/documents/${id}`, { method: "DELETE" }),
      ]);
      expect(
        [sent.status, deleted.status].filter((s) => s === 200),
        `${sent.text} / ${deleted.text}`,
      ).toHaveLength(1);
      if (deleted.status === 200) {
        expect(sent.status).toBe(404);
        expect(filesOf(id)).toEqual([]);
      } else {
        expect(deleted.status).toBe(409);
        expect(deleted.json.code).toBe("DocumentNotDeletable");
        expect((await contributor(`/esign/documents/${id}`)).json.data.status).toBe("sent");
        expect(filesOf(id).length).toBeGreaterThan(0);
      }
    }
  });
});

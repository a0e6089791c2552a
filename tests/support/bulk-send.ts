// Helpers for the bulk send tests: a saved layout with one signature field per role, a batch followed
// until it is done, and the documents of a batch's signers.
import { expect } from "vitest";
import type { SeedResult } from "@/lib/orgs/seed";
import { as } from "./api";
import { prepareDoc } from "./embedded";

/** A saved layout with these roles, from an uploaded one-page PDF; returns its id. */
export async function bulkLayout(baseUrl: string, seed: SeedResult, roles: string[]): Promise<string> {
  const draft = await prepareDoc(baseUrl, seed, [{ name: "Dora", email: "dora@example.com" }], {}, { path: "/esign/single/prepare-for-review" });
  const res = await as(
    baseUrl,
    seed,
    "contributor",
  )("/esign/layouts", {
    method: "POST",
    body: {
      name: `Bulk ${roles.join("+")}`,
      roles,
      documentId: draft.json.data.documentId,
      fields: roles.map((role, i) => ({ role, type: "signature", page: 1, x: 50, y: 500 + i * 60, width: 160, height: 40 })),
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.data.id;
}

export interface BulkRow {
  rowNumber: number;
  status: string;
  error: string | null;
  documentId: string | null;
  recipients: { name: string; email: string; role?: string }[];
}

/** Reads the batch until it is done (a GET that fails, e.g. while a server restarts, is read again). */
export async function bulkFinished(baseUrl: string, seed: SeedResult, id: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await as(baseUrl, seed, "contributor")(`/esign/bulk-sends/${id}`).catch(() => null);
    if (res) expect(res.status, res.text).toBe(200);
    if (res?.json.data.done) return res.json.data;
    if (Date.now() > deadline) throw new Error("the bulk send did not finish");
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The organization's documents, id by recipient email (every page of the list). */
export async function documentsByEmail(baseUrl: string, seed: SeedResult): Promise<Map<string, string[]>> {
  const byEmail = new Map<string, string[]>();
  for (let offset = 0; ; offset += 100) {
    const res = await as(baseUrl, seed, "contributor")(`/esign/documents?limit=100&offset=${offset}`);
    expect(res.status, res.text).toBe(200);
    const docs = res.json.data.results as { id: string; recipients: { email: string }[] }[];
    for (const d of docs) for (const r of d.recipients) byEmail.set(r.email, [...(byEmail.get(r.email) ?? []), d.id]);
    if (docs.length < 100) return byEmail;
  }
}

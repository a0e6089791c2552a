// Bulk send (issue 19 item 11): one document per row against a saved layout; rows are checked first and a
// bad row changes nothing (no document, no email) while the others are sent, each once.
import { describe, expect, inject, it } from "vitest";
import { as } from "../support/helpers";
import { bulkFinished, bulkLayout } from "../support/bulk-send";
import { mailsOf } from "../support/embedded";

const server = inject("quire");
const { baseUrl, seed, other } = server;
const contributor = as(baseUrl, seed, "contributor");

const layout = (roles: string[]) => bulkLayout(baseUrl, seed, roles);
const finished = (id: string) => bulkFinished(baseUrl, seed, id);

const documentCount = async () => (await contributor("/esign/documents?limit=1")).json.data.totalRecords as number;

describe("bulk send", () => {
  it("50 CSV rows with one bad row: 49 documents sent and emailed, one row error naming the problem, nothing for the bad row", async () => {
    const layoutId = await layout(["Client"]);
    const stamp = Date.now();
    const lines = Array.from({ length: 50 }, (_, i) => (i === 36 ? `"Bad, Row",not-an-email` : `"Person ${i + 1}",p${i + 1}.${stamp}@example.com`));
    const csv = ["Client name,Client email", ...lines].join("\r\n");
    const before = await documentCount();

    const created = await contributor("/esign/bulk-sends", { method: "POST", body: { layoutId, csv } });
    expect(created.status, created.text).toBe(201);
    expect(created.json.data).toMatchObject({ layoutId, total: 50 });
    expect(created.json.data.counts.invalid).toBe(1);
    const batch = await finished(created.json.data.id);

    expect(batch.counts).toEqual({ sent: 49, invalid: 1 });
    expect(Date.parse(batch.finishedAt ?? "")).toBeGreaterThan(0);
    const bad = batch.rows.find((r: { rowNumber: number }) => r.rowNumber === 37);
    expect(bad).toMatchObject({ status: "invalid", documentId: null, recipients: [{ name: "Bad, Row", email: "not-an-email", role: "Client" }] });
    expect(bad.error).toMatch(/^Row 37: recipients\.0\.email must be an email address/);
    expect(await documentCount()).toBe(before + 49);
    const ids = batch.rows.filter((r: { status: string }) => r.status === "sent").map((r: { documentId: string }) => r.documentId);
    expect(new Set(ids).size).toBe(49);
    const row5 = await contributor(`/esign/documents/${batch.rows[4].documentId}`);
    expect(row5.json.data).toMatchObject({ status: "sent", recipients: [{ name: "Person 5", email: `p5.${stamp}@example.com` }] });

    const mails = (await mailsOf(baseUrl, seed, "signing_request")).filter((m) => m.to.endsWith(`.${stamp}@example.com`) || m.to === "not-an-email");
    expect(mails.length).toBe(49);
    expect(mails.some((m) => m.to === "not-an-email")).toBe(false);
  });

  it("JSON rows: by role or by order; a row not matching the layout's roles is refused with the reason; roles and organizations are checked", async () => {
    const layoutId = await layout(["Tenant", "Witness"]);
    const created = await contributor("/esign/bulk-sends", {
      method: "POST",
      body: {
        layoutId,
        sendEmail: false,
        rows: [
          {
            recipients: [
              { name: "T1", email: "t1@example.com" },
              { name: "W1", email: "w1@example.com" },
            ],
          },
          {
            recipients: [
              { name: "W2", email: "w2@example.com", role: "Witness" },
              { name: "T2", email: "t2@example.com", role: "Tenant" },
            ],
          },
          { recipients: [{ name: "T3", email: "t3@example.com" }] },
          {
            recipients: [
              { name: "T4", email: "t4@example.com", role: "Landlord" },
              { name: "W4", email: "w4@example.com", role: "Witness" },
            ],
          },
          {
            recipients: [
              { name: "T5", email: "same@example.com" },
              { name: "W5", email: "same@example.com" },
            ],
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const batch = await finished(created.json.data.id);
    expect(batch.rows.map((r: { status: string }) => r.status)).toEqual(["sent", "sent", "invalid", "invalid", "invalid"]);
    expect(batch.rows[2].error).toContain("Tenant, Witness");
    expect(batch.rows[3].error).toContain("Landlord");
    expect(batch.rows[4].error).toContain("listed twice");
    const second = (await contributor(`/esign/documents/${batch.rows[1].documentId}`)).json.data;
    expect(second.recipients.map((r: { name: string; signingOrder: number }) => [r.name, r.signingOrder])).toEqual([
      ["T2", 1],
      ["W2", 2],
    ]);

    expect((await as(baseUrl, seed, "viewer")("/esign/bulk-sends", { method: "POST", body: { layoutId, rows: [] } })).status).toBe(403);
    expect((await as(baseUrl, seed, "viewer")(`/esign/bulk-sends/${batch.id}`)).status).toBe(200);
    expect((await as(baseUrl, other, "administrator")(`/esign/bulk-sends/${batch.id}`)).status).toBe(404);
    const foreign = await as(
      baseUrl,
      other,
      "administrator",
    )("/esign/bulk-sends", {
      method: "POST",
      body: { layoutId, rows: [{ recipients: [{ name: "X", email: "x@example.com" }] }] },
    });
    expect(foreign.status).toBe(404);

    const before = await documentCount();
    for (const [body, code] of [
      [{ layoutId, rows: [] }, "BulkSendEmpty"],
      [{ layoutId, csv: "Tenant name,Tenant email\nA,a@example.com" }, "BulkSendColumnsMissing"],
      [{ layoutId }, "BulkSendSourceInvalid"],
    ] as const) {
      const res = await contributor("/esign/bulk-sends", { method: "POST", body });
      expect(res.status, res.text).toBe(400);
      expect(res.json.code ?? res.json.type).toBe(code);
    }
    expect(await documentCount()).toBe(before);
  });
});

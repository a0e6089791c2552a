// Bulk send survives hard kills (issue 19 item 11; docs/adr/0011-bulk-send-worker.md). The server kills
// itself (QUIRE_TEST_CRASH_AT=bulk-row-sent) right after a mid-batch row's document went out and before
// the row says so; another batch is killed from outside (SIGKILL) while its rows are being sent. After
// each restart on the same DATA_DIR and database the batch finishes by itself (nobody reads it in
// between) with exactly one document per row: none twice, none missing, one signing email each.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as } from "../support/api";
import { bulkFinished, bulkLayout, documentsByEmail } from "../support/bulk-send";
import { restartAfterCrash, until } from "../support/crash";
import { mailsOf } from "../support/embedded";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";

const DB = (process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase;
let quire: RunningQuire;
let layoutId: string;

beforeAll(async () => {
  // A 2 s lease instead of 60 s: the row the dead process held is taken up again soon after the restart.
  quire = await startQuireServer(DB, { extraEnv: { QUIRE_TEST_CRASH_AT: "bulk-row-sent", BULK_SEND_LEASE_SECONDS: "2" } });
  layoutId = await bulkLayout(quire.server.baseUrl, quire.server.seed, ["Client"]);
}, 120_000);

afterAll(async () => {
  await quire?.stop();
});

const api = () => as(quire.server.baseUrl, quire.server.seed, "contributor");

async function postBatch(tag: string, rows: number): Promise<string> {
  const body = { layoutId, rows: Array.from({ length: rows }, (_, i) => ({ recipients: [{ name: `Row ${i + 1}`, email: `${tag}.${i + 1}@example.com` }] })) };
  const res = await api()("/esign/bulk-sends", { method: "POST", body });
  expect(res.status, res.text).toBe(201);
  return res.json.data.id;
}

/** Waits for the batch without reading it until it is done, then checks one sent document and one email per row. */
async function expectOneDocumentPerRow(id: string, tag: string, rows: number): Promise<void> {
  const documents = async () =>
    [...(await documentsByEmail(quire.server.baseUrl, quire.server.seed)).entries()].filter(([email]) => email.startsWith(`${tag}.`));
  // The GET no longer takes anything up: the restarted worker alone must finish the batch.
  await until(`every row of ${tag} to have its document`, async () => (await documents()).length === rows, 120_000);
  const batch = await bulkFinished(quire.server.baseUrl, quire.server.seed, id, 60_000);
  expect(batch.counts).toEqual({ sent: rows });
  const byEmail = new Map(await documents());
  for (const row of batch.rows) expect(byEmail.get(row.recipients[0].email), `row ${row.rowNumber}`).toEqual([row.documentId]);
  for (const docId of new Set([...byEmail.values()].flat())) {
    const doc = await api()(`/esign/documents/${docId}`);
    expect(doc.json.data.status).toBe("sent");
  }
  const mails = (await mailsOf(quire.server.baseUrl, quire.server.seed, "signing_request")).filter((m) => m.to.startsWith(`${tag}.`));
  expect(mails.length).toBe(rows);
  expect(new Set(mails.map((m) => m.to)).size).toBe(rows);
}

describe(`bulk send across hard kills (${DB})`, () => {
  it("killed after a mid-batch row's document went out and before the row was marked: that row keeps its one document", async () => {
    const id = await postBatch("crash", 30);
    await restartAfterCrash(quire);
    expect(fs.existsSync(path.join(quire.server.dataDir, ".test-crashed-bulk-row-sent")), "the server crashed at row 11").toBe(true);
    await expectOneDocumentPerRow(id, "crash", 30);
  }, 240_000);

  it("killed from outside (SIGKILL) while rows are being sent: the batch finishes after the restart, one document per row", async () => {
    const rows = 60;
    const id = await postBatch("kill", rows);
    const progress = await until(
      "the first rows to be sent",
      async () => {
        const counts = (await api()(`/esign/bulk-sends/${id}`)).json.data.counts;
        return (counts.sent ?? 0) > 2 && counts;
      },
      60_000,
    );
    await quire.restart({ hard: true });
    expect(progress.sent, "killed mid-batch").toBeLessThan(rows);
    await expectOneDocumentPerRow(id, "kill", rows);
  }, 240_000);
});

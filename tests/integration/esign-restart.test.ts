// Signing never loses a value: the server is killed (SIGKILL, no shutdown) between two signers and
// started again on the same DATA_DIR and database; the second signer finishes with the link mailed
// before the crash, and the sealed PDF carries both signers' values. Runs on PGlite (embedded, data
// under DATA_DIR) and on PostgreSQL, as the suite does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChain } from "@/lib/esign/audit";
import { as } from "../support/api";
import { onePagePdf, PNG, pdfTool, SIGNING_LINK, signerApi, tokenOf, type SignerField } from "../support/esign";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";

let quire: RunningQuire;
let baseUrl: string;

beforeAll(async () => {
  quire = await startQuireServer((process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase);
  baseUrl = quire.server.baseUrl;
});

afterAll(async () => {
  await quire?.stop();
});

const contributor = () => as(baseUrl, quire.server.seed, "contributor");

async function linkFor(email: string, documentId: string): Promise<string> {
  const res = await as(baseUrl, quire.server.seed, "administrator")(`/api/outbox?to=${encodeURIComponent(email)}&limit=50`);
  expect(res.status, res.text).toBe(200);
  const link = (res.json.data.results as { documentId: string; kind: string; text: string }[])
    .filter((m) => m.documentId === documentId && m.kind === "signing_request")
    .map((m) => SIGNING_LINK.exec(m.text)?.[0])
    .find(Boolean);
  expect(link, `a signing link emailed to ${email}`).toBeTruthy();
  return link!;
}

/** Values for each of the signer's fields, by type. */
function valuesFor(fields: SignerField[], byType: Record<string, string>): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.id, byType[f.type]]));
}

describe(`a hard restart between two signers (${process.env.QUIRE_TEST_DB ?? "pglite"})`, () => {
  it("keeps the first signer's values and lets the second finish with the link mailed before the crash", async () => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await onePagePdf())]), "lease.pdf");
    form.set("documentName", "Lease renewal");
    form.set(
      "recipients",
      JSON.stringify([
        { name: "Ada Tenant", email: "ada@example.com", signingOrder: 1 },
        { name: "Bob Landlord", email: "bob@example.com", signingOrder: 2 },
      ]),
    );
    const fieldsOf = (email: string, y: number) => [
      { type: "signature", recipientEmail: email, page: 1, x: 50, y, width: 160, height: 40 },
      { type: "text", recipientEmail: email, page: 1, x: 50, y: y + 60, width: 300, height: 20 },
      { type: "date", recipientEmail: email, page: 1, x: 380, y: y + 60, width: 120, height: 20 },
    ];
    form.set("fields", JSON.stringify([...fieldsOf("ada@example.com", 200), ...fieldsOf("bob@example.com", 400)]));
    const prepared = await contributor()("/esign/single/prepare-for-signing", { method: "POST", body: form });
    expect(prepared.status, prepared.text).toBe(200);
    const documentId: string = prepared.json.data.documentId;

    const ada = signerApi(baseUrl, tokenOf(await linkFor("ada@example.com", documentId)));
    const adaSession = await ada.session();
    expect(adaSession.json.data.state).toBe("ready");
    const adaValues = valuesFor(adaSession.json.data.fields, { signature: PNG, text: "Unit 4B keys returned by Ada", date: "2031-02-03" });
    const adaSigned = await ada.sign(adaValues);
    expect(adaSigned.status, adaSigned.text).toBe(200);
    expect(adaSigned.json.data.status).toBe("sent");
    // Bob's link as emailed before the crash; it must still work after it.
    const bobToken = tokenOf(await linkFor("bob@example.com", documentId));

    await quire.restart({ hard: true });

    expect((await ada.session()).json.data.state).toBe("already_signed");
    const again = await ada.sign(adaValues);
    expect(again.status).toBe(409);
    expect(again.json.code).toBe("already_signed");

    const bob = signerApi(baseUrl, bobToken);
    const bobSession = await bob.session();
    expect(bobSession.status, bobSession.text).toBe(200);
    expect(bobSession.json.data.state).toBe("ready");
    const bobSigned = await bob.sign(
      valuesFor(bobSession.json.data.fields, { signature: "Bob Landlord", text: "Deposit held by Bob until June", date: "2032-04-05" }),
    );
    expect(bobSigned.status, bobSigned.text).toBe(200);
    expect(bobSigned.json.data.status).toBe("completed");

    const doc = await contributor()(`/esign/documents/${documentId}`);
    expect(doc.json.data.status).toBe("completed");
    expect(doc.json.data.recipients.map((r: { status: string; signedAt: string | null }) => [r.status, Boolean(r.signedAt)])).toEqual([
      ["completed", true],
      ["completed", true],
    ]);

    const res = await fetch(`${baseUrl}/esign/documents/${documentId}/download`, {
      headers: { authorization: `Bearer ${quire.server.seed.keys.contributor}`, "x-service-org-id": quire.server.seed.orgId },
    });
    expect(res.status).toBe(200);
    const pdf = Buffer.from(await res.arrayBuffer());
    const text = pdfTool(pdf, "pdftotext");
    for (const value of ["Unit 4B keys returned by Ada", "2031-02-03", "Deposit held by Bob until June", "2032-04-05"]) expect(text).toContain(value);
    expect(pdfTool(pdf, "pdfsig")).toMatch(/Signature is Valid/);

    const audit = await contributor()(`/esign/documents/${documentId}/audit-trail`);
    const trail = audit.json.data.auditTrail;
    expect(trail.map((e: { actionType: string }) => e.actionType)).toEqual(["created", "sent", "viewed", "signed", "viewed", "signed", "completed"]);
    expect(verifyAuditChain(trail)).toBe(-1);
  });
});

// Declining (decisions.md "Declining") over HTTP: the reason rule, the final `declined` state, emails to
// the sender, cc and earlier signers, the audit entry, and the compare-and-set against a racing
// signature or void.
import { describe, expect, inject, it } from "vitest";
import { as, call } from "../support/helpers";
import { prepareDoc } from "../support/embedded";
import { SIGNING_LINK, signerApi, tokenOf } from "../support/esign";

const { baseUrl, seed } = inject("quire");
const contributor = as(baseUrl, seed, "contributor");
const admin = as(baseUrl, seed, "administrator");
const run = Date.now().toString(36);

async function mailsTo(to: string): Promise<{ kind: string; subject: string; text: string; documentId: string }[]> {
  const res = await admin(`/api/outbox?to=${encodeURIComponent(to)}&limit=50`);
  expect(res.status, res.text).toBe(200);
  return res.json.data.results;
}

async function tokenFor(email: string): Promise<string> {
  const link = (await mailsTo(email)).map((m) => SIGNING_LINK.exec(m.text)?.[0]).find(Boolean);
  expect(link, `a signing link emailed to ${email}`).toBeTruthy();
  return tokenOf(link!);
}

const decline = (token: string, body: unknown) => call(baseUrl, `/api/signer/${token}/decline`, { method: "POST", body });

async function signAll(token: string) {
  const s = signerApi(baseUrl, token);
  const session = (await s.session()).json.data;
  return s.sign(Object.fromEntries(session.fields.map((f: { id: string }) => [f.id, "typed value"])));
}

describe("declining", () => {
  it("needs a reason of 1 to 1000 characters, then closes the document for everyone and tells the sender, cc and earlier signers", async () => {
    const [ada, bob, carol] = [`ada-${run}@example.com`, `bob-${run}@example.com`, `carol-${run}@example.com`];
    const sender = `sender-${run}@example.com`;
    const cc = `cc-${run}@example.com`;
    const res = await prepareDoc(
      baseUrl,
      seed,
      [
        { name: "Ada", email: ada, signingOrder: 1 },
        { name: "Bob", email: bob, signingOrder: 2 },
        { name: "Carol", email: carol, signingOrder: 3 },
      ],
      { sendEmail: "true", senderEmail: sender, ccEmails: [cc] },
    );
    expect(res.status, res.text).toBe(200);
    const id = res.json.data.documentId;
    expect((await signAll(await tokenFor(ada))).status).toBe(200);
    const bobToken = await tokenFor(bob);

    for (const bad of [{}, { reason: "" }, { reason: "   " }, { reason: "x".repeat(1001) }, { reason: 42 }]) {
      const refused = await decline(bobToken, bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.json.error).toContain("1 to 1000 characters");
    }
    expect((await contributor(`/esign/documents/${id}`)).json.data.status).toBe("sent");

    const declined = await decline(bobToken, { reason: "  The price is wrong  " });
    expect(declined.status, declined.text).toBe(200);
    expect(declined.json.data).toMatchObject({ documentId: id, status: "declined", reason: "The price is wrong" });

    const doc = (await contributor(`/esign/documents/${id}`)).json.data;
    expect(doc).toMatchObject({ status: "declined", declineReason: "The price is wrong", declinedAt: expect.any(String) });
    expect((await contributor(`/esign/documents?status=declined&limit=100`)).json.data.results.map((d: { id: string }) => d.id)).toContain(id);

    const trail = (await contributor(`/esign/documents/${id}/audit-trail`)).json.data.auditTrail;
    const entries = trail.filter((e: { actionType: string }) => e.actionType === "declined");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ details: { reason: "The price is wrong" }, recipientId: doc.recipients[1].id });

    // The sender, the cc and Ada (who signed) are told; Bob (who declined) and Carol (never asked) are not.
    for (const to of [sender, cc, ada]) {
      const mail = (await mailsTo(to)).filter((m) => m.kind === "document_declined" && m.documentId === id);
      expect(mail, to).toHaveLength(1);
      expect(mail[0].text).toContain("Bob");
      expect(mail[0].text).toContain("The price is wrong");
    }
    for (const to of [bob, carol])
      expect(
        (await mailsTo(to)).filter((m) => m.kind === "document_declined"),
        to,
      ).toEqual([]);

    // Final: a second decline, a signature and a void all find it declined.
    const again = await decline(bobToken, { reason: "again" });
    expect(again.status).toBe(410);
    expect(again.json.code).toBe("document_declined");
    const session = await signerApi(baseUrl, bobToken).session();
    expect(session.json.data.state).toBe("declined");
    expect(session.json.data.document.declineReason).toBe("The price is wrong");
    const signed = await signerApi(baseUrl, bobToken).sign({});
    expect(signed.status).toBe(410);
    expect(signed.json.code).toBe("document_declined");
    const voided = await contributor(`/esign/documents/${id}/void`, { method: "POST", body: { reason: "too late" } });
    expect(voided.status).toBe(409);
    expect(voided.json.code).toBe("DocumentNotVoidable");
  });

  it("a signer who has signed, or whose turn has not come, cannot decline; a broken link is a 404", async () => {
    const [ann, ben] = [`ann-${run}@example.com`, `ben-${run}@example.com`];
    const res = await prepareDoc(
      baseUrl,
      seed,
      [
        { name: "Ann", email: ann, signingOrder: 1 },
        { name: "Ben", email: ben, signingOrder: 2 },
      ],
      { sendEmail: "true" },
    );
    const id = res.json.data.documentId;
    const bens = await contributor(`/esign/documents/${id}/resend-email`, { method: "POST", body: { recipientIds: [res.json.data.recipients[1].id] } });
    expect(bens.status).toBe(200);
    const early = await decline(await tokenFor(ben), { reason: "no" });
    expect(early.status).toBe(409);
    expect(early.json.code).toBe("not_your_turn");
    const annToken = await tokenFor(ann);
    expect((await signAll(annToken)).status).toBe(200);
    const late = await decline(annToken, { reason: "changed my mind" });
    expect(late.status).toBe(409);
    expect(late.json.code).toBe("already_signed");
    expect((await decline("x".repeat(30), { reason: "no" })).status).toBe(404);
    expect((await contributor(`/esign/documents/${id}`)).json.data.status).toBe("sent");
  });

  it("a decline racing the last signature, or a void: exactly one wins, the other gets the error for the state it finds", async () => {
    for (let round = 0; round < 3; round++) {
      const email = `race-${round}-${run}@example.com`;
      const res = await prepareDoc(baseUrl, seed, [{ name: "Rae", email }], { sendEmail: "true" });
      const id = res.json.data.documentId;
      const token = await tokenFor(email);
      const [signed, declined] = await Promise.all([signAll(token), decline(token, { reason: "race" })]);
      const wins = [signed, declined].filter((r) => r.status === 200);
      expect(wins, `${signed.text} / ${declined.text}`).toHaveLength(1);
      const status = (await contributor(`/esign/documents/${id}`)).json.data.status;
      if (signed.status === 200) {
        expect(declined.json.code).toBe("already_signed");
        expect(["sent", "completed"]).toContain(status);
      } else {
        expect(signed.json.code).toBe("document_declined");
        expect(status).toBe("declined");
      }
      const trail = (await contributor(`/esign/documents/${id}/audit-trail`)).json.data.auditTrail.map((e: { actionType: string }) => e.actionType);
      expect(trail.filter((a: string) => a === "declined" || a === "signed")).toHaveLength(1);
    }
    for (let round = 0; round < 3; round++) {
      const email = `void-race-${round}-${run}@example.com`;
      const res = await prepareDoc(baseUrl, seed, [{ name: "Vic", email }], { sendEmail: "true" });
      const id = res.json.data.documentId;
      const token = await tokenFor(email);
      const [voided, declined] = await Promise.all([
        contributor(`/esign/documents/${id}/void`, { method: "POST", body: { reason: "race" } }),
        decline(token, { reason: "race" }),
      ]);
      expect(
        [voided.status, declined.status].filter((s) => s === 200),
        `${voided.text} / ${declined.text}`,
      ).toHaveLength(1);
      if (voided.status === 200) expect(declined.json.code).toBe("document_voided");
      else expect(voided.json.code).toBe("DocumentNotVoidable");
    }
  });
});

// What a signer sees and downloads (issue 19, items 2 and 3): the page images and the signer's copy show
// the values of everyone who has signed; the completed, sealed copy only once the document is completed;
// the link's token is the credential, and a passcode check still applies.
import { describe, expect, inject, it } from "vitest";
import { as, call } from "../support/helpers";
import { mailedCode, orgWith, passcodeApi, prepareDoc, signingUrlOf, tokenOfUrl } from "../support/embedded";
import { pdfTool, SIGNING_LINK, signerApi, tokenOf } from "../support/esign";

const server = inject("quire");
const { baseUrl, seed } = server;
const admin = as(baseUrl, seed, "administrator");
const run = Date.now().toString(36);

async function tokenFor(email: string): Promise<string> {
  const res = await admin(`/api/outbox?to=${encodeURIComponent(email)}&limit=50`);
  const link = res.json.data.results.map((m: { text: string }) => SIGNING_LINK.exec(m.text)?.[0]).find(Boolean);
  expect(link, `a signing link emailed to ${email}`).toBeTruthy();
  return tokenOf(link);
}

async function pdf(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; type: string | null; disposition: string | null; json: unknown }> {
  const res = await fetch(`${baseUrl}${path}`, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get("content-type");
  return {
    status: res.status,
    body,
    type,
    disposition: res.headers.get("content-disposition"),
    json: type?.includes("json") ? JSON.parse(body.toString()) : null,
  };
}

describe("the signer's view and copies", () => {
  it("shows earlier values to the next signer, offers each signer's copy once signed and the completed copy once everyone has", async () => {
    const [ada, bob] = [`ada-${run}@example.com`, `bob-${run}@example.com`];
    const res = await prepareDoc(
      baseUrl,
      seed,
      [
        { name: "Ada Early", email: ada, signingOrder: 1 },
        { name: "Bob Later", email: bob, signingOrder: 2 },
      ],
      { sendEmail: "true" },
    );
    expect(res.status, res.text).toBe(200);
    const adaToken = await tokenFor(ada);

    // Nothing to download before signing.
    const early = await pdf(`/api/signer/${adaToken}/download`);
    expect(early.status).toBe(409);
    expect(early.json).toMatchObject({ code: "not_signed_yet" });
    expect((await pdf(`/api/signer/${adaToken}/download/completed`)).json).toMatchObject({ code: "document_not_completed" });

    const adaApi = signerApi(baseUrl, adaToken);
    const adaSession = (await adaApi.session()).json.data;
    expect(adaSession.filled).toEqual([]);
    expect((await adaApi.sign({ [adaSession.fields[0].id]: "Ada wrote this" })).status).toBe(200);

    // Ada's copy: her value, unsealed, as an attachment.
    const mine = await pdf(`/api/signer/${adaToken}/download`);
    expect(mine.status).toBe(200);
    expect(mine.type).toBe("application/pdf");
    expect(mine.disposition).toContain("attachment");
    expect(pdfTool(mine.body, "pdftotext")).toContain("Ada wrote this");
    expect(pdfTool(mine.body, "pdfsig")).not.toMatch(/Signature #1/);
    expect((await pdf(`/api/signer/${adaToken}/download/completed`)).status).toBe(409);

    // Bob sees what Ada gave: described in his session, drawn on his pages.
    const bobToken = await tokenFor(bob);
    const bobApi = signerApi(baseUrl, bobToken);
    const bobSession = (await bobApi.session()).json.data;
    expect(bobSession.state).toBe("ready");
    expect(bobSession.filled).toEqual([expect.objectContaining({ type: "text", signer: "Ada Early", value: "Ada wrote this", page: 1 })]);
    expect(bobSession.fields.map((f: { id: string }) => f.id)).not.toContain(bobSession.filled[0].id);
    const shown = await pdf(`/api/signer/${bobToken}/pdf`);
    expect(pdfTool(shown.body, "pdftotext")).toContain("Ada wrote this");
    const image = await pdf(`/api/signer/${bobToken}/page/1`);
    expect(image.status).toBe(200);
    expect(image.type).toBe("image/png");
    expect((await pdf(`/api/signer/${bobToken}/download`)).status).toBe(409);

    expect((await bobApi.sign({ [bobSession.fields[0].id]: "Bob wrote that" })).json.data.status).toBe("completed");
    for (const token of [adaToken, bobToken]) {
      const completed = await pdf(`/api/signer/${token}/download/completed`);
      expect(completed.status).toBe(200);
      const text = pdfTool(completed.body, "pdftotext");
      for (const expected of ["Ada wrote this", "Bob wrote that", "Certificate of completion"]) expect(text).toContain(expected);
      expect(pdfTool(completed.body, "pdfsig")).toMatch(/Signature #1/);
      expect(completed.disposition).toContain("signed");
      // Once completed, the signer's own copy is the sealed one too.
      expect((await pdf(`/api/signer/${token}/download`)).body.equals(completed.body)).toBe(true);
    }
    expect((await pdf(`/api/signer/${"y".repeat(30)}/download/completed`)).status).toBe(404);
  });

  it("a signer behind a passcode downloads only with the session the passcode gave", async () => {
    const org = await orgWith(server, { enabled: true });
    const email = `otp-${run}@example.com`;
    const res = await prepareDoc(baseUrl, org, [{ name: "Otto", email, identityVerification: { mode: "otp", channel: "email" } }]);
    expect(res.status, res.text).toBe(200);
    const url = await signingUrlOf(baseUrl, org, res.json.data.documentId, { recipientId: res.json.data.recipients[0].id });
    expect(url.status, url.text).toBe(200);
    const token = tokenOfUrl(url.json.data.results.url);
    const otp = passcodeApi(baseUrl, token);
    expect((await otp.send()).status).toBe(200);
    const verified = await otp.verify(await mailedCode(baseUrl, org, email));
    expect(verified.status, verified.text).toBe(200);
    const session = verified.json.data.session as string;
    const headers = { "x-signer-session": session };
    const opened = await call(baseUrl, `/api/signer/${token}`, { headers });
    const signed = await call(baseUrl, `/api/signer/${token}/sign`, { method: "POST", headers, body: { values: { [opened.json.data.fields[0].id]: "Otto" } } });
    expect(signed.status, signed.text).toBe(200);

    const without = await pdf(`/api/signer/${token}/download/completed`);
    expect(without.status).toBe(401);
    expect(without.json).toMatchObject({ code: "verification_required" });
    expect((await pdf(`/api/signer/${token}/download`)).status).toBe(401);
    const withSession = await pdf(`/api/signer/${token}/download/completed?s=${session}`);
    expect(withSession.status).toBe(200);
    expect(pdfTool(withSession.body, "pdftotext")).toContain("Otto");
  });
});

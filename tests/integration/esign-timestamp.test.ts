// Trusted time over HTTP: a Quire server started with TSA_URL pointing at a local RFC 3161 service
// (openssl ts behind an HTTP handler, started here) seals completed documents as PAdES B-LT. pdfsig
// checks the signature; openssl checks the CMS and, separately, the timestamp token. Its own server,
// because TSA_URL is read at start-up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, call } from "../support/api";
import { onePagePdf, SIGNING_LINK, signerApi, tokenOf } from "../support/esign";
import { popplerWords } from "../support/odd-pdfs";
import { pdfsig, SIGNING_CERTIFICATE_V2, signaturesOf, signedAttributeTypes, verifyCms, verifySignatureTimestamp } from "../support/pdf-signatures";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";
import { type LocalTsa, startLocalTsa } from "../support/tsa";

let tsa: LocalTsa;
let quire: RunningQuire;

beforeAll(async () => {
  tsa = await startLocalTsa();
  quire = await startQuireServer((process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase, { extraEnv: { TSA_URL: tsa.url } });
});

afterAll(async () => {
  await quire?.stop();
  await tsa?.close();
});

describe("seals with a time-stamping service", () => {
  it("names PAdES B-LT in /api/health", async () => {
    const res = await call(quire.server.baseUrl, "/api/health");
    expect(res.json).toMatchObject({ status: "ok", sealLevel: "PAdES-B-LT" });
  });

  it("seals a completed document with a signature timestamp and validation data that pdfsig and openssl verify", async () => {
    const { baseUrl, seed } = quire.server;
    const email = "tara@example.com";
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await onePagePdf("Timestamped agreement."))]), "ts.pdf");
    form.set("documentName", "Timestamped");
    form.set("senderName", "Sam Sender");
    form.set("senderEmail", "sam@example.com");
    form.set("recipients", JSON.stringify([{ name: "Tara Time", email }]));
    form.set("fields", JSON.stringify([{ type: "full_name", recipientEmail: email, page: 1, x: 50, y: 120, width: 200, height: 20 }]));
    const prepared = await as(baseUrl, seed, "contributor")("/esign/single/prepare-for-signing", { method: "POST", body: form });
    expect(prepared.status, prepared.text).toBe(200);
    const outbox = await as(baseUrl, seed, "administrator")(`/api/outbox?to=${email}&limit=5`);
    const link = outbox.json.data.results.map((m: { text: string }) => SIGNING_LINK.exec(m.text)?.[0]).find(Boolean);
    const signer = signerApi(baseUrl, tokenOf(link));
    const [field] = (await signer.session()).json.data.fields;
    const requestsBefore = tsa.requests();
    const signed = await signer.sign({ [field.id]: "Tara Time" });
    expect(signed.status, signed.text).toBe(200);

    const id = prepared.json.data.documentId;
    let pdf = Buffer.alloc(0);
    for (let i = 0; i < 100 && !pdf.length; i++) {
      // Completion may finish in the background: poll the status, then download.
      if ((await as(baseUrl, seed, "contributor")(`/esign/documents/${id}/status`)).json.data.status === "completed") {
        const res = await fetch(`${baseUrl}/esign/documents/${id}/download`, {
          headers: { authorization: `Bearer ${seed.keys.contributor}`, "x-service-org-id": seed.orgId },
        });
        pdf = Buffer.from(await res.arrayBuffer());
      } else await new Promise((r) => setTimeout(r, 200));
    }
    expect(pdf.length, "the document completed").toBeGreaterThan(0);
    expect(tsa.requests(), "the TSA was asked for a timestamp").toBeGreaterThan(requestsBefore);

    expect(pdfsig(pdf)).toMatch(/Signature is Valid/);
    const [sig] = signaturesOf(pdf);
    expect(sig.subFilter).toBe("ETSI.CAdES.detached");
    expect(signedAttributeTypes(sig.cms)).toContain(SIGNING_CERTIFICATE_V2);
    expect(verifyCms(sig)).toMatchObject({ ok: true });
    const ts = verifySignatureTimestamp(sig, tsa.caFile, tsa.tsaCertFile);
    expect(ts.output).toMatch(/Verification: OK/);
    expect(ts).toMatchObject({ present: true, ok: true });
    expect(pdf.toString("latin1"), "B-LT validation data in a DSS").toMatch(/\/DSS\s/);
    expect(
      popplerWords(pdf)
        .map((w) => w.text)
        .join(" "),
      "the certificate page names the level",
    ).toContain("B-LT");
  });
});

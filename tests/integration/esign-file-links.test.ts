// Keyless, short-lived links to a document's PDF: the JSON download (downloadUrl) and prepare-for-review's
// previewUrl (docs/contract.md "Clients of the hosted service"). Fetched with no key, over HTTP.
import { describe, expect, inject, it } from "vitest";
import { as, authHeaders, call } from "../support/api";
import { setClock } from "../support/embedded";
import { onePagePdf, PNG, pdfTool, SIGNING_LINK, signerApi, tokenOf } from "../support/esign";

const quire = inject("quire");
const { baseUrl, seed, other } = quire;
const contributor = as(baseUrl, seed, "contributor");

async function prepare(path: "prepare-for-signing" | "prepare-for-review", name: string, email: string) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await onePagePdf(`Linked file ${name}`))]), "linked.pdf");
  form.set("documentName", name);
  form.set("recipients", JSON.stringify([{ name: "Lin Signer", email }]));
  form.set("fields", JSON.stringify([{ type: "signature", recipientEmail: email, page: 1, x: 50, y: 120, width: 150, height: 40 }]));
  const res = await contributor(`/esign/single/${path}`, { method: "POST", body: form });
  expect(res.status, res.text).toBe(200);
  return res.json.data as { documentId: string; previewUrl?: string };
}

async function signAll(email: string, documentId: string) {
  const mails = (await as(baseUrl, seed)(`/api/outbox?to=${encodeURIComponent(email)}&limit=20`)).json.data.results as { text: string }[];
  const link = mails.map((m) => SIGNING_LINK.exec(m.text)?.[0]).find(Boolean)!;
  const signer = signerApi(baseUrl, tokenOf(link));
  const session = (await signer.session()).json.data;
  const signed = await signer.sign(Object.fromEntries(session.fields.map((f: { id: string }) => [f.id, PNG])));
  expect(signed.status, signed.text).toBe(200);
  await expect.poll(async () => (await contributor(`/esign/documents/${documentId}/status`)).json.data.status, { timeout: 30_000 }).toBe("completed");
}

/** The keyed binary download, as before (no Accept, no Content-Type). */
async function keyedPdf(documentId: string): Promise<Buffer> {
  const res = await fetch(`${baseUrl}/esign/documents/${documentId}/download`, { headers: authHeaders(seed, "contributor") });
  expect(res.headers.get("content-type")).toBe("application/pdf");
  return Buffer.from(await res.arrayBuffer());
}

describe("GET /esign/documents/{id}/download as JSON", () => {
  let documentId: string;
  let downloadUrl: string;

  it("answers a keyless link to the signed PDF when the GET sends Content-Type: application/json, as the hosted service's SDKs do", async () => {
    const email = `files-${Date.now()}@example.com`;
    ({ documentId } = await prepare("prepare-for-signing", "Linked contract", email));
    await signAll(email, documentId);

    const res = await fetch(`${baseUrl}/esign/documents/${documentId}/download`, {
      headers: { ...authHeaders(seed, "contributor"), "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { downloadUrl: string; fileName: string; expiresAt: string } };
    expect(body.data.fileName).toBe("Linked contract (signed).pdf");
    const ttl = Date.parse(body.data.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000 + 1_000);
    downloadUrl = body.data.downloadUrl;
    expect(downloadUrl.startsWith(`${baseUrl}/esign/files/`)).toBe(true);

    // No key: the bytes are the sealed PDF, the very bytes of the keyed download.
    const file = await fetch(downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="Linked contract \(signed\)\.pdf"/);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdfTool(bytes, "pdfsig")).toMatch(/Signature is Valid/);
    expect(bytes.equals(await keyedPdf(documentId))).toBe(true);
  });

  it("answers JSON when Accept prefers it, and the PDF to a browser's Accept", async () => {
    const json = await contributor(`/esign/documents/${documentId}/download`, { headers: { accept: "application/json" } });
    expect(json.status).toBe(200);
    expect(json.json.data.downloadUrl).toMatch(/\/esign\/files\//);
    const browser = await fetch(`${baseUrl}/esign/documents/${documentId}/download`, {
      headers: { ...authHeaders(seed, "contributor"), accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
    });
    expect(browser.headers.get("content-type")).toBe("application/pdf");
  });

  it("still needs a key and the document's organization to hand out a link", async () => {
    const noKey = await call(baseUrl, `/esign/documents/${documentId}/download`);
    expect(noKey.status).toBe(401);
    const otherOrg = await as(baseUrl, other, "contributor")(`/esign/documents/${documentId}/download`);
    expect(otherOrg.status).toBe(404);
  });

  it("refuses an altered or cut link with 403 FileLinkInvalid, in the signing error shape", async () => {
    const token = downloadUrl.split("/esign/files/")[1];
    const [payload, sig] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const longer = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 86_400 })).toString("base64url");
    const flipped = `${sig.slice(0, -2)}${sig.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [`${longer}.${sig}`, `${payload}.${flipped}`, payload, `${payload}.${sig}.x`, "not-a-token", `${token}%00`]) {
      const res = await call(baseUrl, `/esign/files/${bad}`);
      expect(res.status, bad).toBeGreaterThanOrEqual(400);
      expect(res.status, bad).toBeLessThan(500);
      if (!bad.includes("%")) expect(res.json, bad).toMatchObject({ code: "FileLinkInvalid", message: expect.stringMatching(/not valid/) });
    }
  });

  it("answers 410 FileLinkExpired once the link's minutes are over", async () => {
    try {
      await setClock(quire, 4 * 60_000);
      expect((await fetch(downloadUrl)).status).toBe(200);
      await setClock(quire, 5 * 60_000 + 5_000);
      const expired = await call(baseUrl, `/esign/files/${downloadUrl.split("/esign/files/")[1]}`);
      expect(expired.status).toBe(410);
      expect(expired.json).toMatchObject({ code: "FileLinkExpired", message: expect.stringMatching(/expired/) });
    } finally {
      await setClock(quire, 0);
    }
  });
});

describe("prepare-for-review previewUrl", () => {
  it("is a link a person opens without a key: the PDF shown inline; sending keeps it working until completion", async () => {
    const email = `preview-${Date.now()}@example.com`;
    const draft = await prepare("prepare-for-review", "Draft to review", email);
    expect(draft.previewUrl).toMatch(new RegExp(`^${baseUrl}/esign/files/`));
    const res = await fetch(draft.previewUrl!, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toMatch(/^inline; filename="Draft to review\.pdf"/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(pdfTool(bytes, "pdftotext")).toContain("Linked file Draft to review");
    expect(bytes.equals(await keyedPdf(draft.documentId))).toBe(true);

    // Good for a day, not for ever.
    try {
      await setClock(quire, 23 * 3_600_000);
      expect((await fetch(draft.previewUrl!)).status).toBe(200);
      await setClock(quire, 24 * 3_600_000 + 5_000);
      expect((await fetch(draft.previewUrl!)).status).toBe(410);
    } finally {
      await setClock(quire, 0);
    }

    const sent = await contributor(`/esign/documents/${draft.documentId}/send`, { method: "POST" });
    expect(sent.status, sent.text).toBe(200);
    expect((await fetch(draft.previewUrl!)).status).toBe(200);
    // Once signed, the draft's preview does not turn into the signed file: 410 FileLinkReplaced.
    await signAll(email, draft.documentId);
    const replaced = await call(baseUrl, `/esign/files/${draft.previewUrl!.split("/esign/files/")[1]}`);
    expect(replaced.status).toBe(410);
    expect(replaced.json.code).toBe("FileLinkReplaced");
  });
});

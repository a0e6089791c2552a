import { PDFDocument, StandardFonts } from "pdf-lib";
import { authHeaders } from "../tests/support/api";
import { pdfTool, PNG } from "../tests/support/esign";
import { expect, logIn, test } from "./fixtures";
import { api, uniqueEmail } from "./esign";

// Issue 19 item 10: text tags in an uploaded document are proposed as fields by the placer, and hidden in
// the signed output.

async function taggedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText("Tenancy agreement", { x: 50, y: 790, size: 16, font });
  page.drawText("Tenant: [[sign:tenant]]", { x: 50, y: 500, size: 12, font });
  page.drawText("Landlord: {{signature,landlord}} Note: [[text:landlord]]", { x: 50, y: 300, size: 12, font });
  return Buffer.from(await doc.save());
}

test("the placer proposes fields from text tags; the signed PDF no longer shows the tags", async ({ page, quire }) => {
  test.setTimeout(120_000);
  const tenant = { name: "Tara Tenant", email: uniqueEmail("tara") };
  const landlord = { name: "Lou Landlord", email: uniqueEmail("lou") };
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await taggedPdf())]), "tenancy.pdf");
  form.set(
    "recipients",
    JSON.stringify([
      { ...tenant, signingOrder: 1 },
      { ...landlord, signingOrder: 1 },
    ]),
  );
  form.set("sendEmail", "false");
  const draft = await api(quire)("/esign/single/prepare-for-review", { method: "POST", body: form });
  expect(draft.status, draft.text).toBe(200);
  const documentId = draft.json.data.documentId as string;

  await logIn(page, quire);
  await page.goto(`/documents/${documentId}/prepare`);
  await expect(page.getByRole("note")).toContainText("3 field(s) placed from text tags");
  await expect(page.getByRole("button", { name: `Signature for ${tenant.name} on page 1` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Signature for ${landlord.name} on page 1` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Text for ${landlord.name} on page 1` })).toBeVisible();
  await page.getByRole("button", { name: "Send for signing" }).click();
  await expect(page).toHaveURL(new RegExp(`/documents/${documentId}$`), { timeout: 30_000 });

  const doc = (await api(quire)(`/esign/documents/${documentId}`)).json.data;
  expect(doc.status).toBe("sent");
  for (const r of doc.recipients as { id: string }[]) {
    const url = await api(quire)(`/esign/documents/${documentId}/signing-url`, { method: "POST", body: { recipientId: r.id } });
    const token = new URL(url.json.data.results.url).searchParams.get("token");
    const session = await fetch(`${quire.baseUrl}/api/signer/${token}`).then((res) => res.json());
    const values = Object.fromEntries(session.data.fields.map((f: { id: string; type: string }) => [f.id, f.type === "signature" ? PNG : "Pets allowed"]));
    const signed = await fetch(`${quire.baseUrl}/api/signer/${token}/sign`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ values }),
    });
    expect(signed.status, await signed.clone().text()).toBe(200);
  }
  await expect.poll(async () => (await api(quire)(`/esign/documents/${documentId}`)).json.data.status, { timeout: 30_000 }).toBe("completed");
  const pdf = Buffer.from(
    await (await fetch(`${quire.baseUrl}/esign/documents/${documentId}/download`, { headers: authHeaders(quire.seed, "contributor") })).arrayBuffer(),
  );
  const text = pdfTool(pdf, "pdftotext");
  expect(text).toContain("Tenancy agreement");
  expect(text).toContain("Pets allowed");
  expect(text).not.toMatch(/\[\[|\{\{|sign:tenant|signature,landlord/);
});

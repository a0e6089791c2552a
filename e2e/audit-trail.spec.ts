// A document's audit trail as a person reads it (IPv4 without the ::ffff: prefix, short hashes with
// the full one on hover and a copy button, times in the viewer's zone with UTC in a title), and the
// certificate page's sent, viewed and signed times per signer.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { call } from "../tests/support/api";
import { api, prepareForSigning, signingLink, uniqueEmail } from "./esign";
import { expect, logIn, test } from "./fixtures";

test.use({ timezoneId: "Asia/Tokyo", locale: "en-GB" });

test("the audit trail reads in local time with short hashes, and the certificate lists sent, viewed and signed times", async ({ page, context, quire }) => {
  const signer = { name: "Aiko Audit", email: uniqueEmail("aiko") };
  const id = await prepareForSigning(quire, { name: "Audit view", signer, fields: [{ type: "signature", x: 50, y: 600, width: 200, height: 50 }] });
  // The signer opens the page and signs (typed signature) through the signing page's API.
  const token = new URL(await signingLink(quire, signer.email)).pathname.split("/").pop()!;
  const opened = await call(quire.baseUrl, `/api/signer/${token}`);
  expect(opened.status, opened.text).toBe(200);
  const values = Object.fromEntries((opened.json.data.fields as { id: string }[]).map((f) => [f.id, "Aiko Audit"]));
  const signed = await call(quire.baseUrl, `/api/signer/${token}/sign`, { method: "POST", body: { values } });
  expect(signed.status, signed.text).toBe(200);
  await expect.poll(async () => (await api(quire)(`/esign/documents/${id}/status`)).json.data.status, { timeout: 30_000 }).toBe("completed");

  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await logIn(page, quire);
  await page.goto(`/documents/${id}`);
  const trail = page.locator("section", { has: page.getByRole("heading", { name: "Audit trail" }) });
  await expect(trail).toContainText("Hash chain intact");
  await expect(trail).not.toContainText("::ffff:");
  const created = trail.locator("li").filter({ hasText: /^created/ });
  await expect(created).toContainText("127.0.0.1");

  // Local time (Tokyo), with UTC in the title.
  const time = created.locator("time");
  const utc = (await time.getAttribute("title"))!;
  expect(utc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  await expect(time).toContainText(/GMT\+9|JST/);
  await expect(time).not.toHaveText(utc);

  // The hash: 12 characters shown, all 64 on hover, copied whole.
  const hash = created.locator("code");
  await expect(hash).toHaveText(/^[0-9a-f]{12}…$/);
  const full = (await hash.getAttribute("title"))!;
  expect(full).toMatch(/^[0-9a-f]{64}$/);
  await created.getByRole("button", { name: "Copy the hash of the created entry" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(full);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // The certificate page of the signed PDF.
  const pdf = await fetch(`${quire.baseUrl}/esign/documents/${id}/download`, {
    headers: { authorization: `Bearer ${quire.seed.keys.contributor}`, "x-service-org-id": quire.seed.orgId },
  });
  expect(pdf.status).toBe(200);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-cert-")), "signed.pdf");
  fs.writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
  const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  const iso = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";
  expect(text).toMatch(new RegExp(`Sent: ${iso} Viewed: ${iso} Signed: ${iso}`));
  expect(text).toContain("IP address: 127.0.0.1");
  expect(text).not.toContain("::ffff:");
});

// The send form's email options (issue 19, sender items 8 and 9): subject, message, expiry date, a
// reminder every N days and cc, chosen in the dashboard; the signing email carries them, and once
// the service clock is moved past N days the scheduler's reminder shows in the Outbox.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { setClock } from "../tests/support/embedded";
import { api, mailsTo, onePagePdf, prepareForSigning, uniqueEmail } from "./esign";
import { expect, logIn, test } from "./fixtures";

const DAY = 24 * 3600_000;

async function dragField(page: Page, label: string, fx: number, fy: number) {
  const source = await page.getByRole("button", { name: label, exact: true }).boundingBox();
  const target = await page.getByLabel("Page 1", { exact: true }).boundingBox();
  if (!source || !target) throw new Error("palette or page not on screen");
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width * fx, target.y + target.height * fy, { steps: 8 });
  await page.mouse.up();
}

test.afterEach(async ({ quire }) => {
  await setClock(quire, 0);
});

test("send with a subject, message, expiry date, reminders and cc; the reminder arrives after the days pass", async ({ page, quire }) => {
  test.setTimeout(120_000);
  const signer = { name: "Rita Reminded", email: uniqueEmail("rita") };
  const cc = uniqueEmail("cc");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-")), "Lease.pdf");
  fs.writeFileSync(file, await onePagePdf("Lease agreement"));
  const expires = new Date(Date.now() + 10 * DAY);
  const day = `${expires.getFullYear()}-${String(expires.getMonth() + 1).padStart(2, "0")}-${String(expires.getDate()).padStart(2, "0")}`;

  await logIn(page, quire);
  await page.goto("/documents/new");
  await page.getByLabel("PDF, DOCX or PPTX").setInputFiles(file);
  await page.getByLabel("Signer 1 name").fill(signer.name);
  await page.getByLabel("Signer 1 email").fill(signer.email);
  await page.getByLabel("Subject (optional)").fill("Your lease, ready to sign");
  await page.getByLabel("Message to the signers (optional)").fill("Hello Rita,\nthe <keys> are waiting.");
  await page.getByLabel("Expires on (optional)").fill(day);
  await page.getByLabel("Remind every N days").fill("3");
  await page.getByLabel("Cc (optional)").fill(`${cc}, `);
  await page.getByRole("button", { name: "Continue to fields" }).click();

  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}\/prepare$/, { timeout: 30_000 });
  const documentId = /documents\/([0-9a-f-]{36})/.exec(page.url())![1];
  await expect(page.getByRole("img", { name: "Page 1" })).toBeVisible();
  await dragField(page, "Signature", 0.3, 0.6);
  await page.getByRole("button", { name: "Send for signing" }).click();
  await expect(page).toHaveURL(new RegExp(`/documents/${documentId}$`), { timeout: 30_000 });
  const options = page.getByRole("definition");
  await expect(options.filter({ hasText: "“Your lease, ready to sign”" })).toBeVisible();
  await expect(options.filter({ hasText: "every 3 day(s)" })).toBeVisible();
  await expect(options.filter({ hasText: cc })).toBeVisible();

  const doc = (await api(quire)(`/esign/documents/${documentId}`)).json.data;
  expect(doc.ccEmails).toEqual([cc]);
  expect(new Date(doc.expiresAt).getTime()).toBe(new Date(`${day}T23:59:59`).getTime());
  const [request] = await mailsTo(quire, signer.email);
  expect(request).toMatchObject({ kind: "signing_request", subject: "Your lease, ready to sign" });
  expect(request.text).toContain("Hello Rita,\nthe <keys> are waiting.");

  // Nothing after two days; a reminder after three.
  await setClock(quire, 2 * DAY + 3600_000);
  await page.waitForTimeout(2000);
  expect((await mailsTo(quire, signer.email)).filter((m) => m.kind === "signing_reminder")).toEqual([]);
  await setClock(quire, 3 * DAY + 3600_000);
  await expect.poll(async () => (await mailsTo(quire, signer.email)).filter((m) => m.kind === "signing_reminder").length, { timeout: 20_000 }).toBe(1);
  await page.goto(`/outbox?q=${encodeURIComponent(signer.email)}`);
  await expect(page.getByRole("row").filter({ hasText: "Reminder: Your lease, ready to sign" })).toHaveCount(1);
});

test("a bad cc address is refused with its field named, and nothing is created", async ({ page, quire }) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-")), "Memo.pdf");
  fs.writeFileSync(file, await onePagePdf("Memo"));
  await logIn(page, quire);
  await page.goto("/documents/new");
  await page.getByLabel("PDF, DOCX or PPTX").setInputFiles(file);
  await page.getByLabel("Signer 1 name").fill("Moe");
  await page.getByLabel("Signer 1 email").fill(uniqueEmail("moe"));
  await page.getByLabel("Cc (optional)").fill("not-an-address");
  await page.getByRole("button", { name: "Continue to fields" }).click();
  await expect(page.getByText(/ccEmails/)).toBeVisible();
  await expect(page).toHaveURL(/\/documents\/new$/);
});

test("the settings page sets the organization's default reminder interval, which a send without reminderDays takes", async ({ page, quire }) => {
  await logIn(page, quire);
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Signing reminders" });
  await form.getByLabel("Remind signers every N days").fill("many");
  await form.getByRole("button", { name: "Save reminders" }).click();
  await expect(form.getByText("must be a whole number of days")).toBeVisible();
  await form.getByLabel("Remind signers every N days").fill("5");
  await form.getByRole("button", { name: "Save reminders" }).click();
  await expect(form.getByText("Signers are reminded every 5 day(s) by default")).toBeVisible();
  try {
    const id = await prepareForSigning(quire, {
      name: "Default reminders",
      signer: { name: "Nia", email: uniqueEmail("nia") },
      fields: [{ type: "signature", x: 50, y: 100, width: 150, height: 40 }],
    });
    expect((await api(quire)(`/esign/documents/${id}`)).json.data.reminderDays).toBe(5);
    await page.reload();
    await expect(page.getByRole("form", { name: "Signing reminders" }).getByLabel("Remind signers every N days")).toHaveValue("5");
  } finally {
    await page.getByRole("form", { name: "Signing reminders" }).getByLabel("Remind signers every N days").fill("0");
    await page.getByRole("form", { name: "Signing reminders" }).getByRole("button", { name: "Save reminders" }).click();
    await expect(page.getByText("No automatic reminders by default")).toBeVisible();
  }
});

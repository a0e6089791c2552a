import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { api } from "./esign";
import { expect, logIn, test } from "./fixtures";

async function agreementPdf(): Promise<string> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawText("Consulting Agreement", { x: 60, y: 770, size: 22, font });
  page.drawText("Acme Corp engages Globex Ltd for the services described below.", { x: 60, y: 730, size: 11, font });
  page.drawText("Client signature:", { x: 60, y: 300, size: 11, font });
  page.drawText("Contractor signature:", { x: 320, y: 300, size: 11, font });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-")), "Consulting agreement.pdf");
  fs.writeFileSync(file, await pdf.save());
  return file;
}

/** Drags a palette field onto page 1 at a fraction of its width and height. */
async function dragField(page: Page, label: string, fx: number, fy: number) {
  const source = await page.getByRole("button", { name: label, exact: true }).boundingBox();
  const target = await page.getByLabel("Page 1", { exact: true }).boundingBox();
  if (!source || !target) throw new Error("palette or page not on screen");
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width * fx, target.y + target.height * fy, { steps: 8 });
  await page.mouse.up();
}

/** The newest signing link emailed to `email`, read from the dashboard's Outbox. */
async function linkFromOutbox(page: Page, email: string): Promise<string> {
  await page.goto("/outbox");
  await page.getByRole("row").filter({ hasText: email }).first().getByRole("link").click();
  const link = page.locator('a[href*="/sign/"]').first();
  await expect(link).toBeVisible();
  return (await link.getAttribute("href")) as string;
}

async function signWith(page: Page, text: string) {
  await page.getByRole("button", { name: /^Signature/ }).click();
  const pad = page.getByLabel("Signature drawing area");
  const box = await pad.boundingBox();
  if (!box) throw new Error("signature pad not shown");
  await page.mouse.move(box.x + 20, box.y + box.height * 0.6);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.3, { steps: 6 });
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.7, { steps: 6 });
  await page.mouse.up();
  await page.getByRole("button", { name: /^(Use|Apply|Done)/ }).click();
  await page.getByRole("textbox", { name: /^Text/ }).fill(text);
  await page.getByRole("button", { name: "Finish signing" }).click();
  await expect(page.getByRole("heading", { name: "You have signed" })).toBeVisible({ timeout: 30_000 });
}

test("send a two-signer document from the dashboard, sign it in order from the outbox, download the sealed PDF", async ({ page, browser, quire }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const alice = { name: "Alice Client", email: `alice.${stamp}@example.com` };
  const bob = { name: "Bob Contractor", email: `bob.${stamp}@example.com` };

  await logIn(page, quire);
  await page.getByRole("link", { name: "Documents" }).click();
  await page.getByRole("link", { name: "Send for signing" }).click();
  await page.getByLabel("PDF, DOCX or PPTX").setInputFiles(await agreementPdf());
  await page.getByLabel("Signer 1 name").fill(alice.name);
  await page.getByLabel("Signer 1 email").fill(alice.email);
  await page.getByRole("button", { name: "Add signer" }).click();
  await page.getByLabel("Signer 2 name").fill(bob.name);
  await page.getByLabel("Signer 2 email").fill(bob.email);
  await page.getByRole("button", { name: "Continue to fields" }).click();

  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}\/prepare$/, { timeout: 30_000 });
  const documentId = /documents\/([0-9a-f-]{36})/.exec(page.url())![1];
  await expect(page.getByRole("img", { name: "Page 1" })).toBeVisible();

  // Sending without fields for Bob is refused with his name.
  await page.getByRole("radio", { name: new RegExp(alice.name) }).check();
  await dragField(page, "Signature", 0.22, 0.7);
  await dragField(page, "Text", 0.22, 0.78);
  await page.getByRole("button", { name: "Send for signing" }).click();
  await expect(page.getByText(`Place at least one field for ${bob.name}`)).toBeVisible();

  await page.getByRole("radio", { name: new RegExp(bob.name) }).check();
  await dragField(page, "Signature", 0.66, 0.7);
  await dragField(page, "Text", 0.66, 0.78);
  await expect(page.getByRole("button", { name: new RegExp(`for ${bob.name} on page 1`) })).toHaveCount(2);
  // A placed field moves with the keyboard.
  const bobText = page.getByRole("button", { name: `Text for ${bob.name} on page 1` });
  const pageOne = page.getByLabel("Page 1", { exact: true });
  const offsetY = async () => (await bobText.boundingBox())!.y - (await pageOne.boundingBox())!.y;
  await bobText.focus();
  const before = await offsetY();
  await page.keyboard.press("Shift+ArrowDown");
  await expect.poll(offsetY).toBeGreaterThan(before + 5);
  await page.getByRole("button", { name: "Send for signing" }).click();
  await expect(page).toHaveURL(new RegExp(`/documents/${documentId}$`), { timeout: 30_000 });
  await expect(page.getByText("sent", { exact: true }).first()).toBeVisible();

  // Bob gets his link early (resend to him) and is turned away: Alice signs first.
  await page.getByRole("button", { name: `Resend the signing email to ${bob.name}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sent to 1 signer(s)." })).toBeVisible();
  const signer = await browser.newContext();
  const signerPage = await signer.newPage();
  const bobEarlyLink = await linkFromOutbox(page, bob.email);
  await signerPage.goto(bobEarlyLink);
  await expect(signerPage.getByRole("heading", { name: "Not your turn yet" })).toBeVisible();

  await signerPage.goto(await linkFromOutbox(page, alice.email));
  await signWith(signerPage, "Alice agrees to clause 4");

  // Bob is emailed when his turn comes.
  await signerPage.goto(await linkFromOutbox(page, bob.email));
  await signWith(signerPage, "Bob delivers by March");
  await signer.close();

  await page.goto(`/documents/${documentId}`);
  await expect(page.getByText("completed", { exact: true }).first()).toBeVisible();
  // The audit trail says who acted: each signer on their entries.
  await expect(page.getByText(`by ${alice.name}`).first()).toBeVisible();
  await expect(page.getByText(`by ${bob.name}`).first()).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download signed PDF" }).click()]);
  const file = await download.path();
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  for (const expected of ["Consulting Agreement", "Alice agrees to clause 4", "Bob delivers by March", alice.email, bob.email])
    expect(text).toContain(expected);
  const sig = execFileSync("pdfsig", [file], { encoding: "utf8" });
  expect(sig).toMatch(/Signature is Valid/);
});

test("a file over the 25 MB signing limit is refused before it is sent", async ({ page, quire }) => {
  await logIn(page, quire);
  await page.goto("/documents/new");
  const posts: string[] = [];
  page.on("request", (r) => r.method() === "POST" && posts.push(r.url()));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-big-"));
  const big = path.join(dir, "Huge contract.pdf");
  fs.writeFileSync(big, Buffer.alloc(26 * 1024 * 1024, 1));
  try {
    await page.getByLabel("PDF, DOCX or PPTX").setInputFiles(big);
    await page.getByLabel("Signer 1 name").fill("Alice Client");
    await page.getByLabel("Signer 1 email").fill("alice@example.com");
    await page.getByRole("button", { name: "Continue to fields" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "25 MB" })).toHaveText("The file is larger than 25 MB");
    expect(posts).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("send a deliverable for signing: it is chosen by its labelled select and becomes the document", async ({ page, quire }) => {
  const templates = await api(quire)("/template-item?type=template&query=services%20agreement");
  const name = `Signable deliverable ${Date.now()}`;
  const created = await api(quire)("/v1/deliverable", {
    method: "POST",
    body: { name, templateId: templates.json.data.results[0].id, variables: [{ placeholder: "{ClientName}", mimeType: "text", text: "Initech LLC" }] },
  });
  expect(created.status, created.text).toBe(200);

  await logIn(page, quire);
  await page.goto("/documents/new");
  await page.getByRole("tab", { name: "A deliverable" }).click();
  const select = page.getByLabel("Deliverable", { exact: true });
  await expect(select).toBeVisible();
  await select.selectOption({ label: name });
  await page.getByLabel("Signer 1 name").fill("Dana Deliverable");
  await page.getByLabel("Signer 1 email").fill(`dana.${Date.now()}@example.com`);
  await page.getByRole("button", { name: "Continue to fields" }).click();
  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}\/prepare$/, { timeout: 30_000 });
  await expect(page.getByText(name).first()).toBeVisible();
});

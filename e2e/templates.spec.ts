import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildDocx } from "../tests/support/ooxml";
import { expect, logIn, test } from "./fixtures";

test("upload a template into a new folder, find it by search, see its placeholders, tag it", async ({ page, quire }) => {
  await logIn(page, quire);
  await page.getByRole("link", { name: "Templates" }).click();
  await expect(page.getByRole("link", { name: /Sales/ })).toBeVisible(); // seeded sample folder

  await page.getByRole("button", { name: "New folder" }).click();
  await page.getByLabel("Folder name").fill("E2E Folder");
  await page.getByRole("button", { name: "Create folder" }).click();
  await page.getByRole("link", { name: /E2E Folder/ }).click();
  await expect(page.getByRole("navigation", { name: "Breadcrumbs" })).toContainText("E2E Folder");

  const docx = buildDocx(["Dear {ClientName},", "your fee is {Fee}."]);
  await page
    .getByLabel("Template file")
    .setInputFiles({ name: "E2E-Offer Letter.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: docx });
  await expect(page.getByRole("status").filter({ hasText: "Uploaded" })).toContainText("E2E-Offer Letter");
  await expect(page.getByRole("link", { name: /E2E-Offer Letter/ })).toBeVisible();

  await page.getByRole("link", { name: "All templates" }).click();
  await page.getByLabel("Search templates").fill("e2e-OFFER");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Showing 1–1 of 1")).toBeVisible();
  await page.getByRole("link", { name: /E2E-Offer Letter/ }).click();

  const placeholders = page.getByRole("list", { name: "Placeholders" });
  await expect(placeholders).toContainText("{ClientName}");
  await expect(placeholders).toContainText("{Fee}");
  // The template's pages, converted to PDF, are shown as images the width of the column; the PDF is a link away.
  const first = page.getByRole("list", { name: "Pages of E2E-Offer Letter" }).getByRole("img", { name: "Page 1 of 1" });
  await expect(first).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(500);
  expect((await first.boundingBox())!.height).toBeGreaterThan(500);
  const preview = await page.request.get((await page.getByRole("link", { name: "Open as PDF" }).getAttribute("href"))!);
  expect(preview.status()).toBe(200);
  expect(preview.headers()["content-type"]).toBe("application/pdf");
  expect((await preview.body()).subarray(0, 5).toString()).toBe("%PDF-");
  await page.getByLabel("Tags (comma-separated)").fill("e2e, legal");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Tags (comma-separated)")).toHaveValue("e2e, legal");
});

test("a hostile upload shows the server's reason and nothing is added; the browser fits a phone", async ({ page, quire }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, quire);
  await page.goto("/templates");
  const before = await page.getByText(/Showing \d+–\d+ of \d+/).textContent();
  await page.getByLabel("Template file").setInputFiles({ name: "invoice.docx", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.7\n%%EOF") });
  await expect(page.getByRole("alert").filter({ hasText: "PDF" })).toContainText("The file is a PDF, not a DOCX or PPTX");
  await page.reload();
  await expect(page.getByText(/Showing \d+–\d+ of \d+/)).toHaveText(before!);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test("a file over the upload limit is refused with the limit message before it is sent", async ({ page, quire }) => {
  await logIn(page, quire);
  await page.goto("/templates");
  // The dashboard checks the size first; the server's own streamed refusal is tested in uploads.test.ts.
  const uploads: string[] = [];
  page.on("request", (r) => r.method() === "POST" && r.url().includes("/api/dashboard/templates") && uploads.push(r.url()));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-big-"));
  const big = path.join(dir, "Huge deck.pptx");
  fs.writeFileSync(big, Buffer.alloc(60 * 1024 * 1024, 1));
  try {
    await page.getByLabel("Template file").setInputFiles(big);
    await expect(page.getByRole("alert").filter({ hasText: "limit" })).toContainText("The file is larger than the 25 MB limit", { timeout: 15_000 });
    expect(uploads).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

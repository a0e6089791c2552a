import { execFileSync } from "node:child_process";
import { expect, logIn, test } from "./fixtures";

test("generate a deliverable from the seeded contract in the dashboard and download its PDF", async ({ page, quire }) => {
  await logIn(page, quire);
  await page.getByRole("link", { name: "Deliverables" }).click();
  await page.getByRole("link", { name: "Generate a document" }).click();
  await page.getByRole("link", { name: /Services Agreement/ }).click();
  await expect(page.getByRole("heading", { name: /Generate from “Services Agreement”/ })).toBeVisible();

  await page.getByLabel("Document name").fill("Initech agreement");
  await page.getByLabel("Tags (comma-separated)").fill("e2e, contracts");
  await page.getByLabel("Value for {ClientName}").fill("Initech LLC");
  await page.getByLabel("Value for {Fee}").fill("5,000 EUR");
  await page.getByRole("textbox", { name: "Value for {@Scope}" }).click();
  await page.keyboard.type("Replace the TPS report workflow");
  // The logo is optional here: skip it.
  const logo = page.locator("li", { has: page.locator("code", { hasText: "{%Logo}" }) });
  await logo.getByLabel("skip").check();
  // Two rows in the price table.
  const item = page.locator("li", { has: page.locator("code", { hasText: "{ItemName}" }) });
  await item.getByLabel("repeat").check();
  await item.getByLabel("Value for {ItemName}").first().fill("Discovery");
  await item.getByRole("button", { name: "Add entry" }).click();
  await item.getByLabel("Value for {ItemName}").nth(1).fill("Delivery");

  await page.getByRole("button", { name: "Generate" }).click();
  await expect(page).toHaveURL(/\/deliverables\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Initech agreement" })).toBeVisible();
  await expect(page.frameLocator('iframe[title="PDF preview"]').locator("body")).toBeAttached();
  await expect(page.getByText("{ClientName}")).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PDF" }).click()]);
  expect(download.suggestedFilename()).toBe("Initech agreement.pdf");
  const file = await download.path();
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  for (const expected of ["Initech LLC", "5,000 EUR", "Replace the TPS report workflow", "Discovery", "Delivery"]) expect(text).toContain(expected);

  // It is listed, findable by name, with its tags.
  await page.getByRole("link", { name: "Deliverables" }).click();
  await page.getByLabel("Search by name").fill("initech");
  await page.getByRole("button", { name: "Apply" }).click();
  const row = page.getByRole("row", { name: /Initech agreement/ });
  await expect(row).toContainText("contracts, e2e");
});

test("generation errors are shown, and the deliverables pages fit a phone", async ({ page, quire }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, quire);
  await page.goto("/deliverables/new");
  await page.getByRole("link", { name: /Services Agreement/ }).click();
  await page.getByLabel("Document name").fill("No");
  await page.getByLabel("Document name").evaluate((el: HTMLInputElement) => el.removeAttribute("minlength"));
  await page.getByRole("button", { name: "Generate" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "name must be 3 to 255 characters" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.goto("/deliverables");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

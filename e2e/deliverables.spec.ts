import { execFileSync } from "node:child_process";
import { buildDocx } from "../tests/support/ooxml";
import { api } from "./esign";
import { expect, logIn, test } from "./fixtures";

test("generate a deliverable from the seeded contract in the dashboard and download its PDF", async ({ page, quire }) => {
  await logIn(page, quire);
  await page.getByRole("link", { name: "Deliverables" }).click();
  await page.getByRole("link", { name: "Generate a document" }).click();
  await page.getByRole("link", { name: /Services Agreement/ }).click();
  await expect(page.getByRole("heading", { name: /Generate from “Services Agreement”/ })).toBeVisible();

  await page.getByLabel("Document name").fill("Initech agreement");
  await page.getByLabel("Tags (comma-separated)").fill("e2e, contracts");
  // Fields are labelled by readable names, each with the input its placeholder needs (no "kind" to pick).
  await expect(page.getByRole("combobox", { name: /^Kind/ })).toHaveCount(0);
  await page.getByRole("textbox", { name: "Client name", exact: true }).fill("Initech LLC");
  await page.getByRole("textbox", { name: "Fee", exact: true }).fill("5,000 EUR");
  await page.getByRole("textbox", { name: "Scope", exact: true }).click();
  await page.keyboard.type("Replace the TPS report workflow");
  // The logo is optional here: leave it out.
  const logo = page.locator("li", { has: page.getByLabel("Logo", { exact: true }) });
  await expect(logo).toContainText("an image");
  await logo.getByLabel("Leave out").check();
  // The price table's row is one block with one repeat: two rows.
  const items = page.getByRole("group", { name: "Table row: Item name, Item qty, Item price" });
  await items.getByLabel("Repeat row").check();
  await items.getByLabel("Item name, row 1").fill("Discovery");
  await items.getByLabel("Item qty, row 1").fill("1");
  await items.getByRole("button", { name: "Add row" }).click();
  await items.getByLabel("Item name, row 2").fill("Delivery");
  await items.getByLabel("Item qty, row 2").fill("3");
  await expect(items.getByLabel("Repeat", { exact: true })).toHaveCount(0); // the row repeats as a whole, not column by column

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
  // One table row per entry, each with its own quantity.
  expect(text).toMatch(/Discovery\s+1/);
  expect(text).toMatch(/Delivery\s+3/);

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
  await page.getByRole("textbox", { name: "Client name", exact: true }).fill("Initech LLC"); // not all blank: the server answers
  await page.getByRole("button", { name: "Generate" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "name must be 3 to 255 characters" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.goto("/deliverables");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test("generating with every field blank asks first", async ({ page, quire }) => {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(buildDocx(["Dear {first_name},", "{Notes}"]))]), "Blank check.docx");
  const created = await api(quire)("/template", { method: "POST", body: form });
  expect(created.status, created.text).toBe(201);
  await logIn(page, quire);
  await page.goto(`/deliverables/new?templateId=${created.json.data.id}`);
  await expect(page.getByRole("textbox", { name: "First name", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Generate" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Every field is blank" })).toBeVisible();
  await expect(page).toHaveURL(/\/deliverables\/new\?templateId=/);
  // Typing answers the question; blank again, "Generate anyway" goes ahead.
  await page.getByRole("textbox", { name: "First name", exact: true }).fill("x");
  await expect(page.getByRole("alert").filter({ hasText: "Every field is blank" })).toHaveCount(0);
  await page.getByRole("textbox", { name: "First name", exact: true }).fill("");
  await page.getByRole("button", { name: "Generate" }).click();
  await page.getByRole("button", { name: "Generate anyway" }).click();
  await expect(page).toHaveURL(/\/deliverables\/[0-9a-f-]{36}$/, { timeout: 30_000 });
});

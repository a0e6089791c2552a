import { execFileSync } from "node:child_process";
import { authHeaders } from "../tests/support/api";
import { expect, logIn, test } from "./fixtures";

test("generate the sample invoice: JSON editors checked as you type, loop rows, and the PDF shows the computed amounts", async ({ page, quire }) => {
  await logIn(page, quire);
  await page.goto("/deliverables/new");
  await page.getByRole("link", { name: /Invoice/ }).click();
  await expect(page.getByRole("heading", { name: /Generate from “Invoice”/ })).toBeVisible();
  await page.getByLabel("Document name").fill("Invoice 2026-0042");

  // A JSON editor says at once when its text is not JSON, and sends nothing until it is.
  const invoice = page.getByLabel("JSON for {invoice}");
  await invoice.fill('{"number": "2026-0042",');
  await expect(invoice).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("status").filter({ hasText: "{invoice} is not valid JSON" })).toBeVisible();
  await invoice.fill(JSON.stringify({ number: "2026-0042", date: "24 November 2026", currency: "EUR", subtotal: 1550, taxRate: 0.2, paid: false }));
  await expect(invoice).toHaveAttribute("aria-invalid", "false");
  await page
    .getByLabel("JSON for {client}")
    .fill(JSON.stringify({ name: "Initech GmbH", vatId: "", address: { street: "Hauptstraße 1", postcode: "10115", city: "Berlin" } }));
  await page.getByLabel("JSON for {provider}").fill(JSON.stringify({ name: "Acme Consulting Ltd", iban: "GB33 BUKB 2020 1555 5555 55" }));

  // The loop's fields as rows: one to start with, another added.
  await page.getByLabel("description of items row 1").fill("Discovery workshop");
  await page.getByLabel("quantity of items row 1").fill("1");
  await page.getByLabel("unitPrice of items row 1").fill("550");
  await page.getByRole("button", { name: "Add row to items" }).click();
  await page.getByLabel("description of items row 2").fill("Design iterations");
  await page.getByLabel("quantity of items row 2").fill("4");
  await page.getByLabel("unitPrice of items row 2").fill("250");

  await page.getByRole("button", { name: "Generate" }).click();
  await expect(page).toHaveURL(/\/deliverables\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PDF" }).click()]);
  const text = execFileSync("pdftotext", ["-layout", await download.path(), "-"], { encoding: "utf8" });
  for (const expected of ["Invoice 2026-0042", "Bill to: Initech GmbH", "Hauptstraße 1, 10115 Berlin", "Total: 1860.00 EUR"]) expect(text).toContain(expected);
  expect(text).toMatch(/Discovery workshop\s+1\s+550\.00\s+550\.00/);
  expect(text).toMatch(/Design iterations\s+4\s+250\.00\s+1000\.00/);
  // An empty VAT ID is a false condition; the invoice is unpaid and small: those lines are gone.
  expect(text).not.toMatch(/VAT ID|Paid in full|instalments|\{|\}/);
});

test("the template page checks a template and says what it found", async ({ page, quire }) => {
  const listed = await fetch(`${quire.baseUrl}/template-item?type=template&query=Invoice&limit=5`, { headers: authHeaders(quire.seed, "contributor") });
  const invoice = (await listed.json()).data.results.find((t: { name: string }) => t.name === "Invoice");
  await logIn(page, quire);
  await page.goto(`/templates/${invoice.id}`);
  await expect(page.getByRole("list", { name: "Placeholders" })).toContainText("loop");
  await page.getByRole("button", { name: "Check template" }).click();
  await expect(page.getByText(/No problems found/)).toBeVisible({ timeout: 30_000 });
});

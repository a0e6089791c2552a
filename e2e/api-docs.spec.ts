// The dashboard's API reference: reached from the navigation, operations grouped by tag, one
// unfolded to its parameters and responses, a schema followed by its link, the raw document one
// click away, and the page fitting a phone.
import { expect, logIn, test } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 } });

test("a user reads the API reference on a phone", async ({ page, quire }) => {
  await logIn(page, quire, quire.seed.login);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API reference" }).click();
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  await expect(page.getByText(`x-service-org-id: ${quire.seed.orgId}`, { exact: true })).toBeVisible();

  // Grouped by tag, with every section present.
  for (const tag of ["Deliverables", "Templates", "Signing", "Webhooks", "Service"]) {
    await expect(page.getByRole("heading", { name: tag, level: 2 })).toBeVisible();
  }
  const operations = page.getByTestId("operation");
  expect(await operations.count()).toBeGreaterThan(40);
  const deliverables = page.getByRole("region", { name: "Deliverables" });
  await expect(deliverables.getByTestId("operation").first()).toContainText("/v1/deliverable");

  // Unfold one: its query parameters with defaults, and its responses with their fields.
  const list = page.locator("details#listDeliverables");
  await expect(list.getByText("Parameters")).toBeHidden();
  await list.locator(":scope > summary").click();
  await expect(list.getByText("Parameters")).toBeVisible();
  await expect(list.getByText("default 6")).toBeVisible();
  await expect(list.getByText("data.totalRecords")).toBeVisible();
  await expect(list.getByText("401", { exact: true })).toBeVisible();

  // A component link leads to the schema, which unfolds to its fields.
  await list.getByRole("link", { name: "DeliverableListItem" }).first().click();
  const schema = page.locator("details#schema-DeliverableListItem");
  await schema.locator(":scope > summary").click();
  await expect(schema.getByText("templateId", { exact: true })).toBeVisible();

  // The deprecated endpoint says so.
  await expect(page.locator("details#getSigningLink > summary")).toContainText("deprecated");

  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  // The raw document is one click away.
  const href = await page.getByRole("link", { name: "OpenAPI JSON" }).getAttribute("href");
  expect(href).toBe("/api/openapi.json");
  const raw = await page.request.get(href!);
  expect(raw.status()).toBe(200);
  expect((await raw.json()).openapi).toBe("3.1.0");
});

test("each operation has an example and can be tried with the user's key; no internal notes show", async ({ page, quire }) => {
  await logIn(page, quire, quire.seed.login);
  await page.goto("/api-docs");
  // Section numbers of the project's own spec ("(4.2)", "interface.md") are not for readers.
  await expect(page.locator("main")).not.toContainText(/\((?:[1-9]\.[0-9]+)(?:, [1-9]\.[0-9]+)*\)|interface\.md|decisions\.md/);
  const operations = page.getByTestId("operation");
  const count = await operations.count();
  // Folded operations hide their headings from the accessibility tree: count the elements.
  expect(await operations.locator("h4", { hasText: /^Example$/ }).count()).toBe(count);

  // Creating a deliverable: the curl example carries the org id and a JSON body.
  const create = page.locator("details#createDeliverable");
  await create.locator(":scope > summary").click();
  const example = create.locator("pre", { hasText: "curl -X" });
  await expect(example).toContainText(`curl -X POST '${quire.baseUrl}/v1/deliverable'`);
  await expect(example).toContainText(`x-service-org-id: ${quire.seed.orgId}`);
  await expect(example).toContainText('"templateId"');

  // Try a call: listing deliverables with a real key, then a wrong key.
  const list = page.locator("details#listDeliverables");
  await list.locator(":scope > summary").click();
  const form = list.getByRole("form", { name: "Try GET /v1/deliverable" });
  await form.getByLabel("API key").fill(quire.seed.keys.viewer);
  await form.getByLabel("limit").fill("2");
  await form.getByRole("button", { name: "Send request" }).click();
  await expect(form.getByRole("status")).toContainText("Reply: HTTP 200");
  await expect(form.getByRole("status")).toContainText('"totalRecords"');
  await form.getByLabel("API key").fill("qk_wrong");
  await form.getByRole("button", { name: "Send request" }).click();
  await expect(form.getByRole("status")).toContainText("Reply: HTTP 401");
});

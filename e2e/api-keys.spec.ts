import { countNativeDialogs, expect, logIn, test } from "./fixtures";

async function whoami(baseUrl: string, key: string, orgId: string) {
  const res = await fetch(`${baseUrl}/api/whoami`, { headers: { authorization: `Bearer ${key}`, "x-service-org-id": orgId } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

test("the dashboard asks for a login and refuses a wrong password", async ({ page, quire }) => {
  await page.goto("/api-keys");
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill(quire.seed.login.email);
  await page.getByLabel("Password").fill("definitely-wrong");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "incorrect" })).toHaveText("Email or password is incorrect.");
});

test("an administrator creates an API key, uses it, and revokes it", async ({ page, quire }) => {
  await logIn(page, quire);
  await expect(page.getByTestId("org-id")).toHaveText(quire.seed.orgId);

  await page.getByRole("link", { name: "API keys" }).click();
  await page.getByLabel("Name").fill("Browser test key");
  await page.getByLabel("Role").selectOption("contributor");
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-api-key");
  await expect(shown).toBeVisible();
  const key = (await shown.textContent())!.trim();
  expect(key).toMatch(/^qk_[0-9a-f]{12}_/);
  await expect(page.getByRole("status")).toContainText("not shown again");

  // The key works at once over HTTP, with its role.
  const used = await whoami(quire.baseUrl, key, quire.seed.orgId);
  expect(used).toEqual({ status: 200, body: { data: { orgId: quire.seed.orgId, role: "contributor", keyPrefix: key.slice(0, 15) } } });

  // The list shows prefix, role and that it has been used; never the secret.
  await page.reload();
  const row = page.getByTestId(`key-row-${key.slice(0, 15)}`);
  await expect(row).toContainText("Browser test key");
  await expect(row).toContainText("contributor");
  await expect(row).not.toContainText("never");
  await page.screenshot({ path: ".test-output/api-keys.png", fullPage: true });
  await expect(page.locator("body")).not.toContainText(key.slice(16));

  // Revoking asks in the in-page dialog (never the browser's confirm box): Escape keeps the key and gives
  // focus back to the button; Tab from Cancel to the confirm button and Enter revokes it.
  const nativeDialogs = countNativeDialogs(page);
  const revoke = row.getByRole("button", { name: "Revoke Browser test key" });
  await revoke.click();
  const confirm = page.getByRole("alertdialog", { name: "Revoke Browser test key?" });
  await expect(confirm).toBeVisible();
  await expect(confirm).toHaveAccessibleDescription("Requests using it will fail at once.");
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(revoke).toBeFocused();
  await expect(row).not.toContainText("revoked");
  expect((await whoami(quire.baseUrl, key, quire.seed.orgId)).status).toBe(200);

  await page.keyboard.press("Enter");
  await expect(confirm).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(confirm.getByRole("button", { name: "Revoke key" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(confirm).toBeHidden();
  await expect(row).toContainText("revoked");
  expect(nativeDialogs()).toBe(0);
  expect((await whoami(quire.baseUrl, key, quire.seed.orgId)).status).toBe(401);
});

test("the dashboard fits a phone screen", async ({ page, quire }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, quire);
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByText("Plan limits")).toBeVisible();
  await page.screenshot({ path: ".test-output/settings-phone.png", fullPage: true });
});

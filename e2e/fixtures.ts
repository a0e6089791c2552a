import { test as base, expect, type Page } from "@playwright/test";
import type { QuireTestServer } from "../tests/support/quire-server";

export const test = base.extend<{ quire: QuireTestServer }>({
  // eslint-disable-next-line no-empty-pattern
  quire: async ({}, use) => {
    await use(JSON.parse(process.env.QUIRE_E2E_SERVER as string) as QuireTestServer);
  },
});
export { expect };

export async function logIn(page: Page, quire: QuireTestServer): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(quire.seed.login.email);
  await page.getByLabel("Password").fill(quire.seed.login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
}

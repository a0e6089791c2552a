import { test as base, expect, type Page } from "@playwright/test";
import type { QuireTestServer } from "../tests/support/quire-server";

export const test = base.extend<{ quire: QuireTestServer }>({
  // eslint-disable-next-line no-empty-pattern
  quire: async ({}, use) => {
    await use(JSON.parse(process.env.QUIRE_E2E_SERVER as string) as QuireTestServer);
  },
});
export { expect };

/** Signs in to the dashboard, by default as the demo workspace's administrator. */
export async function logIn(page: Page, quire: QuireTestServer, login = quire.seed.login): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
}

/** Dismisses and counts the browser's own alert/confirm/prompt boxes: the pages ask in their in-page dialog instead. */
export function countNativeDialogs(page: Page): () => number {
  let count = 0;
  page.on("dialog", (d) => {
    count++;
    void d.dismiss();
  });
  return () => count;
}

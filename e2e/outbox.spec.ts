import { expect, logIn, test } from "./fixtures";
import { mailsTo, prepareForSigning, uniqueEmail } from "./esign";

test("an administrator finds a signing email in the Outbox, reads it, and follows its signing link", async ({ page, quire }) => {
  const email = uniqueEmail("olivia");
  const name = `Outbox NDA ${Date.now()}`;
  await prepareForSigning(quire, { name, signer: { name: "Olivia Outbox", email }, fields: [{ type: "signature", x: 50, y: 600, width: 200, height: 50 }] });

  await logIn(page, quire);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Outbox" }).click();
  await expect(page.getByRole("heading", { name: "Outbox" })).toBeVisible();
  // The test server has no SMTP_URL: the page must say mail stays here.
  await expect(page.getByText(/SMTP_URL is not set, so emails are not delivered/)).toBeVisible();

  await page.getByLabel("Search by recipient").fill(email.split("@")[0].toUpperCase());
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("Showing 1–1 of 1")).toBeVisible();
  const subject = `Sam Sender asks you to sign “${name}”`;
  const row = page.getByRole("row", { name: new RegExp(email) });
  await expect(row).toContainText("signing request");
  await expect(row).toContainText("outbox");
  await expect(row).not.toContainText("failed");
  await row.getByRole("link", { name: subject }).click();

  await expect(page).toHaveURL(/\/outbox\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: subject })).toBeVisible();
  const headers = page.getByRole("definition");
  await expect(headers.filter({ hasText: email })).toHaveCount(1);
  await expect(headers.filter({ hasText: "sam@example.com" })).toHaveCount(1); // Reply-To: the sender
  await expect(page.getByText("recorded only, not delivered")).toBeVisible();

  // The HTML renders in a sandbox; its links open a new tab rather than navigating the frame.
  const frame = page.frameLocator('iframe[title="Email HTML"]');
  await expect(frame.getByRole("heading", { name: `Please sign “${name}”` })).toBeVisible();
  await expect(page.locator('iframe[title="Email HTML"]')).toHaveAttribute("sandbox", "allow-popups allow-popups-to-escape-sandbox");
  const [popup] = await Promise.all([page.waitForEvent("popup"), frame.getByRole("link", { name: "Review and sign" }).click()]);
  await expect(popup).toHaveURL(/\/sign\/[A-Za-z0-9_-]+$/);
  await popup.close();

  await page.getByRole("tab", { name: "Plain text" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("Review and sign: http");

  const links = page.getByRole("list", { name: "Links in this email" });
  await expect(links.getByRole("listitem")).toHaveCount(1);
  await expect(links).toContainText("Review and sign");
  const link = links.getByRole("link", { name: /\/sign\// });
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^http:\/\/[^/]+\/sign\/[A-Za-z0-9_-]+$/);
  await link.click();
  await expect(page).toHaveURL(href!);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByText("Sam Sender asks you, Olivia Outbox, to sign.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Signature \(required\)/ })).toBeVisible();
});

test("the outbox fits a phone, and another organization cannot open this one's messages", async ({ page, quire }) => {
  const email = uniqueEmail("phone");
  await prepareForSigning(quire, {
    name: `Phone check ${Date.now()}`,
    signer: { name: "Pat Phone", email },
    fields: [{ type: "signature", x: 50, y: 600, width: 200, height: 50 }],
  });
  const [message] = await mailsTo(quire, email);

  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, quire);
  await page.goto("/outbox");
  await expect(page.getByRole("link", { name: message.subject })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.goto(`/outbox/${message.id}`);
  await expect(page.getByRole("heading", { name: message.subject })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  await page.context().clearCookies();
  await logIn(page, quire, quire.other.login);
  const res = await page.goto(`/outbox/${message.id}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByText(message.subject)).toHaveCount(0);
  await page.goto(`/outbox?q=${encodeURIComponent(email)}`);
  await expect(page.getByText("Showing 0–0 of 0")).toBeVisible();
});

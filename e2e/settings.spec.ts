// Settings page, Embedded signing section: an administrator edits the settings (validation next to
// the fields, nothing saved on bad input), manages identity providers and the SMS provider, and
// API clients see the change through GET /esign/embedded-signing-settings. At phone width.
import type { Page } from "@playwright/test";
import { as } from "../tests/support/api";
import { orgWith } from "../tests/support/embedded";
import { expect, logIn, test } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 } });

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test("an administrator edits embedded signing settings, identity providers and the SMS provider", async ({ page, quire }) => {
  const org = await orgWith(quire, {});
  const settings = async () => (await as(quire.baseUrl, org, "viewer")("/esign/embedded-signing-settings")).json.data.results;
  const before = await settings();
  expect(before).toEqual({
    enabled: false,
    allowExternalIdv: false,
    allowIdentityOverride: false,
    defaultChannel: "none",
    allowChannelOverride: true,
    allowedFrameAncestors: [],
  });

  await logIn(page, quire, org.login);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Embedded signing", exact: true })).toBeVisible();
  const form = page.getByRole("form", { name: "Embedded signing settings" });

  await form.getByLabel("Enable embedded signing and identity verification").check();
  await form.getByLabel("Allow external identity verification").check();
  await form.getByLabel("Default passcode channel").selectOption("email");
  await form.getByLabel("Requests may choose another channel").uncheck();
  await form.getByLabel("Allowed origin 1").fill("https://x.com/path");
  await form.getByRole("button", { name: "+ Add origin" }).click();
  await form.getByLabel("Allowed origin 2").fill("https://partner.example.com:8443");
  await form.getByRole("button", { name: "Save embedded signing" }).click();

  // The bad origin is named next to its own field; nothing is saved.
  await expect(form.getByText("https://x.com/path is not an origin (like https://app.example.com)")).toBeVisible();
  await expect(form.getByLabel("Allowed origin 1")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Allowed origin 2")).not.toHaveAttribute("aria-invalid", "true");
  await expect(form.getByRole("alert")).toHaveText("Fix the highlighted fields");
  expect(await settings()).toEqual(before);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);

  await form.getByLabel("Allowed origin 1").fill("https://App.Example.com/");
  await form.getByRole("button", { name: "Save embedded signing" }).click();
  await expect(form.getByRole("status").filter({ hasText: "Embedded signing settings saved" })).toBeVisible();
  await expect(form.getByLabel("Allowed origin 1")).toHaveValue("https://app.example.com");
  expect(await settings()).toEqual({
    enabled: true,
    allowExternalIdv: true,
    allowIdentityOverride: false,
    defaultChannel: "email",
    allowChannelOverride: false,
    allowedFrameAncestors: ["https://app.example.com", "https://partner.example.com:8443"],
  });

  // Saved values come back after a reload.
  await page.reload();
  await expect(form.getByLabel("Enable embedded signing and identity verification")).toBeChecked();
  await expect(form.getByLabel("Allow identity override")).not.toBeChecked();
  await expect(form.getByLabel("Default passcode channel")).toHaveValue("email");
  await expect(form.getByLabel("Allowed origin 2")).toHaveValue("https://partner.example.com:8443");

  // Removing every origin denies all framing.
  await form.getByRole("button", { name: "Remove origin 2" }).click();
  await form.getByRole("button", { name: "Remove origin 1" }).click();
  await form.getByRole("button", { name: "Save embedded signing" }).click();
  await expect(form.getByRole("status").filter({ hasText: "Embedded signing settings saved" })).toBeVisible();
  expect((await settings()).allowedFrameAncestors).toEqual([]);

  // Identity providers: the seeded HS256 one shows no secret; add with validation, then remove.
  const providers = page.getByRole("list", { name: "Identity providers" });
  await expect(providers.getByTestId("provider-acme-idv")).toContainText("HS256 secret");
  await expect(providers.getByTestId("provider-acme-idv")).toContainText("secret saved");
  const add = page.getByRole("form", { name: "Add an identity provider" });
  await add.getByLabel("Provider name").fill("corp-idv");
  await add.getByLabel("JWKS URL").fill("http://idv.example.com/jwks.json");
  await add.getByRole("button", { name: "Add provider" }).click();
  await expect(add.getByText("must be an https URL")).toBeVisible();
  await add.getByLabel("Verification key").selectOption("hs256");
  await add.getByLabel("Shared secret").fill("too-short");
  await add.getByRole("button", { name: "Add provider" }).click();
  await expect(add.getByText("must be at least 32 characters")).toBeVisible();
  const secret = "corp-idv-shared-secret-0123456789abcdef";
  await add.getByLabel("Shared secret").fill(secret);
  await add.getByRole("button", { name: "Add provider" }).click();
  await expect(add.getByRole("status")).toHaveText("Identity provider “corp-idv” added");
  await expect(providers.getByTestId("provider-corp-idv")).toContainText("secret saved");
  await add.getByLabel("Provider name").fill("corp-idv");
  await add.getByLabel("Verification key").selectOption("jwks");
  await add.getByLabel("JWKS URL").fill("https://idv.example.com/jwks.json");
  await add.getByRole("button", { name: "Add provider" }).click();
  await expect(add.getByText("already used by another provider")).toBeVisible();

  await providers.getByRole("button", { name: "Remove acme-idv" }).click();
  await page.getByRole("alertdialog", { name: "Remove identity provider “acme-idv”?" }).getByRole("button", { name: "Remove provider" }).click();
  await expect(providers.getByTestId("provider-acme-idv")).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("list", { name: "Identity providers" }).getByTestId("provider-corp-idv")).toBeVisible();
  await expect(page.getByTestId("provider-acme-idv")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  // SMS provider: Twilio-compatible needs a token the first time; the token is never shown back.
  const sms = page.getByRole("form", { name: "SMS provider" });
  await sms.getByLabel("Provider", { exact: true }).selectOption("twilio");
  await sms.getByLabel("API base URL").fill("not a url");
  await sms.getByLabel("Account SID").fill("AC0123456789");
  await sms.getByLabel("From number").fill("+15551234567");
  await sms.getByRole("button", { name: "Save SMS provider" }).click();
  await expect(sms.getByText("must be an http(s) URL")).toBeVisible();
  await sms.getByLabel("API base URL").fill("https://sms.example.com");
  await sms.getByRole("button", { name: "Save SMS provider" }).click();
  await expect(sms.getByText("required", { exact: true })).toBeVisible();
  const token = "sms-auth-token-that-stays-secret";
  await sms.getByLabel("Auth token").fill(token);
  await sms.getByRole("button", { name: "Save SMS provider" }).click();
  await expect(sms.getByRole("status")).toHaveText("SMS provider saved");
  await expect(sms.getByTestId("sms-token-saved")).toBeVisible();
  await expect(sms.getByLabel("Auth token")).toHaveValue("");
  await page.reload();
  await expect(sms.getByLabel("Provider", { exact: true })).toHaveValue("twilio");
  await expect(sms.getByLabel("Account SID")).toHaveValue("AC0123456789");
  await expect(sms.getByTestId("sms-token-saved")).toBeVisible();
  expect(await page.content()).not.toContain(token);
  // Keeping the saved token: save again without typing it.
  await sms.getByLabel("From number").fill("+15557654321");
  await sms.getByRole("button", { name: "Save SMS provider" }).click();
  await expect(sms.getByRole("status")).toHaveText("SMS provider saved");
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);
});

import { expect, logIn, test } from "./fixtures";
import { api, mailsTo, prepareForSigning, signingLink, uniqueEmail } from "./esign";

// Declining (decisions.md "Declining"): an in-page dialog asks for the reason; the page then says the
// document is declined, and the dashboard lists and shows it as declined.
test.use({ viewport: { width: 390, height: 844 }, locale: "en-US" });

test("a signer declines with a reason in an accessible dialog; the dashboard shows the document declined", async ({ page, quire }) => {
  const email = uniqueEmail("dana");
  const name = `Declined lease ${Date.now()}`;
  const id = await prepareForSigning(quire, {
    name,
    signer: { name: "Dana Decline", email },
    fields: [{ type: "signature", x: 50, y: 600, width: 200, height: 50 }],
  });
  const link = await signingLink(quire, email);
  let prompted = false;
  page.on("dialog", (d) => {
    prompted = true;
    void d.dismiss();
  });
  const posted: unknown[] = [];
  await page.exposeFunction("recordMessage", (m: unknown) => posted.push(m));
  await page.addInitScript(() => {
    window.addEventListener("message", (e) => (window as unknown as { recordMessage: (m: unknown) => void }).recordMessage(e.data));
  });
  await page.goto(link);
  await expect(page.getByRole("heading", { name })).toBeVisible();

  // The dialog takes focus, refuses an empty reason, closes on Escape and gives focus back.
  const open = page.getByRole("button", { name: "Decline", exact: true });
  await open.click();
  const dialog = page.getByRole("dialog", { name: "Decline to sign" });
  await expect(dialog).toBeVisible();
  const reason = dialog.getByRole("textbox", { name: "Reason (required)" });
  await expect(reason).toBeFocused();
  await dialog.getByRole("button", { name: "Decline", exact: true }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Please say why you decline (1 to 1000 characters).");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  expect((await api(quire)(`/esign/documents/${id}`)).json.data.status).toBe("sent");

  await open.click();
  await reason.fill("The rent is not what we agreed.");
  await expect(dialog.getByText("31 / 1000")).toBeVisible();
  await dialog.getByRole("button", { name: "Decline", exact: true }).click();
  await expect(page.getByRole("heading", { name: "This document was declined" })).toBeVisible();
  // The reason closes the notice, so its own full stop is not followed by another.
  await expect(page.getByRole("status")).toContainText("Reason given: “The rent is not what we agreed.”");
  await expect(page.getByRole("status")).not.toContainText("”.");
  await expect(page.getByRole("button", { name: "Finish signing" })).toHaveCount(0);
  expect(prompted).toBe(false);
  expect(posted.filter((m) => JSON.stringify(m).includes("esign:"))).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The link opened again says the same.
  await page.reload();
  await expect(page.getByRole("heading", { name: "This document was declined" })).toBeVisible();
  const doc = await api(quire)(`/esign/documents/${id}`);
  expect(doc.json.data).toMatchObject({ status: "declined", declineReason: "The rent is not what we agreed." });
  expect((await mailsTo(quire, "sam@example.com")).some((m) => m.kind === "document_declined" && m.text.includes(name))).toBe(true);

  // The dashboard: the status filter knows "declined"; the detail page says who declined and why.
  await page.setViewportSize({ width: 1280, height: 900 });
  await logIn(page, quire);
  await page.goto("/documents");
  await page.getByLabel("Status").selectOption("declined");
  await page.getByRole("button", { name: "Apply" }).click();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByText("declined", { exact: true })).toBeVisible();
  await row.getByRole("link", { name }).click();
  await expect(page.getByText(`Declined by Dana Decline (${email})`)).toBeVisible();
  await expect(page.getByText("The rent is not what we agreed")).toBeVisible();
  await expect(page.getByRole("button", { name: "Void" })).toHaveCount(0);

  // The webhook form offers the event.
  await page.goto("/webhooks");
  await expect(page.getByRole("form", { name: "Create webhook" }).getByLabel(/signature\.document\.declined/)).toBeVisible();
});

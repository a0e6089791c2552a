import { countNativeDialogs, expect, logIn, test } from "./fixtures";
import { api, prepareDraft, prepareForSigning, uniqueEmail } from "./esign";

// Issue 19 item 12: a draft can be deleted from its page, after an in-page confirmation.

const draft = (quire: Parameters<typeof api>[0], name: string) => prepareDraft(quire, { name, signer: { name: "Dee Draft", email: uniqueEmail("dee") } });

test("a draft is deleted from its page after an in-page confirmation; a sent document offers no delete", async ({ page, quire }) => {
  const name = `Draft to delete ${Date.now()}`;
  const id = await draft(quire, name);
  const nativeDialogs = countNativeDialogs(page);
  await logIn(page, quire);
  await page.goto(`/documents/${id}`);
  await expect(page.getByRole("heading", { name })).toBeVisible();

  const remove = page.getByRole("button", { name: "Delete draft" });
  await remove.click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this draft?" });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText(name);
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(remove).toBeFocused();
  expect((await api(quire)(`/esign/documents/${id}`)).status).toBe(200);

  await remove.click();
  await confirm.getByRole("button", { name: "Delete draft" }).click();
  await expect(page).toHaveURL(/\/documents$/);
  await expect(page.getByRole("link", { name })).toHaveCount(0);
  expect((await api(quire)(`/esign/documents/${id}`)).status).toBe(404);
  expect(nativeDialogs()).toBe(0);

  const sentName = `Sent, not deletable ${Date.now()}`;
  const sent = await prepareForSigning(quire, {
    name: sentName,
    signer: { name: "Sue Sent", email: uniqueEmail("sue") },
    fields: [{ type: "signature", x: 50, y: 600, width: 200, height: 50 }],
  });
  await page.goto(`/documents/${sent}`);
  await expect(page.getByRole("heading", { name: sentName })).toBeVisible();
  await expect(page.getByRole("button", { name: "Void" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete draft" })).toHaveCount(0);
});

test("a sent document is voided with a reason asked in the in-page dialog, not the browser's prompt", async ({ page, quire }) => {
  const name = `Sent to void ${Date.now()}`;
  const id = await prepareForSigning(quire, {
    name,
    signer: { name: "Val Void", email: uniqueEmail("val") },
    fields: [{ type: "signature", x: 50, y: 600, width: 200, height: 50 }],
  });
  const nativeDialogs = countNativeDialogs(page);
  await logIn(page, quire);
  await page.goto(`/documents/${id}`);
  const open = page.getByRole("button", { name: "Void", exact: true });
  await open.click();
  const dialog = page.getByRole("alertdialog", { name: "Void this document?" });
  const reason = dialog.getByRole("textbox", { name: "Reason" });
  await expect(reason).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();

  // An empty reason is refused in words; a reason voids it.
  await open.click();
  await dialog.getByRole("button", { name: "Void document" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Please give a reason.");
  await reason.fill("Sent to the wrong person");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Void document" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await api(quire)(`/esign/documents/${id}`)).json.data.status).toBe("voided");
  expect(nativeDialogs()).toBe(0);
});

// Folder rename and delete ask in in-page dialogs (never the browser's prompt/confirm), and a refusal
// is said in words inside the dialog without moving the page's buttons.
import { buildDocx } from "../tests/support/ooxml";
import { expect, logIn, test } from "./fixtures";

test("rename and delete a folder through in-page dialogs", async ({ page, quire }) => {
  const browserDialogs: string[] = [];
  page.on("dialog", (d) => {
    browserDialogs.push(d.message());
    void d.dismiss();
  });
  const name = `Dialog folder ${Date.now().toString(36)}`;
  await logIn(page, quire);
  await page.goto("/templates");
  await page.getByRole("button", { name: "New folder" }).click();
  await page.getByLabel("Folder name").fill(name);
  await page.getByRole("button", { name: "Create folder" }).click();
  await page.getByRole("link", { name }).click();
  await expect(page.getByRole("navigation", { name: "Breadcrumbs" })).toContainText(name);
  await page.getByLabel("Template file").setInputFiles({
    name: "Inside.docx",
    mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    buffer: buildDocx(["Hi {Name}"]),
  });
  await expect(page.getByRole("status").filter({ hasText: "Uploaded" })).toBeVisible();

  // Delete while it holds a template: refused in words, inside the dialog; the buttons stay put.
  const rename = page.getByRole("button", { name: "Rename folder" });
  const before = await rename.boundingBox();
  await page.getByRole("button", { name: "Delete folder" }).click();
  const confirm = page.getByRole("dialog", { name: `Delete the folder “${name}”?` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(confirm.getByRole("alert")).toHaveText("The folder is not empty: it holds 1 template. Move or delete it first.");
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  expect(await rename.boundingBox()).toEqual(before);

  // Rename in a dialog with the name ready to edit.
  await rename.click();
  const renaming = page.getByRole("dialog", { name: "Rename folder" });
  await expect(renaming.getByLabel("Folder name")).toHaveValue(name);
  await renaming.getByLabel("Folder name").fill(`${name} renamed`);
  await renaming.getByRole("button", { name: "Save" }).click();
  await expect(renaming).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Breadcrumbs" })).toContainText(`${name} renamed`);

  // An empty folder goes, back to its parent.
  await page.getByRole("button", { name: "New folder" }).click();
  await page.getByLabel("Folder name").fill("Empty one");
  await page.getByRole("button", { name: "Create folder" }).click();
  await page.getByRole("link", { name: "Empty one" }).click();
  await expect(page.getByRole("navigation", { name: "Breadcrumbs" })).toContainText("Empty one");
  await page.getByRole("button", { name: "Delete folder" }).click();
  await page.getByRole("dialog", { name: "Delete the folder “Empty one”?" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("navigation", { name: "Breadcrumbs" })).toContainText(`${name} renamed`);
  await expect(page.getByRole("link", { name: "Empty one" })).toHaveCount(0);
  expect(browserDialogs).toEqual([]);
});

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { api, onePagePdf, signingLink, uniqueEmail } from "./esign";

// Issue 19 items 2-4: the second signer sees the first's values; a completion screen that says what
// happens next, with the signer's copy at once and the completed copy once everyone has signed; the
// missing-fields error follows the fields as they are filled.

async function twoSigners(quire: Parameters<typeof api>[0], name: string, ada: string, bob: string): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await onePagePdf(name))]), "document.pdf");
  form.set("documentName", name);
  form.set("senderName", "Sam Sender");
  form.set("senderEmail", "sam@example.com");
  form.set(
    "recipients",
    JSON.stringify([
      { name: "Ada First", email: ada, signingOrder: 1 },
      { name: "Bob Second", email: bob, signingOrder: 2 },
    ]),
  );
  form.set(
    "fields",
    JSON.stringify([
      { type: "text", recipientEmail: ada, page: 1, x: 50, y: 120, width: 250, height: 24, required: true },
      { type: "signature", recipientEmail: ada, page: 1, x: 50, y: 300, width: 200, height: 50, required: true },
      { type: "text", recipientEmail: bob, page: 1, x: 320, y: 120, width: 220, height: 24, required: true },
    ]),
  );
  const res = await api(quire)("/esign/single/prepare-for-signing", { method: "POST", body: form });
  if (res.status !== 200) throw new Error(`prepare-for-signing: ${res.status} ${res.text}`);
  return res.json.data.documentId as string;
}

/** Dark pixels of the page image inside a box given in PDF points (the page is 595 x 842). */
async function inkIn(page: Page, box: { x: number; y: number; width: number; height: number }): Promise<number> {
  const img = page.getByRole("img", { name: "Page 1 of 1" });
  await expect(img).toHaveJSProperty("complete", true);
  return img.evaluate((el: HTMLImageElement, b) => {
    const canvas = document.createElement("canvas");
    canvas.width = el.naturalWidth;
    canvas.height = el.naturalHeight;
    const ctx = canvas.getContext("2d")!;
    ctx.drawImage(el, 0, 0);
    const s = el.naturalWidth / 595;
    const data = ctx.getImageData(Math.round(b.x * s), Math.round(b.y * s), Math.round(b.width * s), Math.round(b.height * s)).data;
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 300) dark++;
    return dark;
  }, box);
}

async function pdfText(file: string): Promise<string> {
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

test("the second signer sees the first's values; each gets a completion screen with their copy, then the completed copy", async ({ page, quire }) => {
  const [ada, bob] = [uniqueEmail("ada"), uniqueEmail("bob")];
  const name = `Shared lease ${Date.now()}`;
  await twoSigners(quire, name, ada, bob);

  // Ada: Finish too early; the error shrinks as fields are filled and goes once none is left.
  await page.goto(await signingLink(quire, ada));
  await expect(page.getByText("Fill the highlighted fields, then finish.")).toBeVisible();
  await page.getByRole("button", { name: "Finish signing" }).click();
  const alert = page.getByRole("alert").filter({ hasText: /\S/ });
  await expect(alert).toHaveText("Please complete 2 required field(s): Text, Signature.");
  await page.getByRole("textbox", { name: "Text (required)" }).fill("Ada typed this");
  await expect(alert).toHaveText("Please complete 1 required field(s): Signature.");
  await page.getByRole("button", { name: "Signature (required)" }).click();
  const pad = page.getByRole("dialog", { name: "Your signature" });
  await pad.getByRole("tab", { name: "Type" }).click();
  await pad.getByRole("textbox", { name: "Type your name" }).fill("Ada First");
  await pad.getByRole("textbox", { name: "Type your name" }).press("Enter");
  await expect(pad).toBeHidden();
  await expect(page.getByRole("alert").filter({ hasText: "Please complete" })).toHaveCount(0);

  await page.getByRole("button", { name: "Finish signing" }).click();
  await expect(page.getByRole("heading", { name: "You have signed" })).toBeVisible({ timeout: 30_000 });
  // The completion screen replaces the signing view: no stale instructions, and it says what comes next.
  await expect(page.getByText("Fill the highlighted fields")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Finish signing" })).toHaveCount(0);
  await expect(page.getByRole("status")).toContainText("What happens next: the other signers are asked to sign in turn.");
  await expect(page.getByRole("link", { name: "Download the completed copy" })).toHaveCount(0);
  const [mine] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download your copy" }).click()]);
  const mineText = await pdfText(await mine.path());
  expect(mineText).toContain("Ada typed this");
  expect(mineText).not.toContain("Certificate of completion");

  // Bob: Ada's values are on his page (drawn into the image, described for screen readers), read-only.
  await page.goto(await signingLink(quire, bob));
  await expect(page.getByRole("img", { name: "Text by Ada First: Ada typed this" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Signature by Ada First: Ada First" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Text (required)" })).toHaveCount(1);
  expect(await inkIn(page, { x: 50, y: 120, width: 250, height: 24 })).toBeGreaterThan(50);
  expect(await inkIn(page, { x: 50, y: 300, width: 200, height: 50 })).toBeGreaterThan(50);
  // An empty part of the page stays empty: the ink above is Ada's, not noise.
  expect(await inkIn(page, { x: 50, y: 450, width: 250, height: 24 })).toBe(0);

  await page.getByRole("textbox", { name: "Text (required)" }).fill("Bob typed that");
  await page.getByRole("button", { name: "Finish signing" }).click();
  await expect(page.getByRole("heading", { name: "You have signed" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("status")).toContainText("Everyone has signed");
  const [completed] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the completed copy" }).click()]);
  const text = await pdfText(await completed.path());
  for (const expected of ["Ada typed this", "Bob typed that", "Certificate of completion"]) expect(text).toContain(expected);

  // Ada's link opened again offers the completed copy too.
  await page.goto(await signingLink(quire, ada));
  await expect(page.getByRole("heading", { name: "You have signed" })).toBeVisible();
  const [again] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the completed copy" }).click()]);
  expect(fs.readFileSync(await again.path()).equals(fs.readFileSync(await completed.path()))).toBe(true);
});

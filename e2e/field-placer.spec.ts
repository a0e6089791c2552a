// The field placer: palette buttons keep working after a drag, pressed fields cascade instead of piling
// up, placed fields work from the keyboard, and overlapping fields are refused in the page and by the API.
import type { Page } from "@playwright/test";
import { api, onePagePdf, prepareDraft, uniqueEmail } from "./esign";
import { expect, logIn, test } from "./fixtures";

const draft = (quire: Parameters<typeof api>[0], signer: { name: string; email: string }) => prepareDraft(quire, { name: "Placer test", signer });

async function dragField(page: Page, label: string, fx: number, fy: number) {
  const source = await page.getByRole("button", { name: label, exact: true }).boundingBox();
  const target = await page.getByLabel("Page 1", { exact: true }).boundingBox();
  if (!source || !target) throw new Error("palette or page not on screen");
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width * fx, target.y + target.height * fy, { steps: 8 });
  await page.mouse.up();
}

const boxesOverlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test("after a drag, palette buttons still add fields by click, Enter and Space; added fields never pile up", async ({ page, quire }) => {
  const signer = { name: "Pat Placer", email: uniqueEmail("pat") };
  const id = await draft(quire, signer);
  await logIn(page, quire);
  await page.goto(`/documents/${id}/prepare`);
  await expect(page.getByRole("img", { name: "Page 1" })).toBeVisible();
  const fields = page.locator("[data-field]");

  await dragField(page, "Signature", 0.3, 0.7);
  await expect(fields).toHaveCount(1);
  await page.getByRole("button", { name: "Date", exact: true }).click();
  await expect(fields).toHaveCount(2);
  await page.getByRole("button", { name: "Text", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(fields).toHaveCount(3);
  await page.getByRole("button", { name: "Initials", exact: true }).focus();
  await page.keyboard.press("Space");
  await expect(fields).toHaveCount(4);
  // The same button again: the new field steps aside instead of landing on the last one.
  await page.getByRole("button", { name: "Date", exact: true }).click();
  await page.getByRole("button", { name: "Date", exact: true }).click();
  await expect(fields).toHaveCount(6);
  const boxes = await fields.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()));
  for (let i = 0; i < boxes.length; i++) for (let j = 0; j < i; j++) expect(boxesOverlap(boxes[i], boxes[j]), `fields ${j} and ${i}`).toBe(false);

  // Dropping onto a field is refused with a message, and nothing is added.
  const signature = (await page.getByRole("button", { name: `Signature for ${signer.name} on page 1` }).boundingBox())!;
  const pageBox = (await page.getByLabel("Page 1", { exact: true }).boundingBox())!;
  await dragField(
    page,
    "Email",
    (signature.x + signature.width / 2 - pageBox.x) / pageBox.width,
    (signature.y + signature.height / 2 - pageBox.y) / pageBox.height,
  );
  await expect(page.getByRole("alert").filter({ hasText: "overlap" })).toContainText(`would overlap the Signature field for ${signer.name}`);
  await expect(fields).toHaveCount(6);

  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status")).toHaveText("Draft saved.");
  await page.reload();
  await expect(fields).toHaveCount(6);
});

test("a placed field from the keyboard: Enter and Space open its settings, arrows move it, Delete removes it, also right after drags", async ({
  page,
  quire,
}) => {
  const signer = { name: "Kim Keys", email: uniqueEmail("kim") };
  const id = await draft(quire, signer);
  await logIn(page, quire);
  await page.goto(`/documents/${id}/prepare`);
  await expect(page.getByRole("img", { name: "Page 1" })).toBeVisible();
  const fields = page.locator("[data-field]");
  const field = (label: string) => page.getByRole("button", { name: `${label} for ${signer.name} on page 1` });
  const settings = page.getByRole("region", { name: "Selected field" });

  // A drag from the palette, then a drag of the placed field itself: the defect was that the next
  // press of a field button did nothing after a drag.
  await dragField(page, "Signature", 0.3, 0.3);
  await page.getByRole("button", { name: "Date", exact: true }).click();
  await expect(fields).toHaveCount(2);
  const sig = (await field("Signature").boundingBox())!;
  await page.mouse.move(sig.x + 10, sig.y + sig.height / 2);
  await page.mouse.down();
  await page.mouse.move(sig.x + 10, sig.y + sig.height / 2 + 60, { steps: 6 });
  await page.mouse.up();
  expect((await field("Signature").boundingBox())!.y).toBeGreaterThan(sig.y + 40);

  // Enter on a placed field: selected, its settings open and take the focus; Escape goes back to it.
  await field("Date").focus();
  await page.keyboard.press("Enter");
  await expect(settings).toContainText("Date · page 1");
  await expect(settings.getByLabel("Signer")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(field("Date")).toBeFocused();
  // Space on another field does the same for that one.
  await field("Signature").focus();
  await page.keyboard.press("Space");
  await expect(settings).toContainText("Signature · page 1");
  await expect(settings.getByLabel("Signer")).toBeFocused();
  // A click selects too (and the arrow keys then move what was clicked).
  await field("Date").click();
  await expect(settings).toContainText("Date · page 1");
  await expect(field("Date")).toBeFocused();
  await expect(field("Date")).toHaveAttribute("aria-pressed", "true");

  // Arrow keys move the focused field: 2 pt a press, 10 pt with Shift (scaled to the page on screen).
  const scale = (await page.getByLabel("Page 1", { exact: true }).boundingBox())!.width / 595;
  const before = (await field("Date").boundingBox())!;
  await page.keyboard.press("ArrowRight");
  expect((await field("Date").boundingBox())!.x - before.x).toBeCloseTo(2 * scale, 0);
  await page.keyboard.press("Shift+ArrowRight");
  expect((await field("Date").boundingBox())!.x - before.x).toBeCloseTo(12 * scale, 0);
  await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("ArrowUp");
  expect((await field("Date").boundingBox())!.y - before.y).toBeCloseTo(8 * scale, 0);

  // Delete removes it; the focus moves on to the remaining field instead of being lost.
  await page.keyboard.press("Delete");
  await expect(fields).toHaveCount(1);
  await expect(field("Date")).toHaveCount(0);
  await expect(field("Signature")).toBeFocused();

  // The moves are what gets saved: the same place on the page after a reload.
  const onPage = async () => (await field("Signature").boundingBox())!.y - (await page.getByLabel("Page 1", { exact: true }).boundingBox())!.y;
  const placed = await onPage();
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status")).toHaveText("Draft saved.");
  await page.reload();
  await expect(fields).toHaveCount(1);
  expect(await onPage()).toBeCloseTo(placed, 0);
});

test("the API refuses two overlapping fields with a 400 naming both", async ({ quire }) => {
  const signer = { name: "Olga Overlap", email: uniqueEmail("olga") };
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await onePagePdf("Overlap"))]), "overlap.pdf");
  form.set("documentName", "Overlap");
  form.set("recipients", JSON.stringify([signer]));
  form.set(
    "fields",
    JSON.stringify([
      { type: "signature", recipientEmail: signer.email, page: 1, x: 50, y: 600, width: 200, height: 50 },
      { type: "text", recipientEmail: signer.email, page: 1, x: 60, y: 700, width: 100, height: 20 },
      { type: "date", recipientEmail: signer.email, page: 1, x: 150, y: 620, width: 100, height: 20 },
    ]),
  );
  form.set("sendEmail", "false");
  const res = await api(quire)("/esign/single/prepare-for-signing", { method: "POST", body: form });
  expect(res.status, res.text).toBe(400);
  // The signing error shape (docs/contract.md "Errors"): its message names both fields.
  expect(res.json).toMatchObject({ code: "FieldsOverlap", type: "FieldsOverlap", message: "fields.2 overlaps fields.0 on page 1" });
});

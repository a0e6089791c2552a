import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { authHeaders } from "../tests/support/api";
import { expect, test } from "./fixtures";
import { api, prepareForSigning, signingLink, uniqueEmail } from "./esign";

// The hosted signing page must work on a phone and with a keyboard alone.
test.use({ viewport: { width: 390, height: 844 }, locale: "en-US" });

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** What has keyboard focus: its accessible label or text, and whether a focus indicator is drawn. */
async function focused(page: Page): Promise<{ name: string; outlined: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: "", outlined: false };
    // Chromium's calendar button inside a date input is focused without :focus on the input; the
    // browser draws that button's ring itself.
    if (el instanceof HTMLInputElement && el.type === "date" && !el.matches(":focus")) return { name: el.getAttribute("aria-label") ?? "", outlined: true };
    const style = getComputedStyle(el);
    const outlined = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none";
    return { name: (el.getAttribute("aria-label") ?? el.textContent ?? "").trim(), outlined };
  });
}

test("a signer fills every field and signs with the keyboard alone on a phone", async ({ page, quire }) => {
  const email = uniqueEmail("kim");
  const name = `Keyboard lease ${Date.now()}`;
  // Listed out of reading order on purpose: focus must follow the page, top to bottom.
  const id = await prepareForSigning(quire, {
    name,
    signer: { name: "Kim Keys", email },
    fields: [
      { type: "signature", x: 50, y: 600, width: 200, height: 50 },
      { type: "checkbox", x: 50, y: 300, width: 20, height: 20 },
      { type: "text", x: 50, y: 120, width: 250, height: 24 },
      { type: "date", x: 50, y: 200, width: 160, height: 24 },
    ],
  });
  await page.goto(await signingLink(quire, email));
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByRole("img", { name: "Page 1 of 1" })).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);

  // Tab from the top of the page: the language menu, the fields in reading order, each with a visible focus ring, then Finish.
  const order: string[] = [];
  for (let i = 0; i < 20 && order.at(-1) !== "Finish signing"; i++) {
    await page.keyboard.press("Tab");
    const f = await focused(page);
    expect(f.outlined, `focus indicator on “${f.name}”`).toBe(true);
    if (f.name !== order.at(-1)) order.push(f.name); // a date input takes one Tab per part
  }
  expect(order).toEqual(["Language", "Text (required)", "Date (required)", "Checkbox (required)", "Signature (required)", "Finish signing"]);

  // Finishing too early names what is missing and moves focus to the first of it.
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Please complete" })).toHaveText("Please complete 3 required field(s): Text, Checkbox, Signature.");
  const text = page.getByRole("textbox", { name: "Text (required)" });
  await expect(text).toBeFocused();

  await page.keyboard.type("Acme Corp");
  await page.keyboard.press("Tab");
  const date = page.getByLabel("Date (required)");
  await expect(date).toBeFocused();
  await page.keyboard.type("01152030");
  await expect(date).toHaveValue("2030-01-15");
  const checkbox = page.getByRole("checkbox", { name: "Checkbox (required)" });
  for (let i = 0; i < 3 && !(await checkbox.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(checkbox).toBeFocused();
  await page.keyboard.press("Space");
  await expect(checkbox).toBeChecked();

  await page.keyboard.press("Tab");
  const signature = page.getByRole("button", { name: "Signature (required)" });
  await expect(signature).toBeFocused();
  // The signature dialog takes focus, closes on Escape and gives focus back.
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Your signature" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("tab", { name: "Draw" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(signature).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("tab", { name: "Draw" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(dialog.getByRole("tab", { name: "Type" })).toBeFocused();
  await expect(dialog.getByRole("tab", { name: "Type" })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("textbox", { name: "Type your name" })).toBeFocused();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);
  await page.keyboard.type("Kim Keys");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(signature).toBeFocused();
  await expect(signature).toContainText("Kim Keys");
  await expect(page.getByText("All required fields are complete.")).toBeVisible();

  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Finish signing" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "You have signed" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("Everyone has signed")).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);

  const doc = await api(quire)(`/esign/documents/${id}`);
  expect(doc.status, doc.text).toBe(200);
  expect(doc.json.data.status).toBe("completed");
  expect(doc.json.data.recipients.map((r: { email: string; status: string }) => [r.email, r.status])).toEqual([[email, "completed"]]);
  // What was typed on the keyboard is what the sealed PDF says.
  const pdf = await fetch(`${quire.baseUrl}/esign/documents/${id}/download`, { headers: authHeaders(quire.seed, "contributor") });
  expect(pdf.status).toBe(200);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-")), "signed.pdf");
  fs.writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
  const sealed = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  for (const expected of ["Acme Corp", "Kim Keys", "2030-01-15"]) expect(sealed).toContain(expected);
});

test("a voided document's link says it was voided and why; a broken link says it does not work", async ({ page, quire }) => {
  const email = uniqueEmail("vic");
  const name = `Voided offer ${Date.now()}`;
  const id = await prepareForSigning(quire, {
    name,
    signer: { name: "Vic Void", email },
    fields: [{ type: "signature", x: 50, y: 600, width: 200, height: 50 }],
  });
  const link = await signingLink(quire, email);
  const voided = await api(quire)(`/esign/documents/${id}/void`, { method: "POST", body: { reason: "Price changed" } });
  expect(voided.status, voided.text).toBe(200);

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This document was voided" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("The sender cancelled it. Nothing is left to sign. Their reason: “Price changed”");
  await expect(page.getByRole("button", { name: "Finish signing" })).toHaveCount(0);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);

  await page.goto(`${link.slice(0, -4)}xxxx`);
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
});

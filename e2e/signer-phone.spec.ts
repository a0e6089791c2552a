import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { prepareForSigning, signingLink, uniqueEmail } from "./esign";

// Issue 19 item 7: on a phone (390 x 844) a date field shows the whole date, wherever it sits on the
// page, and the signing page is never wider than the screen: signing, dialogs, the completion screen.
test.use({ viewport: { width: 390, height: 844 }, locale: "en-US" });

const widest = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** Whether the input is wide enough for its date as the browser writes it, plus the calendar button. */
async function showsWholeDate(input: Locator): Promise<{ fits: boolean; need: number; have: number }> {
  return input.evaluate((el: HTMLInputElement) => {
    const style = getComputedStyle(el);
    const [y, m, d] = el.value.split("-");
    const probe = document.createElement("span");
    probe.style.font = style.font;
    probe.style.position = "absolute";
    probe.style.whiteSpace = "pre";
    probe.textContent = `${m}/${d}/${y}`;
    document.body.append(probe);
    const text = probe.getBoundingClientRect().width;
    probe.remove();
    const fontSize = parseFloat(style.fontSize);
    // Chromium's calendar button takes about 1.2em and a small gap.
    const need = text + 1.4 * fontSize + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    const have = el.clientWidth;
    return { fits: have >= need, need, have };
  });
}

test("date fields show the whole date on a phone and the page never gets wider than the screen", async ({ page, quire }) => {
  const email = uniqueEmail("pia");
  await prepareForSigning(quire, {
    name: `Phone dates ${Date.now()}`,
    signer: { name: "Pia Phone", email },
    fields: [
      { type: "date", x: 50, y: 200, width: 100, height: 20 },
      { type: "date", x: 480, y: 300, width: 100, height: 20 },
      { type: "text", x: 50, y: 400, width: 200, height: 20 },
    ],
  });
  await page.goto(await signingLink(quire, email));
  const dates = page.getByLabel("Date (required)");
  await expect(dates).toHaveCount(2);
  for (const date of await dates.all()) {
    await date.fill("2031-12-28");
    const fit = await showsWholeDate(date);
    expect(fit.fits, `date box ${fit.have}px wide, the date needs ${fit.need.toFixed(1)}px`).toBe(true);
    // It stays on the page's image: not cut off by the page's edge.
    const box = (await date.boundingBox())!;
    const sheet = (await page.getByRole("img", { name: "Page 1 of 1" }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(sheet.x);
    expect(box.x + box.width).toBeLessThanOrEqual(sheet.x + sheet.width + 0.5);
  }
  expect(await widest(page)).toBeLessThanOrEqual(390);

  await page.getByRole("button", { name: "Decline" }).click();
  await expect(page.getByRole("dialog", { name: "Decline to sign" })).toBeVisible();
  expect(await widest(page)).toBeLessThanOrEqual(390);
  await page.keyboard.press("Escape");

  await page.getByRole("textbox", { name: "Text (required)" }).fill("A very long company name that does not fit in its box at all, Incorporated");
  await page.getByRole("button", { name: "Finish signing" }).click();
  await expect(page.getByRole("heading", { name: "You have signed" })).toBeVisible({ timeout: 30_000 });
  expect(await widest(page)).toBeLessThanOrEqual(390);
});

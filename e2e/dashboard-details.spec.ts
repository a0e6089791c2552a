// Small dashboard defects seen in the browser: rich-text values shown as words, a Resend button named
// for what it does, a visible focus ring on the upload button, and a tag filter that applies at once.
import { buildDocx } from "../tests/support/ooxml";
import { api, prepareForSigning, uniqueEmail } from "./esign";
import { expect, logIn, test } from "./fixtures";

async function template(quire: Parameters<typeof api>[0], name: string, paragraphs: string[], tags: string[] = []): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(buildDocx(paragraphs))]), `${name}.docx`);
  const created = await api(quire)("/template", { method: "POST", body: form });
  expect(created.status, created.text).toBe(201);
  const id = created.json.data.id as string;
  if (tags.length) expect((await api(quire)(`/template/${id}`, { method: "PATCH", body: { tags } })).status).toBe(200);
  return id;
}

test("Variables used shows rich-text values as plain words", async ({ page, quire }) => {
  const templateId = await template(quire, "Rich intro", ["{Intro}", "{Notes}"]);
  const res = await api(quire)("/v1/deliverable", {
    method: "POST",
    body: {
      name: "Rich values",
      templateId,
      variables: [
        { placeholder: "{Intro}", text: "<p>Fish&nbsp;&amp;&nbsp;<b>chips</b></p><p>on&nbsp;Friday</p>", mimeType: "html" },
        { placeholder: "{Notes}", text: "**Bold** and _soft_ &lt;3", mimeType: "markdown" },
      ],
    },
  });
  expect(res.status, res.text).toBe(200);
  await logIn(page, quire);
  await page.goto(`/deliverables/${res.json.data.results.deliverable.id}`);
  const used = page.locator("section", { has: page.getByRole("heading", { name: "Variables used" }) });
  await expect(used.locator("li").filter({ hasText: "{Intro}" })).toContainText("Fish & chips on Friday");
  await expect(used.locator("li").filter({ hasText: "{Notes}" })).toContainText("Bold and soft <3");
  await expect(used).not.toContainText("&nbsp;");
  await expect(used).not.toContainText("<p>");
  await expect(used).not.toContainText("**");
});

test("Resend is announced as resending the signing email", async ({ page, quire }) => {
  const signer = { name: "Rita Resend", email: uniqueEmail("rita") };
  const id = await prepareForSigning(quire, { name: "Resend check", signer, fields: [{ type: "signature", x: 50, y: 600, width: 200, height: 50 }] });
  await logIn(page, quire);
  await page.goto(`/documents/${id}`);
  const resend = page.getByRole("button", { name: `Resend the signing email to ${signer.name}` });
  await expect(resend).toHaveText("Resend email");
  await resend.click();
  await expect(page.getByRole("status").filter({ hasText: "Sent to 1 signer(s)." })).toBeVisible();
});

test("the upload button shows a focus ring when reached with the keyboard", async ({ page, quire }) => {
  await logIn(page, quire);
  await page.goto("/templates");
  const input = page.getByLabel("Template file");
  const button = page.locator("label", { has: input });
  expect(await button.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("none");
  for (let i = 0; i < 40 && !(await input.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(input).toBeFocused();
  await expect.poll(() => button.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");
  expect(await button.evaluate((el) => Number.parseFloat(getComputedStyle(el).outlineWidth))).toBeGreaterThanOrEqual(2);
});

test("the tag filter is a row of checkboxes that apply at once, by mouse or keyboard", async ({ page, quire }) => {
  const stamp = Date.now().toString(36);
  const [both, onlyA, onlyB] = [`Both ${stamp}`, `Only A ${stamp}`, `Only B ${stamp}`];
  await template(quire, both, ["{X}"], [`ta-${stamp}`, `tb-${stamp}`]);
  await template(quire, onlyA, ["{X}"], [`ta-${stamp}`]);
  await template(quire, onlyB, ["{X}"], [`tb-${stamp}`]);
  await logIn(page, quire);
  await page.goto("/templates?view=list");
  const filter = page.getByRole("group", { name: "Tags (all of)" });
  const a = filter.getByRole("checkbox", { name: `ta-${stamp}` });
  const b = filter.getByRole("checkbox", { name: `tb-${stamp}` });
  for (const box of [a, b]) await expect(box).toBeInViewport({ ratio: 1 });

  await a.check();
  await expect(page).toHaveURL(/tag=/);
  await expect(a).toBeChecked();
  await expect(page.getByRole("link", { name: onlyA })).toBeVisible();
  await expect(page.getByRole("link", { name: both })).toBeVisible();
  await expect(page.getByRole("link", { name: onlyB })).toHaveCount(0);

  // Keyboard: Space on the second tag narrows to templates with both.
  await b.focus();
  await page.keyboard.press("Space");
  await expect(b).toBeChecked();
  await expect(page.getByRole("link", { name: onlyA })).toHaveCount(0);
  await expect(page.getByRole("link", { name: both })).toBeVisible();

  await a.uncheck();
  await expect(a).not.toBeChecked();
  await expect(page.getByRole("link", { name: onlyB })).toBeVisible();
  await expect(page.getByRole("link", { name: onlyA })).toHaveCount(0);
});

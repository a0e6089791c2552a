// Missing pages, the icon, and dashboard links followed while signed out.
import { buildDocx } from "../tests/support/ooxml";
import { api, prepareForSigning, uniqueEmail } from "./esign";
import { expect, logIn, test } from "./fixtures";

test("generating from an unknown or deleted template is a 404 page inside the dashboard", async ({ page, quire }) => {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(buildDocx(["Hello {Name}"]))]), "Soon deleted.docx");
  const created = await api(quire)("/template", { method: "POST", body: form });
  expect(created.status, created.text).toBe(201);
  const templateId = created.json.data.id as string;
  expect((await api(quire)(`/template/${templateId}`, { method: "DELETE" })).status).toBe(200);

  await logIn(page, quire);
  for (const id of [templateId, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
    const res = await page.goto(`/deliverables/new?templateId=${id}`);
    expect(res?.status(), id).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    // Still the dashboard: its tabs are there, and the way back works.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  }
  await page.getByRole("link", { name: "Go to the overview" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
});

test("an unknown URL shows Quire's 404, light and readable under a dark colour scheme; no page asks for a missing icon", async ({ page, quire }) => {
  const missing: string[] = [];
  page.on("response", (r) => r.status() === 404 && !r.url().includes("/no-such-page") && missing.push(r.url()));
  await page.emulateMedia({ colorScheme: "dark" });
  const res = await page.goto("/no-such-page");
  expect(res?.status()).toBe(404);
  const heading = page.getByRole("heading", { name: "Page not found" });
  await expect(heading).toBeVisible();
  // Dark text on a light card, whatever the colour scheme (Next.js's default went white on black).
  const [text, card, page_] = await heading.evaluate((el) => {
    const lightness = (css: string) => {
      const ctx = document.createElement("canvas").getContext("2d")!;
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    };
    return [getComputedStyle(el).color, getComputedStyle(el.closest("section")!).backgroundColor, getComputedStyle(document.body).backgroundColor].map(
      lightness,
    );
  });
  expect(text).toBeLessThan(0.2);
  expect(card).toBeGreaterThan(0.9);
  expect(page_).toBeGreaterThan(0.9);
  await expect(page.getByRole("link", { name: "Go to the overview" })).toBeVisible();

  await logIn(page, quire);
  await page.goto("/templates");
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", /favicon\.svg/);
  const icon = await page.request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  expect(missing).toEqual([]);
});

test("a dashboard download link opened while signed out goes to the login page, then downloads", async ({ page, quire }) => {
  const documentId = await prepareForSigning(quire, {
    name: "Signed-out download",
    signer: { name: "Lou Link", email: uniqueEmail("lou") },
    fields: [{ type: "signature", x: 50, y: 600, width: 200, height: 50 }],
    sendEmail: false,
  });
  const link = `/api/dashboard/documents/${documentId}/pdf`;
  await page.goto(link);
  await expect(page).toHaveURL(`/login?callbackUrl=${encodeURIComponent(link)}`);
  await expect(page.getByRole("heading", { name: "Sign in to Quire" })).toBeVisible();
  await expect(page.locator("body")).not.toContainText("Sign in to the dashboard first");

  await page.getByLabel("Email").fill(quire.seed.login.email);
  await page.getByLabel("Password").fill(quire.seed.login.password);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Sign in" }).click()]);
  expect(download.suggestedFilename()).toBe("Signed-out download.pdf");

  // A script's call (no page navigation) still gets the JSON error, and a foreign callback is ignored.
  const scripted = await fetch(`${quire.baseUrl}${link}`, { headers: { accept: "application/json" } });
  expect(scripted.status).toBe(401);
  await page.context().clearCookies();
  await page.goto("/login?callbackUrl=//evil.example/");
  await page.getByLabel("Email").fill(quire.seed.login.email);
  await page.getByLabel("Password").fill(quire.seed.login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page).toHaveURL("/");
});

test("a dashboard page opened while signed out comes back after signing in", async ({ page, quire }) => {
  await page.goto("/documents?status=sent");
  await expect(page).toHaveURL(`/login?callbackUrl=${encodeURIComponent("/documents?status=sent")}`);
  await page.getByLabel("Email").fill(quire.seed.login.email);
  await page.getByLabel("Password").fill(quire.seed.login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/documents?status=sent");
  await expect(page.getByRole("heading", { name: "Documents", level: 1 })).toBeVisible();
});

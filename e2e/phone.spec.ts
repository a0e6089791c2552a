// Every dashboard page at a phone's width (390x844): nothing wider than the screen, the active tab in
// view, every tab reachable, and row actions (Revoke) on screen without sideways scrolling.
import { buildDocx } from "../tests/support/ooxml";
import { api, prepareDraft, prepareForSigning, signingLink, uniqueEmail } from "./esign";
import { expect, logIn, test } from "./fixtures";

const NAV = ["Overview", "Templates", "Deliverables", "Documents", "Outbox", "Webhooks", "Settings", "API keys", "API reference"];

test("every dashboard page fits a 390 px phone, with its tab in view", async ({ page, quire }) => {
  // Screenshots of every page at two widths take minutes more.
  test.setTimeout(process.env.QUIRE_E2E_SHOTS ? 600_000 : 180_000);
  const call = api(quire);
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(buildDocx(["Dear {ClientName},", "your fee is {Fee}."]))]), "Phone offer.docx");
  const template = await call("/template", { method: "POST", body: form });
  expect(template.status, template.text).toBe(201);
  const templateId = template.json.data.id as string;
  const deliverable = await call("/v1/deliverable", {
    method: "POST",
    body: { name: "Phone deliverable", templateId, variables: [{ placeholder: "{ClientName}", text: "Initech LLC", mimeType: "text" }] },
  });
  expect(deliverable.status, deliverable.text).toBe(200);
  const deliverableId = deliverable.json.data.results.deliverable.id as string;
  const documentId = await prepareForSigning(quire, {
    name: "Phone NDA with a rather long name that has to wrap on a small screen",
    signer: { name: "Penelope Phone", email: uniqueEmail("penelope") },
    fields: [{ type: "signature", x: 50, y: 600, width: 200, height: 50 }],
  });

  const draftId = await prepareDraft(quire, { name: "Phone draft", signer: { name: "Dora Draft", email: uniqueEmail("dora") } });

  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, quire);
  await page.goto("/outbox");
  const outboxEntry = (await page.locator('a[href^="/outbox/"]').first().getAttribute("href")) as string;

  const pages: [string, string | null][] = [
    ["/", "Overview"],
    ["/templates", "Templates"],
    [`/templates/${templateId}`, "Templates"],
    ["/deliverables", "Deliverables"],
    ["/deliverables/new", "Deliverables"],
    [`/deliverables/new?templateId=${templateId}`, "Deliverables"],
    [`/deliverables/${deliverableId}`, "Deliverables"],
    ["/documents", "Documents"],
    ["/documents/new", "Documents"],
    [`/documents/${documentId}`, "Documents"],
    [`/documents/${draftId}`, "Documents"],
    [`/documents/${draftId}/prepare`, "Documents"],
    ["/outbox", "Outbox"],
    [outboxEntry, "Outbox"],
    ["/webhooks", "Webhooks"],
    ["/settings", "Settings"],
    ["/api-keys", "API keys"],
    ["/api-docs", "API reference"],
    ["/no-such-page", null],
  ];
  const overflowing: string[] = [];
  for (const [url, tab] of pages) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) overflowing.push(`${url}: ${width} px`);
    if (tab) {
      const active = page.getByRole("navigation", { name: "Main" }).locator('[aria-current="page"]');
      await expect.soft(active, url).toHaveText(tab);
      await expect.soft(active, url).toBeInViewport({ ratio: 1 });
    }
  }
  expect(overflowing).toEqual([]);

  // Every tab can be reached: scrolled to, it is fully on screen.
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const label of NAV) {
    const link = nav.getByRole("link", { name: label, exact: true });
    await link.scrollIntoViewIfNeeded();
    await expect(link).toBeInViewport({ ratio: 0.99 });
  }

  // Row actions are on screen without scrolling sideways: the key table stacks as cards.
  await page.goto("/api-keys");
  // Horizontally inside the screen (a box scrolled out of a sideways-scrolling table lies past 390 px);
  // vertically it may be further down when other tests made keys.
  for (const revoke of await page.getByRole("button", { name: /^Revoke/ }).all()) {
    const box = (await revoke.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  // At 1440 px the document page's actions sit in one row beside its long, wrapping title.
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const [id, actions] of [
    [documentId, ["Download PDF", "Void"]],
    [draftId, ["Download PDF", "Place fields and send", "Void", "Delete draft"]],
  ] as const) {
    await page.goto(`/documents/${id}`);
    const tops = [];
    for (const name of actions) tops.push(Math.round((await page.getByRole("main").getByText(name, { exact: true }).first().boundingBox())!.y));
    expect(new Set(tops).size, `${id}: ${actions.join(", ")} at ${tops.join(", ")}`).toBe(1);
  }

  // QUIRE_E2E_SHOTS=<folder> saves each page's full-length screenshot there at 390 and 1440 px wide, for looking at by eye,
  // with the signing page in each state: to fill, behind a passcode, signed, declined.
  if (process.env.QUIRE_E2E_SHOTS) {
    const fields = [
      { type: "signature", x: 50, y: 600, width: 200, height: 50 },
      { type: "date", x: 400, y: 620, width: 100, height: 20 },
      { type: "text", x: 50, y: 700, width: 250, height: 20 },
    ];
    const signingState = async (state: string, identityVerification?: unknown) => {
      const email = uniqueEmail(state);
      await prepareForSigning(quire, { name: `Signing page, ${state}`, signer: { name: "Sid Signer", email, identityVerification }, fields });
      return signingLink(quire, email);
    };
    const toFill = await signingState("fill");
    const passcode = await signingState("passcode", { mode: "otp", channel: "email" });
    const declined = await signingState("declined");
    const declineAt = `${new URL(declined).origin}/api/signer/${new URL(declined).pathname.split("/").pop()}/decline`;
    const declining = await fetch(declineAt, { method: "POST", headers: { "content-type": "application/json" }, body: '{"reason":"The rent is wrong."}' });
    expect(declining.status).toBe(200);
    const signed = await signingState("signed");
    await page.goto(signed);
    await page.getByRole("textbox", { name: "Text (required)" }).fill("Signed for the screenshot");
    await page.getByRole("button", { name: "Signature (required)" }).click();
    const pad = page.getByRole("dialog", { name: "Your signature" });
    await pad.getByRole("tab", { name: "Type" }).click();
    await pad.getByRole("textbox", { name: "Type your name" }).fill("Sid Signer");
    await pad.getByRole("textbox", { name: "Type your name" }).press("Enter");
    await expect(pad).toBeHidden();
    await page.getByRole("button", { name: "Finish signing" }).click();
    await expect(page.getByRole("heading", { name: "You have signed" })).toBeVisible({ timeout: 30_000 });
    pages.push([toFill, null], [passcode, null], [signed, null], [declined, null]);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const [url] of pages) {
        await page.goto(url);
        await page.waitForLoadState("networkidle");
        const name = url.startsWith("http") ? `sign_${new URL(url).pathname.slice(-6)}` : url.replace(/[^a-z0-9]+/gi, "_");
        await page.screenshot({ path: `${process.env.QUIRE_E2E_SHOTS}/${width}${name}.png`, fullPage: true });
      }
    }
  }
});

// The Webhooks page against a real HTTPS receiver on loopback (its CA is trusted by the e2e server:
// e2e/global-setup.ts): create with event checkboxes, the secret shown once, edit the URLs, pause and
// resume, regenerate, send a test of a chosen event, follow it in the delivery log to its attempts,
// and replay it.
import { as } from "../tests/support/api";
import { startReceiver } from "../tests/support/https-receiver";
import { expect, logIn, test } from "./fixtures";

test("an administrator sets up the webhook, tests it against a failing receiver, reads the attempts and replays", async ({ page, quire }) => {
  const secret = { value: "" };
  let healthy = false;
  const rx = await startReceiver({
    secret: () => secret.value,
    respond: () => (healthy ? { status: 200, body: "thanks" } : { status: 500, body: "receiver down" }),
  });
  try {
    await logIn(page, quire);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();

    // Create: an http URL is refused with the field named; then https with one event.
    const create = page.getByRole("form", { name: "Create webhook" });
    await expect(create.getByLabel("Name")).toHaveValue("signature");
    // The wrong line is highlighted under its box, in words; the boxes keep what was typed.
    const urlsBox = create.getByLabel("Receiver URLs");
    await urlsBox.fill("https://hooks.example.com/ok\nhttp://hooks.example.com/plain");
    await create.getByRole("button", { name: "Create webhook" }).click();
    await expect(create.getByRole("alert")).toContainText("Please fix the highlighted problems.");
    await expect(urlsBox).toHaveAttribute("aria-invalid", "true");
    await expect(urlsBox).toHaveAccessibleDescription(/Line 2: must be an https:\/\/ URL/);
    await expect(urlsBox).toHaveValue("https://hooks.example.com/ok\nhttp://hooks.example.com/plain");
    await expect(create).not.toContainText("urls.");
    await expect(create.getByLabel("Name")).not.toHaveAttribute("aria-invalid", "true");
    await expect(create.getByLabel("Name")).toHaveValue("signature");
    await create.getByLabel("Receiver URLs").fill(`${rx.url}?v=1`);
    await expect(create.getByLabel(/signature\.document\.completed/)).toBeChecked();
    await create.getByLabel(/signature\.document\.voided/).uncheck();
    await create.getByRole("button", { name: "Create webhook" }).click();

    const shown = page.getByTestId("webhook-secret");
    await expect(shown).toBeVisible();
    secret.value = (await shown.textContent())!.trim();
    expect(secret.value).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByRole("status").filter({ hasText: "not shown again" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Copy" })).toBeVisible();
    await expect(page.getByTestId("masked-secret")).toHaveText(`whsec_…${secret.value.slice(-4)}`);
    await expect(page.locator("dl").getByText("signature.document.completed", { exact: true })).toBeVisible();
    await expect(page.locator("dl").getByText("signature.document.voided", { exact: true })).toHaveCount(0);

    // Shown once: gone after a reload.
    await page.reload();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
    await expect(page.getByText(secret.value)).toHaveCount(0);

    // Edit the URLs (the list is replaced).
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const edit = page.getByRole("form", { name: "Edit webhook" });
    await edit.getByLabel("Receiver URLs").fill(rx.url);
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await expect(page.getByText(`${rx.url}?v=1`)).toHaveCount(0);
    await expect(page.getByText(rx.url, { exact: true })).toBeVisible();

    // Pause: a paused webhook cannot be tested; resume.
    await page.getByRole("button", { name: "Pause" }).click();
    await expect(page.getByText("paused", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Send test" })).toBeDisabled();
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByText("active", { exact: true })).toBeVisible();

    // Regenerate: the new secret is shown once and signs what follows.
    const oldSecret = secret.value;
    await page.getByRole("button", { name: "Regenerate secret" }).click();
    await page.getByRole("alertdialog", { name: "Regenerate the secret?" }).getByRole("button", { name: "Regenerate secret" }).click();
    await expect(shown).toBeVisible();
    secret.value = (await shown.textContent())!.trim();
    expect(secret.value).not.toBe(oldSecret);

    // Send a test of the chosen event to the (failing) receiver: recorded, retrying.
    await page.getByLabel("Test event").selectOption("signature.document.voided");
    await page.getByRole("button", { name: "Send test" }).click();
    const result = page.getByRole("status", { name: "Test result" });
    await expect(result).toContainText("Sent to 1 URL(s)");
    await expect(result).toContainText("retrying");
    await expect(result).toContainText("HTTP 500");
    // The worker retries at once (scaled back-off): every attempt is the same delivery, signed with the new secret.
    expect(rx.received.length).toBeGreaterThanOrEqual(1);
    expect(new Set(rx.received.map((d) => d.headers["x-service-delivery"])).size).toBe(1);
    expect(rx.received.every((d) => d.signatureValid && d.headers["x-service-event"] === "signature.document.voided")).toBe(true);

    // The log: the retries run out (the test server's back-off is scaled down), the badge says failed.
    const row = page.getByTestId("delivery-row").first();
    await expect(async () => {
      await page.reload();
      await expect(row).toContainText("failed", { timeout: 500 });
    }).toPass({ timeout: 30_000 });
    await expect(row).toContainText("signature.document.voided");
    await expect(row).toContainText("6/6");
    await expect(row).toContainText("500");
    await row.getByRole("link").click();

    // Attempt detail: what was sent and what came back, for each of the six attempts.
    await expect(page.getByRole("heading", { name: "Webhook delivery" })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: "failed" })).toBeVisible();
    const attempts = page.getByRole("article");
    await expect(attempts).toHaveCount(6);
    const first = page.getByRole("article", { name: "Attempt 1" });
    await expect(first).toContainText("HTTP 500");
    await expect(first).toContainText("x-service-event: signature.document.voided");
    await expect(first).toContainText('"event": "signature.document.voided"');
    await expect(first).toContainText("receiver down");
    await expect(page.getByText(secret.value)).toHaveCount(0);

    // Replay once the receiver is fixed: a new delivery, delivered at once.
    healthy = true;
    const failedUrl = page.url();
    await page.getByRole("button", { name: "Replay" }).click();
    await expect(page).toHaveURL(/replayOf=/);
    expect(page.url()).not.toBe(failedUrl);
    await expect(page.getByRole("status").filter({ hasText: "Replayed as this new delivery" })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: "delivered" })).toBeVisible();
    await expect(page.getByRole("article", { name: "Attempt 1" })).toContainText("HTTP 200");
    await expect(page.getByRole("article", { name: "Attempt 1" })).toContainText("thanks");
    const last = rx.received.at(-1)!;
    expect(last.signatureValid).toBe(true);
    expect(JSON.parse(last.body).event).toBe("signature.document.voided");
    expect(JSON.parse(last.body).id).toBe(JSON.parse(rx.received[0].body).id);

    // Back in the log: the replay on top, delivered; filters narrow the list.
    await page.getByRole("link", { name: "← Webhooks" }).click();
    await expect(page.getByTestId("delivery-row")).toHaveCount(2);
    await expect(page.getByTestId("delivery-row").first()).toContainText("delivered");
    await page.getByLabel("Status").selectOption("failed");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByTestId("delivery-row")).toHaveCount(1);
    await expect(page.getByTestId("delivery-row").first()).toContainText("failed");
  } finally {
    await rx.close();
  }
});

test("the webhooks page and a delivery's attempts fit a phone", async ({ page, quire }) => {
  const rx = await startReceiver();
  try {
    const api = as(quire.baseUrl, quire.seed);
    const created = await api("/api/webhooks", {
      method: "POST",
      body: { name: `phone-${Date.now()}`, urls: [`${rx.url}?a-rather-long-query-string=${"x".repeat(80)}`], events: ["signature.document.completed"] },
    });
    expect(created.status).toBe(201);
    const sent = await api(`/api/webhooks/${created.json.data.name}/test`, { method: "POST", body: {} });
    expect(sent.json.data.deliveries[0].status).toBe("delivered");

    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, quire);
    await page.goto(`/webhooks?webhook=${created.json.data.id}`);
    await expect(page.getByRole("heading", { name: created.json.data.name })).toBeVisible();
    await expect(page.getByTestId("delivery-row")).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.getByTestId("delivery-row").getByRole("link").click();
    await expect(page.getByRole("article", { name: "Attempt 1" })).toContainText("HTTP 200");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  } finally {
    await rx.close();
  }
});

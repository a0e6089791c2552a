import { expect, logIn, test } from "./fixtures";
import { api, onePagePdf, uniqueEmail } from "./esign";

// Issue 19 item 10: fields placed once are saved as a layout with role names; the next document is sent
// from the layout by filling only names and emails, and gets the same fields.

test("save a layout from the placer, then send from it by filling only names and emails", async ({ page, quire }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await onePagePdf("Lease"))]), "lease.pdf");
  form.set("documentName", `Lease ${stamp}`);
  form.set(
    "recipients",
    JSON.stringify([
      { name: "Pat Tenant", email: uniqueEmail("pat") },
      { name: "Wes Witness", email: uniqueEmail("wes") },
    ]),
  );
  const draft = await api(quire)("/esign/single/prepare-for-review", { method: "POST", body: form });
  expect(draft.status, draft.text).toBe(200);

  await logIn(page, quire);
  await page.goto(`/documents/${draft.json.data.documentId}/prepare`);
  await expect(page.getByRole("img", { name: "Page 1" })).toBeVisible();
  await page.getByRole("button", { name: "Signature", exact: true }).click();
  await page.getByRole("radio", { name: /Wes Witness/ }).check();
  await page.getByRole("button", { name: "Date", exact: true }).click();
  // Moved off the signature, so the two sit apart.
  const date = page.getByRole("button", { name: "Date for Wes Witness on page 1" });
  await date.focus();
  for (let i = 0; i < 8; i++) await page.keyboard.press("Shift+ArrowDown");

  const layoutName = `Lease layout ${stamp}`;
  await page.getByRole("button", { name: "Save as layout" }).click();
  const panel = page.getByRole("form", { name: "Save as layout" });
  await panel.getByLabel("Layout name").fill(layoutName);
  await panel.getByLabel("Role of 1. Pat Tenant").fill("Tenant");
  await panel.getByLabel("Role of 2. Wes Witness").fill("Witness");
  await panel.getByRole("button", { name: "Save layout" }).click();
  await expect(panel.getByRole("status")).toContainText(`Saved the layout “${layoutName}”`);

  const layouts = (await api(quire)("/esign/layouts")).json.data as { id: string; name: string; roles: string[]; fields: Record<string, unknown>[] }[];
  const layout = layouts.find((l) => l.name === layoutName)!;
  expect(layout.roles).toEqual(["Tenant", "Witness"]);
  expect(layout.fields.map((f) => [f.role, f.type])).toEqual([
    ["Tenant", "signature"],
    ["Witness", "date"],
  ]);

  // A blank role name is refused with the reason, nothing saved.
  await panel.getByLabel("Role of 2. Wes Witness").fill(" ");
  await panel.getByRole("button", { name: "Save layout" }).click();
  await expect(panel.getByRole("alert")).toBeVisible();
  expect(((await api(quire)("/esign/layouts")).json.data as unknown[]).length).toBe(layouts.length);

  // Send from the layout: only names and emails.
  const tenant = { name: "Tina Tenant", email: uniqueEmail("tina") };
  const witness = { name: "Will Witness", email: uniqueEmail("will") };
  await page.goto("/documents/new");
  await page.getByRole("tab", { name: "Use a layout" }).click();
  await page.getByLabel("Saved layout").selectOption({ label: `${layoutName} (Tenant, Witness)` });
  await expect(page.getByLabel("Signer 1 name")).toHaveCount(0);
  await page.getByLabel("Tenant name").fill(tenant.name);
  await page.getByLabel("Tenant email").fill(tenant.email);
  await page.getByLabel("Witness name").fill(witness.name);
  await page.getByLabel("Witness email").fill(witness.email);
  await page.getByRole("button", { name: "Continue to review" }).click();

  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}\/prepare$/, { timeout: 30_000 });
  const documentId = /documents\/([0-9a-f-]{36})/.exec(page.url())![1];
  await expect(page.getByRole("button", { name: `Signature for ${tenant.name} on page 1` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Date for ${witness.name} on page 1` })).toBeVisible();
  await page.getByRole("button", { name: "Send for signing" }).click();
  await expect(page).toHaveURL(new RegExp(`/documents/${documentId}$`), { timeout: 30_000 });

  const doc = (await api(quire)(`/esign/documents/${documentId}`)).json.data;
  expect(doc.status).toBe("sent");
  expect(doc.name).toBe(layoutName);
  const recipients = doc.recipients as { id: string; email: string }[];
  expect(recipients.map((r) => r.email)).toEqual([tenant.email, witness.email]);
  // The sent document's fields are the layout's, read back as the tenant's signing page gets them.
  const url = await api(quire)(`/esign/documents/${documentId}/signing-url`, { method: "POST", body: { recipientId: recipients[0].id } });
  const token = new URL(url.json.data.results.url).searchParams.get("token");
  const session = await fetch(`${quire.baseUrl}/api/signer/${token}`).then((r) => r.json());
  const { role: _role, ...tenantField } = layout.fields[0];
  expect(
    session.data.fields.map(({ type, page: p, x, y, width, height, required }: Record<string, unknown>) => ({ type, page: p, x, y, width, height, required })),
  ).toEqual([tenantField]);
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, logIn, test } from "./fixtures";
import { api, onePagePdf, uniqueEmail } from "./esign";

// Issue 19 item 11: a CSV of signers against a saved layout, uploaded in the dashboard; the bad row is
// named and sends nothing, the progress runs to the end.

test("bulk send a 50-row CSV with one bad row from the dashboard and follow its progress", async ({ page, quire }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await onePagePdf("Consent form"))]), "consent.pdf");
  form.set("recipients", JSON.stringify([{ name: "Dee Draft", email: uniqueEmail("dee") }]));
  const draft = await api(quire)("/esign/single/prepare-for-review", { method: "POST", body: form });
  expect(draft.status, draft.text).toBe(200);
  const layoutName = `Consent ${stamp}`;
  const layout = await api(quire)("/esign/layouts", {
    method: "POST",
    body: {
      name: layoutName,
      roles: ["Parent"],
      documentId: draft.json.data.documentId,
      fields: [{ role: "Parent", type: "signature", page: 1, x: 60, y: 600, width: 160, height: 40 }],
    },
  });
  expect(layout.status, layout.text).toBe(201);

  const rows = Array.from({ length: 50 }, (_, i) => (i === 9 ? "Nobody," : `Parent ${i + 1},parent${i + 1}.${stamp}@example.com`));
  const csv = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-")), "parents.csv");
  fs.writeFileSync(csv, ["Parent name,Parent email", ...rows].join("\n"));
  const before = (await api(quire)("/esign/documents?limit=1")).json.data.totalRecords as number;

  await logIn(page, quire);
  await page.goto("/documents");
  await page.getByRole("link", { name: "Bulk send" }).click();
  await page.getByLabel("Saved layout").selectOption({ label: `${layoutName} (Parent)` });
  await expect(page.getByText("Parent name,Parent email")).toBeVisible();
  await page.getByLabel("CSV file").setInputFiles(csv);
  await page.getByRole("button", { name: "Send to every row" }).click();

  const progress = page.getByRole("region", { name: "Bulk send progress" });
  await expect(progress.getByRole("progressbar", { name: "Sent" })).toHaveAttribute("aria-valuemax", "49");
  await expect(progress.getByRole("status")).toHaveText("Done: 49 of 49 sent; 1 row(s) not sent", { timeout: 120_000 });
  await expect(progress.getByRole("progressbar", { name: "Sent" })).toHaveAttribute("aria-valuenow", "49");
  await expect(progress.getByRole("listitem")).toHaveText([/^Row 10: recipients\.0\.email must be an email address/]);
  expect((await api(quire)("/esign/documents?limit=1")).json.data.totalRecords).toBe(before + 49);

  await progress.getByRole("link", { name: "See the documents" }).click();
  await expect(page).toHaveURL(/\/documents$/);
  await expect(page.getByRole("link", { name: layoutName }).first()).toBeVisible();
});

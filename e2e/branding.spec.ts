import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { authHeaders } from "../tests/support/api";
import { expect, logIn, test } from "./fixtures";
import { api, mailsTo, onePagePdf, signingLink, uniqueEmail } from "./esign";

// Branding per organization (issue 19 item 6): set on Settings, seen on the signing page, in the
// emails and on the certificate page of the sealed PDF (its logo too).
test.use({ locale: "en-US" });

// A real 2x2 red PNG (image-size reads its dimensions, the browser draws it).
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEUlEQVR4nGP4z8DwH4QZYAwAR8oH+WdZbrcAAAAASUVORK5CYII=", "base64");

test("an administrator brands the organization: logo, accent, sender name and footer on page, email and certificate", async ({ page, quire }) => {
  await logIn(page, quire);
  await page.goto("/settings");
  const logoForm = page.getByRole("form", { name: "Logo" });
  const brandForm = page.getByRole("form", { name: "Branding" });
  try {
    // An SVG named .png is refused by its bytes; nothing is stored.
    await logoForm
      .getByLabel("Upload a logo")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    await logoForm.getByRole("button", { name: "Upload logo" }).click();
    await expect(logoForm.getByText("must be a PNG or JPEG image")).toBeVisible();
    await expect(logoForm.getByText("The logo was not saved")).toBeVisible();
    await expect(logoForm.getByRole("img", { name: "Current logo" })).toHaveCount(0);

    await logoForm.getByLabel("Upload a logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    await logoForm.getByRole("button", { name: "Upload logo" }).click();
    await expect(logoForm.getByText("Logo saved")).toBeVisible();
    await expect(logoForm.getByRole("img", { name: "Current logo" })).toBeVisible();

    // A bad colour is refused beside its field; then a light accent (black text on it).
    await brandForm.getByLabel("Accent colour", { exact: true }).fill("gold");
    await brandForm.getByRole("button", { name: "Save branding" }).click();
    await expect(brandForm.getByText("must be a colour like #1a7f5a")).toBeVisible();
    await brandForm.getByLabel("Accent colour", { exact: true }).fill("#FFD700");
    await brandForm.getByLabel("Sender display name").fill("Acme Homes");
    await brandForm.getByLabel("Email footer").fill("Acme Homes Ltd, 1 Main Street, Springfield");
    await brandForm.getByRole("button", { name: "Save branding" }).click();
    await expect(brandForm.getByText("Branding saved")).toBeVisible();

    const email = uniqueEmail("bree");
    const name = `Branded lease ${Date.now()}`;
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await onePagePdf(name))]), "document.pdf");
    form.set("documentName", name);
    form.set("senderName", "Sam Sender");
    form.set("senderEmail", "sam@example.com");
    form.set("recipients", JSON.stringify([{ name: "Bree Brand", email }]));
    form.set("fields", JSON.stringify([{ type: "text", page: 1, x: 50, y: 600, width: 200, height: 30, required: true, recipientEmail: email }]));
    const res = await api(quire)("/esign/single/prepare-for-signing", { method: "POST", body: form });
    expect(res.status, res.text).toBe(200);
    const id = res.json.data.documentId as string;

    // The email: logo, sender display name, accent button, footer.
    const mail = (await mailsTo(quire, email)).find((m) => m.kind === "signing_request") as unknown as { html: string; text: string };
    const logoUrl = /<img src="([^"]+\/api\/branding\/logo\/[0-9a-f]{64})" alt="Acme Homes"/.exec(mail.html)?.[1];
    expect(logoUrl, mail.html).toBeTruthy();
    expect(mail.html).toContain("background:#ffd700");
    expect(mail.html).toContain("Sent by Acme Homes on behalf of the document&#39;s sender.<br>Acme Homes Ltd, 1 Main Street, Springfield");
    expect(mail.text).toContain("Acme Homes Ltd, 1 Main Street, Springfield");
    const logo = await fetch(new URL(new URL(logoUrl as string).pathname, quire.baseUrl));
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await logo.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(`${quire.baseUrl}/api/branding/logo/${"0".repeat(64)}`)).status).toBe(404);

    // The signing page: the logo, the display name and the accent on its buttons, with readable text.
    await page.goto(await signingLink(quire, email));
    await expect(page.getByRole("heading", { name })).toBeVisible();
    const img = page.getByRole("img", { name: "Acme Homes" });
    await expect(img).toBeVisible();
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(2);
    await expect(page.getByText("Acme Homes · secure signing")).toBeVisible();
    const finish = page.getByRole("button", { name: "Finish signing" });
    await expect(finish).toHaveCSS("background-color", "rgb(255, 215, 0)");
    await expect(finish).toHaveCSS("color", "rgb(0, 0, 0)");

    await page.getByRole("textbox", { name: "Text (required)" }).fill("Bree");
    await finish.click();
    await expect(page.getByRole("heading", { name: "You have signed" })).toBeVisible({ timeout: 30_000 });

    // The certificate page of the sealed PDF names the sender and ends with the footer.
    await expect.poll(async () => (await api(quire)(`/esign/documents/${id}`)).json.data.status, { timeout: 30_000 }).toBe("completed");
    const pdf = await fetch(`${quire.baseUrl}/esign/documents/${id}/download`, { headers: authHeaders(quire.seed, "contributor") });
    expect(pdf.status).toBe(200);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quire-e2e-")), "signed.pdf");
    fs.writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("Certificate of completion");
    expect(text).toContain("Sent by: Acme Homes");
    expect(text).toContain("Acme Homes Ltd, 1 Main Street, Springfield");
    // The logo heads the certificate page (page 2, after the one-page document): the 2x2 PNG.
    const images = execFileSync("pdfimages", ["-list", file], { encoding: "utf8" })
      .split("\n")
      .slice(2)
      .map((row) => row.trim().split(/\s+/));
    expect(images.some(([pageNo, , type, width, height]) => pageNo === "2" && type === "image" && width === "2" && height === "2")).toBe(true);
  } finally {
    // Back to Quire's look for the other tests.
    await page.goto("/settings");
    if (await logoForm.getByRole("button", { name: "Remove logo" }).count()) {
      await logoForm.getByRole("button", { name: "Remove logo" }).click();
      await expect(logoForm.getByText("Logo removed")).toBeVisible();
    }
    await brandForm.getByLabel("Accent colour", { exact: true }).fill("");
    await brandForm.getByLabel("Sender display name").fill("");
    await brandForm.getByLabel("Email footer").fill("");
    await brandForm.getByRole("button", { name: "Save branding" }).click();
    await expect(brandForm.getByText("Branding saved")).toBeVisible();
  }
});

import { expect, logIn, test } from "./fixtures";
import { api, mailsTo, onePagePdf, signingLink, uniqueEmail } from "./esign";
import { as } from "../tests/support/api";
import type { QuireTestServer } from "../tests/support/quire-server";

// Four languages (issue 19 item 5): the sender picks the document's language, the signing page (its tab
// title, passcode check and the server's errors too) and its emails speak it, the signer switches the
// page, and the organization has a default.
test.use({ locale: "en-US" });

async function prepare(quire: QuireTestServer, o: { name: string; email: string; language?: string; passcode?: boolean }) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await onePagePdf(o.name))]), "document.pdf");
  form.set("documentName", o.name);
  form.set("senderName", "Sam Sender");
  form.set("senderEmail", "sam@example.com");
  const check = o.passcode ? { identityVerification: { mode: "otp", channel: "email" } } : {};
  form.set("recipients", JSON.stringify([{ name: "Greta Gast", email: o.email, ...check }]));
  form.set("fields", JSON.stringify([{ type: "text", page: 1, x: 50, y: 600, width: 200, height: 30, required: true, recipientEmail: o.email }]));
  if (o.language) form.set("language", o.language);
  form.set("expiresAt", "2099-03-05T14:30:00Z");
  return api(quire)("/esign/single/prepare-for-signing", { method: "POST", body: form });
}

test("a document sent in German: German email and page; the signer switches to French and it stays French", async ({ page, quire }) => {
  const email = uniqueEmail("greta");
  const name = `Mietvertrag ${Date.now()}`;

  const bad = await prepare(quire, { name, email, language: "xx" });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.json)).toContain("language");
  expect(await mailsTo(quire, email)).toEqual([]);

  const res = await prepare(quire, { name, email, language: "de" });
  expect(res.status).toBe(200);
  const id = res.json.data.documentId as string;
  expect((await api(quire)(`/esign/documents/${id}`)).json.data.language).toBe("de");
  // The list says the same as the single read (it once left the column out and said "en").
  const listed = (await api(quire)(`/esign/documents?query=${encodeURIComponent(name)}`)).json.data.results as { id: string; language: string }[];
  expect(listed.map((d) => [d.id, d.language])).toEqual([[id, "de"]]);

  // The email, read from the outbox: German subject, body, button and a German date.
  const mail = (await mailsTo(quire, email)).find((m) => m.kind === "signing_request") as unknown as { subject: string; text: string; html: string };
  expect(mail.subject).toBe(`Sam Sender bittet Sie, „${name}“ zu unterschreiben`);
  expect(mail.text).toContain("Hallo Greta Gast,");
  expect(mail.text).toContain("Bitte unterschreiben Sie bis 5. März 2099 um 14:30 UTC.");
  expect(mail.html).toContain("Prüfen und unterschreiben");
  expect(mail.html).toContain("Gesendet von Quire im Auftrag des Absenders des Dokuments.");

  // The page in German.
  const link = await signingLink(quire, email);
  await page.goto(link);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page).toHaveTitle("Dokument unterschreiben · Quire");
  await expect(page.getByText("Sam Sender bittet Sie, Greta Gast, um Ihre Unterschrift.")).toBeVisible();
  await expect(page.getByText("Füllen Sie die markierten Felder aus und schließen Sie dann ab.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Unterschrift abschließen" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Ablehnen", exact: true })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Text (Pflichtfeld)" })).toBeVisible();
  await expect(page.locator("[lang=de]").first()).toBeVisible();
  await page.getByRole("button", { name: "Unterschrift abschließen" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Bitte" })).toHaveText("Bitte füllen Sie die Pflichtfelder aus (1): Text.");

  // The signer switches to French: the page re-renders in French and keeps what was typed.
  await page.getByRole("textbox", { name: "Text (Pflichtfeld)" }).fill("Greta");
  await page.getByLabel("Sprache").selectOption("fr");
  await expect(page.getByRole("button", { name: "Terminer la signature" })).toBeVisible();
  await expect(page.getByText("Sam Sender vous demande, Greta Gast, de signer.")).toBeVisible();
  await expect(page.getByLabel("Langue")).toHaveValue("fr");
  await expect(page).toHaveTitle("Signer un document · Quire");
  await expect(page.getByRole("textbox", { name: "Texte (obligatoire)" })).toHaveValue("Greta");
  await expect(page).toHaveURL(/\?lang=fr$/);

  // The choice is remembered: the emailed link (no ?lang) opens in French.
  await page.goto(link);
  await expect(page.getByRole("button", { name: "Terminer la signature" })).toBeVisible();
  await page.getByRole("textbox", { name: "Texte (obligatoire)" }).fill("Greta");
  await page.getByRole("button", { name: "Terminer la signature" }).click();
  await expect(page.getByRole("heading", { name: "Vous avez signé" })).toBeVisible();

  // The completed copy's email is in the document's language (German), not the page's.
  await expect
    .poll(async () => (await mailsTo(quire, email)).find((m) => m.kind === "signing_completed")?.subject ?? null, { timeout: 30_000 })
    .toBe(`Abgeschlossen: „${name}“`);
});

test("a German passcode check: the tab title, the passcode messages and the server's errors are German", async ({ page, quire }) => {
  const email = uniqueEmail("gustav");
  const name = `Bürgschaft ${Date.now()}`;
  const res = await prepare(quire, { name, email, language: "de", passcode: true });
  expect(res.status, res.text).toBe(200);
  await page.goto(await signingLink(quire, email));
  await expect(page).toHaveTitle("Dokument unterschreiben · Quire");
  await expect(page.getByRole("heading", { name: "Bestätigen Sie, dass Sie es sind" })).toBeVisible();
  await page.getByRole("button", { name: "Code senden" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Code" })).toHaveText(/^Wir haben einen 6-stelligen Code an .+ gesendet\. Er gilt 10 Minuten\.$/);

  // The server's refusals, in German: a new code too soon, then a wrong code.
  await page.getByRole("button", { name: "Neuen Code senden" }).click();
  const alert = page.getByRole("alert").filter({ hasText: /\S/ });
  await expect(alert).toHaveText(/^Warten Sie \d+ Sekunden, bevor Sie einen weiteren Code anfordern$/);
  const mail = (await mailsTo(quire, email)).find((m) => m.kind === "signing_passcode");
  const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1] as string;
  expect(code, "passcode in the outbox").toBeTruthy();
  await page.getByLabel("Code", { exact: true }).fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Weiter" }).click();
  await expect(alert).toHaveText("Dieser Code ist nicht richtig; noch 4 Versuch(e) für diesen Code");

  await page.getByLabel("Code", { exact: true }).fill(code);
  await page.getByRole("button", { name: "Weiter" }).click();
  await expect(page.getByRole("button", { name: "Unterschrift abschließen" })).toBeVisible();
});

test("the organization's default language: set on Settings, used by a send that names none, offered by the send form", async ({ page, quire }) => {
  const admin = as(quire.baseUrl, quire.seed, "administrator");
  await logIn(page, quire);
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Default signing language" });
  await form.getByLabel("Default language").selectOption("es");
  await form.getByRole("button", { name: "Save language" }).click();
  await expect(form.getByText("Default signing language saved")).toBeVisible();
  try {
    const email = uniqueEmail("ana");
    const res = await prepare(quire, { name: `Contrato ${Date.now()}`, email });
    expect(res.status).toBe(200);
    expect((await admin(`/esign/documents/${res.json.data.documentId}`)).json.data.language).toBe("es");
    const mail = (await mailsTo(quire, email)).find((m) => m.kind === "signing_request");
    expect(mail?.text).toContain("Hola, Greta Gast:");
    await page.goto("/documents/new");
    await expect(page.getByLabel("Signers' language (signing page, emails and passcodes)")).toHaveValue("es");
  } finally {
    await page.goto("/settings");
    await form.getByLabel("Default language").selectOption("en");
    await form.getByRole("button", { name: "Save language" }).click();
    await expect(form.getByText("Default signing language saved")).toBeVisible();
  }
});

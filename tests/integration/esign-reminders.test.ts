// The sender's choices per send (docs/contract.md "Signing documents"): the signing emails' subject and
// message, and automatic reminders and expiry warnings sent by the scheduler under a moved service
// clock: one reminder per signer whose turn it is every reminderDays, none for later signers, none
// after signing, voiding or declining, none with sendEmail false; the organization's default applies
// when a send gives no reminderDays. Each organization is fresh, so its outbox holds only these mails.
import { afterEach, describe, expect, inject, it } from "vitest";
import { as, call } from "../support/helpers";
import { mailsOf, orgWith, prepareDoc, setClock, type EmbeddedOrg } from "../support/embedded";
import { SIGNING_LINK, signerApi, tokenOf } from "../support/esign";

const server = inject("quire");
const { baseUrl } = server;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

afterEach(async () => {
  await setClock(server, 0);
});

type Mail = Awaited<ReturnType<typeof mailsOf>>[number];

/** Polls the organization's outbox until `ready` holds for the mails of `kind` (the worker runs in the server). */
async function waitForMails(org: EmbeddedOrg, kind: string, ready: (mails: Mail[]) => boolean, ms = 20_000): Promise<Mail[]> {
  const until = Date.now() + ms;
  for (;;) {
    const mails = await mailsOf(baseUrl, org, kind);
    if (ready(mails) || Date.now() > until) return mails;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const send = (org: EmbeddedOrg, recipients: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
  prepareDoc(baseUrl, org, recipients, { sendEmail: "true", ...extra });

async function tokenFor(org: EmbeddedOrg, email: string, documentId: string): Promise<string> {
  const mail = (await mailsOf(baseUrl, org, "signing_request")).find((m) => m.to === email && m.documentId === documentId);
  expect(mail, `a signing email to ${email}`).toBeTruthy();
  return tokenOf(SIGNING_LINK.exec(mail!.text)![0]);
}

async function signAll(token: string) {
  const s = signerApi(baseUrl, token);
  const session = (await s.session()).json.data;
  const r = await s.sign(Object.fromEntries(session.fields.map((f: { id: string }) => [f.id, "typed value"])));
  expect(r.status, r.text).toBe(200);
}

describe("subject, message and cc per send", () => {
  it("the signing email carries the sender's subject and message (escaped, plain text); cc gets the completed copy", async () => {
    const org = await orgWith(server, {});
    const res = await send(org, [{ name: "Ada", email: "ada@example.com" }], {
      emailSubject: "  Your NDA for Q4 <b>now</b>  ",
      emailMessage: "Hi Ada,\n<script>alert(1)</script> please sign & return.",
      ccEmails: ["legal@example.com"],
    });
    expect(res.status, res.text).toBe(200);
    const id = res.json.data.documentId;
    const [mail] = (await mailsOf(baseUrl, org, "signing_request")).filter((m) => m.documentId === id);
    expect(mail.subject).toBe("Your NDA for Q4 <b>now</b>");
    expect(mail.text).toContain("Hi Ada,\n<script>alert(1)</script> please sign & return.");
    const full = (await as(baseUrl, org)(`/api/outbox?to=ada@example.com&limit=5`)).json.data.results[0];
    expect(full.html).toContain("Hi Ada,<br>&lt;script&gt;alert(1)&lt;/script&gt; please sign &amp; return.");
    expect(full.html).not.toContain("<script>");

    await signAll(await tokenFor(org, "ada@example.com", id));
    const completed = await waitForMails(org, "signing_completed", (m) => m.some((x) => x.to === "legal@example.com"));
    expect(completed.filter((m) => m.to === "legal@example.com" && m.documentId === id)).toHaveLength(1);
  });

  it("without a subject the default wording stays; bad subject, message or reminderDays are 400s that create nothing", async () => {
    const org = await orgWith(server, {});
    const ok = await send(org, [{ name: "Ada", email: "ada@example.com" }]);
    expect(ok.status, ok.text).toBe(200);
    expect((await mailsOf(baseUrl, org, "signing_request"))[0].subject).toBe("Sam Sender asks you to sign “NDA”");

    const bad: [Record<string, unknown>, string][] = [
      [{ emailSubject: "Line one\r\nBcc: victim@example.com" }, "emailSubject"],
      [{ emailSubject: "   " }, "emailSubject"],
      [{ emailSubject: "x".repeat(256) }, "emailSubject"],
      [{ emailMessage: "x".repeat(5001) }, "emailMessage"],
      [{ reminderDays: "-1" }, "reminderDays"],
      [{ reminderDays: "1.5" }, "reminderDays"],
      [{ reminderDays: "weekly" }, "reminderDays"],
      [{ reminderDays: "366" }, "reminderDays"],
      [{ ccEmails: ["not-an-email"] }, "ccEmails"],
    ];
    for (const [extra, field] of bad) {
      const r = await send(org, [{ name: "Bo", email: "bo@example.com" }], extra);
      expect(r.status, JSON.stringify(extra)).toBe(400);
      expect(r.text, JSON.stringify(extra)).toContain(field);
    }
    const listed = await as(baseUrl, org, "contributor")("/esign/documents?limit=100");
    expect(listed.json.data.totalRecords).toBe(1);
    expect((await mailsOf(baseUrl, org)).filter((m) => m.to === "bo@example.com")).toEqual([]);
  });
});

describe("automatic reminders and expiry warnings", () => {
  it("remind each signer whose turn it is every reminderDays, once per period; never later signers, signed, voided, declined or sendEmail false", async () => {
    const org = await orgWith(server, {});
    const contributor = as(baseUrl, org, "contributor");
    const opts = { reminderDays: "2", emailSubject: "Q4 contract", emailMessage: "Thanks!" };
    // In turn: Ada (ready) and Bob (after her).
    const seq = await send(
      org,
      [
        { name: "Ada", email: "ada@example.com", signingOrder: 1 },
        { name: "Bob", email: "bob@example.com", signingOrder: 2 },
      ],
      opts,
    );
    // Cy signs at once: Di, next, is emailed then and reminded from then on.
    const signed = await send(
      org,
      [
        { name: "Cy", email: "cy@example.com", signingOrder: 1 },
        { name: "Di", email: "di@example.com", signingOrder: 2 },
      ],
      opts,
    );
    const quiet = await send(org, [{ name: "Ed", email: "ed@example.com" }], { ...opts, sendEmail: "false" });
    const voided = await send(org, [{ name: "Flo", email: "flo@example.com" }], opts);
    const declined = await send(org, [{ name: "Gus", email: "gus@example.com" }], opts);
    const never = await send(org, [{ name: "Hal", email: "hal@example.com" }], { reminderDays: "0" });
    for (const r of [seq, signed, quiet, voided, declined, never]) expect(r.status, r.text).toBe(200);
    await signAll(await tokenFor(org, "cy@example.com", signed.json.data.documentId));
    expect((await contributor(`/esign/documents/${voided.json.data.documentId}/void`, { method: "POST", body: { reason: "wrong" } })).status).toBe(200);
    const gus = await tokenFor(org, "gus@example.com", declined.json.data.documentId);
    expect((await call(baseUrl, `/api/signer/${gus}/decline`, { method: "POST", body: { reason: "no" } })).status).toBe(200);

    // Not due yet.
    await setClock(server, 2 * DAY - HOUR);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await mailsOf(baseUrl, org, "signing_reminder")).toEqual([]);

    await setClock(server, 2 * DAY + HOUR);
    let reminders = await waitForMails(org, "signing_reminder", (m) => m.length >= 2);
    // A little longer: nothing more comes.
    await new Promise((r) => setTimeout(r, 2500));
    reminders = await mailsOf(baseUrl, org, "signing_reminder");
    expect(reminders.map((m) => `${m.to} ${m.documentId}`).sort()).toEqual(
      [`ada@example.com ${seq.json.data.documentId}`, `di@example.com ${signed.json.data.documentId}`].sort(),
    );
    const ada = reminders.find((m) => m.to === "ada@example.com")!;
    expect(ada.subject).toBe("Reminder: Q4 contract");
    expect(ada.text).toContain("Thanks!");
    expect(ada.text).toMatch(SIGNING_LINK);
    // The reminder's link is Ada's signing link.
    expect(tokenOf(SIGNING_LINK.exec(ada.text)![0])).toBe(await tokenFor(org, "ada@example.com", seq.json.data.documentId));

    // Two days on: one more each.
    await setClock(server, 4 * DAY + 2 * HOUR);
    reminders = await waitForMails(org, "signing_reminder", (m) => m.length >= 4);
    await new Promise((r) => setTimeout(r, 2000));
    reminders = await mailsOf(baseUrl, org, "signing_reminder");
    expect(reminders.filter((m) => m.to === "ada@example.com")).toHaveLength(2);
    expect(reminders.filter((m) => m.to === "di@example.com")).toHaveLength(2);
    expect(reminders).toHaveLength(4);
  }, 90_000);

  it("a send without reminderDays takes the organization's default; a warning goes out a day before expiresAt, once", async () => {
    const org = await orgWith(server, {}, { signingReminderDays: 3 });
    const byDefault = await send(org, [{ name: "Ada", email: "ada@example.com" }]);
    expect(byDefault.status, byDefault.text).toBe(200);
    expect((await as(baseUrl, org, "contributor")(`/esign/documents/${byDefault.json.data.documentId}`)).json.data.reminderDays).toBe(3);
    const expiresAt = new Date(Date.now() + 3 * DAY).toISOString();
    const expiring = await send(org, [{ name: "Bea", email: "bea@example.com" }], { expiresAt, reminderDays: "0" });
    expect(expiring.status, expiring.text).toBe(200);
    const expiringQuiet = await send(org, [{ name: "Cal", email: "cal@example.com" }], { expiresAt, sendEmail: "false" });
    expect(expiringQuiet.status, expiringQuiet.text).toBe(200);

    await setClock(server, 2 * DAY + HOUR);
    let warnings = await waitForMails(org, "signing_expiry_warning", (m) => m.length >= 1);
    await new Promise((r) => setTimeout(r, 2500));
    warnings = await mailsOf(baseUrl, org, "signing_expiry_warning");
    expect(warnings.map((m) => m.to)).toEqual(["bea@example.com"]);
    expect(warnings[0].subject).toBe("Expires soon: “NDA”");
    expect(await mailsOf(baseUrl, org, "signing_reminder")).toEqual([]);

    await setClock(server, 3 * DAY + HOUR);
    const reminders = await waitForMails(org, "signing_reminder", (m) => m.length >= 1);
    await new Promise((r) => setTimeout(r, 2000));
    expect(reminders.map((m) => m.to)).toEqual(["ada@example.com"]);
    // Bea's document has expired meanwhile: no reminder, no second warning.
    expect(await mailsOf(baseUrl, org, "signing_expiry_warning")).toHaveLength(1);
    expect(await mailsOf(baseUrl, org, "signing_reminder")).toHaveLength(1);
  }, 90_000);
});

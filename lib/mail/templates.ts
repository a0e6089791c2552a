// Branded emails: table layout and inline styles (what mail clients render), every user-supplied
// string escaped, and a plain-text twin of each. Signers' emails speak the document's language.
import { formatDateTime, type Language, type Translate, translator } from "@/lib/i18n";

export interface Email {
  subject: string;
  html: string;
  text: string;
}

/** The organization's branding in an email (lib/orgs/branding.ts), the logo's address absolute. */
export interface MailBrand {
  name: string;
  footer: string | null;
  accent: string | null;
  accentText: string | null;
  logoUrl: string | null;
}

/** Which language a signer-facing email is written in (English when not given), and whose branding it wears. */
interface Localized {
  lang?: Language;
  brand?: MailBrand;
}

const QUIRE: MailBrand = { name: "Quire", footer: null, accent: null, accentText: null, logoUrl: null };

function esc(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

function layout(t: Translate, brand: MailBrand, title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;font-size:15px;line-height:22px;color:#1f2937">${p}</p>`).join("");
  const button = action
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px"><tr><td style="background:${brand.accent ?? "#3457d5"};border-radius:6px"><a href="${esc(action.url)}" style="display:inline-block;padding:12px 22px;color:${brand.accentText ?? "#ffffff"};font-weight:600;text-decoration:none;font-size:15px">${esc(action.label)}</a></td></tr></table><p style="margin:0 0 16px;font-size:12px;color:#6b7280">${esc(t("email.orOpen"))} <a href="${esc(action.url)}" style="color:#2a45ad">${esc(action.url)}</a></p>`
    : "";
  return `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif"><table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;border:1px solid #e2e8f0"><tr><td style="padding:20px 28px;border-bottom:1px solid #e2e8f0;font-weight:700;font-size:18px;color:#1b2a66">${heading(brand)}</td></tr><tr><td style="padding:28px"><h1 style="margin:0 0 16px;font-size:20px;color:#0f172a">${esc(title)}</h1>${body}${button}</td></tr><tr><td style="padding:16px 28px;border-top:1px solid #e2e8f0;font-size:12px;color:#94a3b8">${esc(t("email.footer", { brand: brand.name }))}${brand.footer ? `<br>${esc(brand.footer).replace(/\n/g, "<br>")}` : ""}</td></tr></table></td></tr></table></body></html>`;
}

function heading(brand: MailBrand): string {
  // The accent and text colours are validated hex values (lib/orgs/branding.ts); the rest is escaped.
  const logo = brand.logoUrl
    ? `<img src="${esc(brand.logoUrl)}" alt="${esc(brand.name)}" height="40" style="display:block;height:40px;max-width:200px;margin-bottom:6px">`
    : "";
  return `${logo}${esc(brand.name)}`;
}

function text(t: Translate, brand: MailBrand, title: string, lines: string[], action?: { label: string; url: string }): string {
  const footer = [`-- ${t("email.footer", { brand: brand.name })}`, ...(brand.footer ? [brand.footer] : [])];
  return [title, "", ...lines, ...(action ? ["", `${action.label}: ${action.url}`] : []), "", ...footer].join("\n");
}

/** Escaped, with the writer's line breaks kept (the sender's message may have several lines). */
const paragraph = (value: string) => esc(value).replace(/\r?\n/g, "<br>");

function build(look: { t: Translate; brand?: MailBrand }, subject: string, title: string, lines: string[], action?: { label: string; url: string }): Email {
  const brand = look.brand ?? QUIRE;
  return { subject, html: layout(look.t, brand, title, lines.map(paragraph), action), text: text(look.t, brand, title, lines, action) };
}

export type SigningRequestArgs = Localized & {
  recipientName: string;
  senderName?: string;
  documentName: string;
  /** The sender's own subject for this send (one line). */
  subject?: string;
  /** The sender's message: plain text, escaped, line breaks kept. */
  message?: string;
  signUrl: string;
  expiresAt?: Date | null;
  /** An automatic reminder (lib/esign/reminders.ts) rather than the first request. */
  reminder?: boolean;
};

export function signingRequestEmail(a: SigningRequestArgs): Email {
  const lang = a.lang ?? "en";
  const t = translator(lang);
  const doc = a.documentName;
  const who = a.senderName ?? t("email.request.someone");
  const lines = [
    t("email.hello", { name: a.recipientName }),
    a.reminder ? t("email.reminder.body", { who, doc }) : t("email.request.body", { who, doc }),
    ...(a.message ? [a.message] : []),
    ...(a.expiresAt ? [t("email.request.before", { date: formatDateTime(a.expiresAt, lang) })] : []),
  ];
  const action = { label: t("email.request.action"), url: a.signUrl };
  const subject = a.subject ?? t("email.request.subject", { who, doc });
  return build(
    { t, brand: a.brand },
    a.reminder ? t("email.reminder.subject", { subject }) : subject,
    a.reminder ? t("email.reminder.title", { doc }) : t("email.request.title", { doc }),
    lines,
    action,
  );
}

/** A day (or so) before a document expires, to the signers whose turn it is. */
export function expiryWarningEmail(
  a: Localized & { recipientName: string; senderName?: string; documentName: string; signUrl: string; expiresAt: Date },
): Email {
  const lang = a.lang ?? "en";
  const t = translator(lang);
  const doc = a.documentName;
  const who = a.senderName ?? t("email.request.someone");
  const lines = [t("email.hello", { name: a.recipientName }), t("email.expiry.body", { who, doc, date: formatDateTime(a.expiresAt, lang) })];
  const action = { label: t("email.request.action"), url: a.signUrl };
  return build({ t, brand: a.brand }, t("email.expiry.subject", { doc }), t("email.expiry.title", { doc }), lines, action);
}

export function signingCompletedEmail(a: Localized & { recipientName: string; documentName: string }): Email {
  const t = translator(a.lang ?? "en");
  const doc = a.documentName;
  const lines = [t("email.hello", { name: a.recipientName }), t("email.completed.body")];
  return build({ t, brand: a.brand }, t("email.completed.subject", { doc }), t("email.completed.title", { doc }), lines);
}

export function documentVoidedEmail(a: Localized & { recipientName: string; documentName: string; reason: string }): Email {
  const t = translator(a.lang ?? "en");
  const doc = a.documentName;
  const lines = [t("email.hello", { name: a.recipientName }), t("email.voided.body"), t("email.reason", { reason: a.reason })];
  return build({ t, brand: a.brand }, t("email.voided.subject", { doc }), t("email.voided.title", { doc }), lines);
}

export function documentDeclinedEmail(
  a: Localized & { recipientName: string; documentName: string; signerName: string; signerEmail: string; reason: string },
): Email {
  const t = translator(a.lang ?? "en");
  const doc = a.documentName;
  const lines = [
    t("email.hello", { name: a.recipientName }),
    t("email.declined.body", { signer: a.signerName, email: a.signerEmail, doc }),
    t("email.reason", { reason: a.reason }),
  ];
  return build({ t, brand: a.brand }, t("email.declined.subject", { doc }), t("email.declined.title", { doc }), lines);
}

export function passcodeEmail(a: Localized & { recipientName: string; documentName: string; code: string; minutes: number }): Email {
  const t = translator(a.lang ?? "en");
  const doc = a.documentName;
  const lines = [
    t("email.hello", { name: a.recipientName }),
    t("email.passcode.body", { doc, code: a.code }),
    t("email.passcode.expiry", { minutes: a.minutes }),
  ];
  return build({ t, brand: a.brand }, t("email.passcode.subject", { code: a.code }), t("email.passcode.title", { code: a.code }), lines);
}

/** The SMS twin of passcodeEmail. */
export function passcodeSms(a: Localized & { documentName: string; code: string; minutes: number }): string {
  return translator(a.lang ?? "en")("sms.passcode", { code: a.code, doc: a.documentName, minutes: a.minutes });
}

export function passcodeAlertEmail(a: {
  senderName: string;
  recipientName: string;
  recipientEmail: string;
  documentName: string;
  failures: number;
  locked: boolean;
}): Email {
  const title = a.locked ? `${a.recipientName} is locked out of “${a.documentName}”` : `Wrong signing codes on “${a.documentName}”`;
  const lines = [
    `Hello ${a.senderName},`,
    `${a.recipientName} (${a.recipientEmail}) has entered ${a.failures} wrong passcodes for “${a.documentName}”.`,
    a.locked
      ? "They can no longer request or enter codes. If it really is them, resend the signing email from Quire: that lifts the lock."
      : "If this is not them, someone else may have their signing link.",
  ];
  // To the sender, who works in English in the dashboard.
  return build({ t: translator("en") }, title, title, lines);
}

// Branded emails: table layout and inline styles (what mail clients render), every user-supplied
// string escaped, and a plain-text twin of each.
export interface Email {
  subject: string;
  html: string;
  text: string;
}

function esc(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;font-size:15px;line-height:22px;color:#1f2937">${p}</p>`).join("");
  const button = action
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px"><tr><td style="background:#3457d5;border-radius:6px"><a href="${esc(action.url)}" style="display:inline-block;padding:12px 22px;color:#ffffff;font-weight:600;text-decoration:none;font-size:15px">${esc(action.label)}</a></td></tr></table><p style="margin:0 0 16px;font-size:12px;color:#6b7280">Or open this link: <a href="${esc(action.url)}" style="color:#2a45ad">${esc(action.url)}</a></p>`
    : "";
  return `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif"><table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;border:1px solid #e2e8f0"><tr><td style="padding:20px 28px;border-bottom:1px solid #e2e8f0;font-weight:700;font-size:18px;color:#1b2a66">Quire</td></tr><tr><td style="padding:28px"><h1 style="margin:0 0 16px;font-size:20px;color:#0f172a">${esc(title)}</h1>${body}${button}</td></tr><tr><td style="padding:16px 28px;border-top:1px solid #e2e8f0;font-size:12px;color:#94a3b8">Sent by Quire on behalf of the document's sender.</td></tr></table></td></tr></table></body></html>`;
}

function text(title: string, lines: string[], action?: { label: string; url: string }): string {
  return [title, "", ...lines, ...(action ? ["", `${action.label}: ${action.url}`] : []), "", "-- Sent by Quire on behalf of the document's sender."].join(
    "\n",
  );
}

/** Escaped, with the writer's line breaks kept. */
const paragraph = (value: string) => esc(value).replace(/\r?\n/g, "<br>");

const when = (d: Date) => d.toUTCString().replace(/:\d\d GMT$/, " UTC");

export interface SigningRequestArgs {
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
}

export function signingRequestEmail(a: SigningRequestArgs): Email {
  const who = a.senderName ?? "Someone";
  const title = a.reminder ? `Reminder: please sign “${a.documentName}”` : `Please sign “${a.documentName}”`;
  const lines = [
    `Hello ${a.recipientName},`,
    a.reminder ? `${who} is still waiting for your signature on “${a.documentName}”.` : `${who} asks you to sign “${a.documentName}”.`,
    ...(a.message ? [a.message] : []),
    ...(a.expiresAt ? [`Please sign before ${when(a.expiresAt)}.`] : []),
  ];
  const action = { label: "Review and sign", url: a.signUrl };
  const subject = a.subject ?? `${who} asks you to sign “${a.documentName}”`;
  return {
    subject: a.reminder ? `Reminder: ${subject}` : subject,
    html: layout(title, lines.map(paragraph), action),
    text: text(title, lines, action),
  };
}

/** A day (or so) before a document expires, to the signers whose turn it is. */
export function expiryWarningEmail(a: { recipientName: string; senderName?: string; documentName: string; signUrl: string; expiresAt: Date }): Email {
  const title = `“${a.documentName}” expires soon`;
  const lines = [
    `Hello ${a.recipientName},`,
    `${a.senderName ?? "Someone"} asked you to sign “${a.documentName}”. The request expires on ${when(a.expiresAt)}; after that it can no longer be signed.`,
  ];
  const action = { label: "Review and sign", url: a.signUrl };
  return { subject: `Expires soon: “${a.documentName}”`, html: layout(title, lines.map(esc), action), text: text(title, lines, action) };
}

export function signingCompletedEmail(a: { recipientName: string; documentName: string }): Email {
  const title = `“${a.documentName}” is signed`;
  const lines = [`Hello ${a.recipientName},`, "Everyone has signed. The completed document, with its certificate of completion, is attached."];
  return { subject: `Completed: “${a.documentName}”`, html: layout(title, lines.map(esc)), text: text(title, lines) };
}

export function documentVoidedEmail(a: { recipientName: string; documentName: string; reason: string }): Email {
  const title = `“${a.documentName}” was voided`;
  const lines = [`Hello ${a.recipientName},`, "The sender cancelled this signing request; there is nothing left to sign.", `Reason: ${a.reason}`];
  return { subject: `Voided: “${a.documentName}”`, html: layout(title, lines.map(esc)), text: text(title, lines) };
}

export function documentDeclinedEmail(a: { recipientName: string; documentName: string; signerName: string; signerEmail: string; reason: string }): Email {
  const title = `“${a.documentName}” was declined`;
  const lines = [
    `Hello ${a.recipientName},`,
    `${a.signerName} (${a.signerEmail}) declined to sign “${a.documentName}”. The signing request is closed; nobody else will be asked to sign it.`,
    `Reason: ${a.reason}`,
  ];
  return { subject: `Declined: “${a.documentName}”`, html: layout(title, lines.map(esc)), text: text(title, lines) };
}

export function passcodeEmail(a: { recipientName: string; documentName: string; code: string; minutes: number }): Email {
  const title = `Your signing code: ${a.code}`;
  const lines = [
    `Hello ${a.recipientName},`,
    `Enter this code to open “${a.documentName}” for signing: ${a.code}`,
    `It works for ${a.minutes} minutes. If you did not ask for it, ignore this email.`,
  ];
  return { subject: `${a.code} is your signing code`, html: layout(title, lines.map(esc)), text: text(title, lines) };
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
  return { subject: title, html: layout(title, lines.map(esc)), text: text(title, lines) };
}

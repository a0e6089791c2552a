// SMS for signing passcodes, per organization: a Twilio-compatible HTTP API (POST
// {base}/2010-04-01/Accounts/{sid}/Messages.json, basic auth, form To/From/Body), or the development
// outbox. Every message is also recorded in the outbox, like email, so the dashboard shows it.
import { open } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";

export interface SmsMessage {
  orgId: string;
  to: string;
  body: string;
  documentId?: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/** `smsApiBaseUrl` of a provider that only records messages (development, tests). */
export const OUTBOX_SMS_PROVIDER = "outbox";

function escapeHtml(v: string): string {
  return v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function smsSenderFor(db: Db, instanceSecret: string) {
  return async (orgId: string): Promise<SmsSender> => {
    const s = await db.embeddedSigningSettings.findUnique({ where: { orgId } });
    const http =
      s?.smsApiBaseUrl && s.smsApiBaseUrl !== OUTBOX_SMS_PROVIDER && s.smsAccountSid && s.smsAuthTokenEnc && s.smsFrom
        ? { base: s.smsApiBaseUrl.replace(/\/+$/, ""), sid: s.smsAccountSid, from: s.smsFrom, token: open(instanceSecret, s.smsAuthTokenEnc) }
        : null;
    return {
      async send(m) {
        // No provider saved (removed since the code was asked for): nothing may pretend to send.
        if (!s?.smsApiBaseUrl) throw new Error("No SMS provider is configured for this organization");
        const row = await db.outboxMessage.create({
          data: {
            orgId: m.orgId,
            kind: "sms_passcode",
            to: m.to,
            cc: [],
            fromAddress: http?.from ?? "Quire SMS",
            subject: "SMS",
            html: `<p>${escapeHtml(m.body)}</p>`,
            text: m.body,
            documentId: m.documentId ?? null,
            transport: http ? "sms" : "outbox",
            sentAt: http ? null : new Date(),
          },
        });
        if (!http) return;
        try {
          const res = await fetch(`${http.base}/2010-04-01/Accounts/${encodeURIComponent(http.sid)}/Messages.json`, {
            method: "POST",
            headers: {
              authorization: `Basic ${Buffer.from(`${http.sid}:${http.token}`).toString("base64")}`,
              "content-type": "application/x-www-form-urlencoded",
            },
            body: new URLSearchParams({ To: m.to, From: http.from, Body: m.body }),
            redirect: "error",
            signal: AbortSignal.timeout(10_000),
          });
          if (!res.ok) throw new Error(`SMS provider answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
          await db.outboxMessage.update({ where: { id: row.id }, data: { sentAt: new Date() } });
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          log.error({ outboxId: row.id, error: message }, "SMS could not be sent");
          await db.outboxMessage.update({ where: { id: row.id }, data: { error: message.slice(0, 1000) } });
          throw err;
        }
      },
    };
  };
}

// Wires signing URLs and passcodes to the configured adapters.
import { getConfig } from "@/lib/config";
import { sql } from "@/lib/db/sql";
import { esignDeps } from "@/lib/esign/service";
import type { PasscodeDeps } from "@/lib/esign/passcodes";
import { passcodeAlertEmail, passcodeEmail } from "@/lib/mail/templates";
import { smsSenderFor } from "@/lib/sms/sms";

export async function signingUrlDeps() {
  return { ...(await esignDeps()), sql: await sql(), instanceSecret: getConfig().nextAuthSecret };
}

export async function passcodeDeps(): Promise<PasscodeDeps> {
  const base = await esignDeps();
  const secret = getConfig().nextAuthSecret;
  return {
    db: base.db,
    sendMail: base.sendMail,
    secret: `${secret}:passcodes`,
    baseUrl: base.baseUrl,
    sms: smsSenderFor(base.db, secret),
    emails: { passcode: passcodeEmail, alert: passcodeAlertEmail },
  };
}

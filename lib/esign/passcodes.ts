// Signing passcodes (docs/contract.md "Passcodes"): six digits, valid 10 minutes; a new code at most every 30 s
// and five an hour; five wrong entries spend a code; 20 wrong in total lock the signer until the
// sender resends (with an alert to the sender at 5 and at 20). Codes are stored as keyed hashes.
import crypto from "node:crypto";
import { now } from "@/lib/clock";
import { appendAudit, lockForAppend } from "@/lib/esign/audit";
import type { EsignDeps, MailMessage } from "@/lib/esign/types";
import { recipientStatuses } from "@/lib/esign/recipients";
import { e164, smsPasscodesThisMonth } from "@/lib/esign/identity";
import { accessOf, issueSession, loadByToken, maskDestination, SignerError } from "@/lib/esign/signer-access";
import type { SmsSender } from "@/lib/sms/sms";
import { loadPlan } from "@/lib/orgs/plan";
import { type Language, languageOr } from "@/lib/i18n";
import { type MailBrand, passcodeSms } from "@/lib/mail/templates";
import { mailBrand } from "@/lib/orgs/branding";
import type { Prisma } from "@/lib/generated/prisma/client";

export const PASSCODE = { minutes: 10, minIntervalSeconds: 30, perHour: 5, wrongPerCode: 5, wrongBeforeLock: 20, alertAt: 5 } as const;

export interface PasscodeDeps extends Pick<EsignDeps, "db" | "sendMail"> {
  secret: string;
  /** Where the logo in emails is loaded from. */
  baseUrl: string;
  sms: (orgId: string) => Promise<SmsSender>;
  emails: {
    passcode: (a: { recipientName: string; documentName: string; code: string; minutes: number; lang?: Language; brand?: MailBrand }) => {
      subject: string;
      html: string;
      text: string;
    };
    alert: (a: { senderName: string; recipientName: string; recipientEmail: string; documentName: string; failures: number; locked: boolean }) => {
      subject: string;
      html: string;
      text: string;
    };
  };
}

function codeHash(secret: string, recipientId: string, code: string): string {
  return crypto.createHmac("sha256", secret).update(`${recipientId}:${code}`).digest("hex");
}

function lockedError(): SignerError {
  return new SignerError("locked", "Too many wrong passcodes: ask the sender to send the signing email again", "Locked");
}

/** The signer behind a link whose turn it is and who must pass a passcode. */
async function passcodeSigner(deps: PasscodeDeps, token: string) {
  const loaded = await loadByToken(deps.db, token);
  const { recipient } = loaded;
  const doc = recipient.document;
  const mine = recipientStatuses(doc.status, doc.recipients).find((r) => r.id === recipient.id)!;
  if (recipient.signedAt) throw new SignerError("conflict", "You have already signed this document", "AlreadySigned");
  if (doc.status !== "sent" || (doc.expiresAt && doc.expiresAt <= now()))
    throw new SignerError("conflict", "This document cannot be signed", "DocumentNotSignable");
  if (mine.status !== "ready") throw new SignerError("conflict", "It is not your turn yet: an earlier signer has not signed", "NotYourTurn");
  const access = await accessOf(deps, loaded, null);
  if (access.requirement.kind !== "otp") throw new SignerError("conflict", "This link needs no passcode", "PasscodeNotRequired");
  return { recipient, doc, channel: access.requirement.channel };
}

/** Serializes passcode work per signer (row lock), so limits and counters hold under concurrent calls. */
async function lockSigner(tx: Prisma.TransactionClient, recipientId: string) {
  await tx.$queryRaw`SELECT id FROM signing_recipient WHERE id = ${recipientId}::uuid FOR UPDATE`;
  return tx.signingRecipient.findUniqueOrThrow({ where: { id: recipientId } });
}

export async function sendPasscode(deps: PasscodeDeps, token: string, meta: { ip?: string | null; userAgent?: string | null }) {
  const { recipient, doc, channel } = await passcodeSigner(deps, token);
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
  const at = now();
  const expiresAt = new Date(at.getTime() + PASSCODE.minutes * 60_000);
  const passcode = await deps.db.$transaction(async (tx) => {
    if ((await lockSigner(tx, recipient.id)).lockedAt) throw lockedError();
    const recent = await tx.signerPasscode.findMany({
      where: { recipientId: recipient.id, createdOn: { gt: new Date(at.getTime() - 3600_000) } },
      orderBy: { createdOn: "desc" },
    });
    const waitMs = recent[0] ? recent[0].createdOn.getTime() + PASSCODE.minIntervalSeconds * 1000 - at.getTime() : 0;
    if (waitMs > 0)
      throw new SignerError("rate_limited", `Wait ${Math.ceil(waitMs / 1000)} seconds before asking for another code`, "TooSoon", {
        params: { seconds: Math.ceil(waitMs / 1000) },
      });
    if (recent.length >= PASSCODE.perHour) throw new SignerError("rate_limited", "Five codes were sent in the last hour; try again later", "HourlyLimit");
    if (channel === "sms") {
      const plan = await loadPlan(tx, doc.orgId);
      if ((await smsPasscodesThisMonth(tx, doc.orgId, at)) >= plan.smsAllowance)
        throw new SignerError("payment_required", "The sender's SMS allowance is used up; ask them for another way to sign", "SmsOtpLimitExceeded");
    }
    return tx.signerPasscode.create({
      data: { recipientId: recipient.id, channel, codeHash: codeHash(deps.secret, recipient.id, code), expiresAt, createdOn: at },
    });
  });
  try {
    if (channel === "sms") {
      const sms = await deps.sms(doc.orgId);
      await sms.send({
        orgId: doc.orgId,
        to: e164(recipient.phone!),
        body: passcodeSms({ code, documentName: doc.name, minutes: PASSCODE.minutes, lang: languageOr(doc.language) }),
        documentId: doc.id,
      });
    } else {
      const mail = deps.emails.passcode({
        recipientName: recipient.name,
        documentName: doc.name,
        code,
        minutes: PASSCODE.minutes,
        lang: languageOr(doc.language),
        brand: await mailBrand(deps.db, doc.orgId, deps.baseUrl),
      });
      await deps.sendMail({
        orgId: doc.orgId,
        kind: "signing_passcode",
        to: recipient.email,
        fromName: doc.senderName ?? undefined,
        ...mail,
        documentId: doc.id,
      });
    }
  } catch {
    // A code that never left counts against no limit (nor the SMS allowance); the signer may retry at once.
    await deps.db.signerPasscode.delete({ where: { id: passcode.id } }).catch(() => {});
    throw new SignerError("unavailable", `The code could not be sent by ${channel === "sms" ? "SMS" : "email"}; try again in a moment`, "PasscodeNotSent", {
      key: channel === "sms" ? "PasscodeNotSentSms" : "PasscodeNotSent",
    });
  }
  await deps.db.$transaction((tx) =>
    appendAudit(tx, doc.id, { actionType: "passcode_sent", recipientId: recipient.id, ip: meta.ip, userAgent: meta.userAgent, details: { channel } }),
  );
  return { channel, destination: maskDestination(channel, recipient), expiresAt: expiresAt.toISOString(), retryAfterSeconds: PASSCODE.minIntervalSeconds };
}

type VerifyOutcome = { ok: true } | { ok: false; failures: number; locked: boolean; left: number };

export async function verifyPasscode(deps: PasscodeDeps, token: string, code: string, meta: { ip?: string | null; userAgent?: string | null }) {
  const { recipient, doc, channel } = await passcodeSigner(deps, token);
  const at = now();
  const outcome = await deps.db.$transaction(async (tx): Promise<VerifyOutcome> => {
    await lockForAppend(tx, doc.id); // the document before its signer, as a signature takes them
    if ((await lockSigner(tx, recipient.id)).lockedAt) throw lockedError();
    // Only the newest code counts: asking for a new one retires the older ones.
    const latest = await tx.signerPasscode.findFirst({ where: { recipientId: recipient.id }, orderBy: { createdOn: "desc" } });
    if (!latest || latest.usedAt) throw new SignerError("validation", "Ask for a code first", "NoPasscode");
    if (latest.expiresAt <= at) throw new SignerError("validation", "This code has expired; ask for a new one", "PasscodeExpired");
    if (latest.wrongAttempts >= PASSCODE.wrongPerCode)
      throw new SignerError("validation", "Too many wrong entries for this code; ask for a new one", "PasscodeSpent");

    const given = Buffer.from(codeHash(deps.secret, recipient.id, /^\d{6}$/.test(code) ? code : "x"), "hex");
    if (crypto.timingSafeEqual(given, Buffer.from(latest.codeHash, "hex"))) {
      await tx.signerPasscode.update({ where: { id: latest.id }, data: { usedAt: at } });
      await appendAudit(tx, doc.id, {
        actionType: "identity_verified",
        recipientId: recipient.id,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: { method: `${channel}_otp` },
      });
      return { ok: true };
    }
    const spent = await tx.signerPasscode.update({ where: { id: latest.id }, data: { wrongAttempts: { increment: 1 } } });
    const r = await tx.signingRecipient.update({ where: { id: recipient.id }, data: { passcodeFailures: { increment: 1 } } });
    const locked = r.passcodeFailures >= PASSCODE.wrongBeforeLock;
    if (locked) await tx.signingRecipient.update({ where: { id: recipient.id }, data: { lockedAt: at } });
    await appendAudit(tx, doc.id, {
      actionType: "passcode_failed",
      recipientId: recipient.id,
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: { failures: r.passcodeFailures, locked },
    });
    return { ok: false, failures: r.passcodeFailures, locked, left: PASSCODE.wrongPerCode - spent.wrongAttempts };
  });
  if (outcome.ok) return { session: await issueSession(deps.db, recipient.id, `${channel}_otp`) };

  const { failures, locked, left } = outcome;
  if ((failures === PASSCODE.alertAt || failures === PASSCODE.wrongBeforeLock) && doc.senderEmail) {
    const mail = deps.emails.alert({
      senderName: doc.senderName ?? doc.senderEmail,
      recipientName: recipient.name,
      recipientEmail: recipient.email,
      documentName: doc.name,
      failures,
      locked,
    });
    await deps.sendMail({
      orgId: doc.orgId,
      kind: locked ? "passcode_lockout_alert" : "passcode_alert",
      to: doc.senderEmail,
      ...mail,
      documentId: doc.id,
    } satisfies MailMessage);
  }
  if (locked) throw lockedError();
  throw new SignerError(
    "validation",
    left > 0 ? `That code is not right; ${left} attempt(s) left for this code` : "That code is not right; ask for a new one",
    "WrongPasscode",
    left > 0 ? { params: { left } } : { key: "WrongPasscodeNoneLeft" },
  );
}

// Automatic reminders and expiry warnings (docs/contract.md "Signing documents"), a durable schedule
// kept in due-at columns: a signer's nextReminderAt (set whenever a signing email goes to them) and a
// document's expiryWarningAt (set when it is sent). Every instance polls for what is due.
//
// Exactly once without a lease: one transaction moves the due time on with a compare-and-set on its
// old value AND records the email in the outbox. Of concurrent instances only one sees its update
// match; a crash before the commit leaves the job due, after it leaves the email recorded. Only the
// SMTP send of an already recorded message happens after the commit (as for the completion emails).
import { z } from "zod";
import { now } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { needsSingleUseUrl, recipientStatuses } from "@/lib/esign/recipients";
import type { SigningDeps } from "@/lib/esign/signing";
import { signingLink, signingLinkToken } from "@/lib/esign/tokens";
import { log } from "@/lib/log";
import { kickPoller, startPoller, stopPoller } from "@/lib/server/poller";
import { languageOr } from "@/lib/i18n";
import { mailBrand } from "@/lib/orgs/branding";
import { signingRequestMail } from "@/lib/esign/signing-request-mail";
import { documentMail } from "@/lib/esign/document-mail";

const DAY_MS = 24 * 3600_000;
/** How long before expiresAt the warning goes out. */
export const EXPIRY_WARNING_MS = DAY_MS;

export type ReminderDeps = Pick<SigningDeps, "db" | "emails" | "mail" | "baseUrl" | "linkSecret">;

/** The organization's default reminderDays for sends that give none (0: no automatic reminders). */
export const reminderDefaultInput = z.object({
  reminderDays: z.number({ message: "must be a whole number of days" }).int("must be a whole number of days").min(0).max(365),
});

export async function setReminderDefault(db: Db, orgId: string, input: z.infer<typeof reminderDefaultInput>): Promise<void> {
  await db.organization.update({ where: { id: orgId }, data: { signingReminderDays: input.reminderDays } });
}

/** When a just-sent document's expiry warning is due: a day before expiresAt, if that is still ahead and links are emailed. */
export function expiryWarningDue(doc: { expiresAt: Date | null; sendEmail: boolean }): Date | null {
  if (!doc.expiresAt || !doc.sendEmail) return null;
  const at = new Date(doc.expiresAt.getTime() - EXPIRY_WARNING_MS);
  return at > now() ? at : null;
}

/** The signers just emailed their link: their next reminder is reminderDays from now (none when 0). */
export async function scheduleReminders(db: Db, doc: { id: string; reminderDays: number }, recipientIds: string[]): Promise<void> {
  if (doc.reminderDays <= 0 || recipientIds.length === 0) return;
  await db.signingRecipient.updateMany({
    where: { id: { in: recipientIds }, documentId: doc.id, signedAt: null },
    data: { nextReminderAt: new Date(now().getTime() + doc.reminderDays * DAY_MS) },
  });
  kickPoller("signing reminders");
}

/** Documents whose signers may still be emailed: sent, not expired, links emailed. */
const remindable = (at: Date) => ({ status: "sent" as const, sendEmail: true, OR: [{ expiresAt: null }, { expiresAt: { gt: at } }] });

async function remind(deps: ReminderDeps, recipientId: string, dueAt: Date): Promise<boolean> {
  const at = now();
  const r = await deps.db.signingRecipient.findUnique({
    where: { id: recipientId },
    include: { document: { include: { recipients: true } } },
  });
  if (!r) return false;
  const doc = r.document;
  const theirTurn =
    doc.status === "sent" &&
    doc.sendEmail &&
    doc.reminderDays > 0 &&
    !(doc.expiresAt && doc.expiresAt <= at) &&
    !needsSingleUseUrl(r.identityVerification) &&
    recipientStatuses(doc.status, doc.recipients).some((x) => x.id === r.id && x.status === "ready");
  const brand = theirTurn ? await mailBrand(deps.db, doc.orgId, deps.baseUrl) : undefined;
  const ids = await deps.db.$transaction(async (tx) => {
    // The claim: only the instance whose update still finds this due time sends this reminder.
    const { count } = await tx.signingRecipient.updateMany({
      where: { id: r.id, nextReminderAt: dueAt, signedAt: null, document: remindable(at) },
      data: { nextReminderAt: theirTurn ? new Date(at.getTime() + doc.reminderDays * DAY_MS) : null },
    });
    if (count === 0 || !theirTurn) return [];
    const mail = signingRequestMail(deps, doc, r, brand, true);
    const id = await deps.mail.queue(tx, documentMail(doc, "signing_reminder", r.email, mail));
    return [id];
  });
  // Not a claim that found nothing to do: clear it quietly (a later signer is scheduled when emailed).
  if (ids.length === 0) return false;
  await deps.mail.deliverQueued(ids);
  return true;
}

async function warnExpiry(deps: ReminderDeps, documentId: string, dueAt: Date): Promise<boolean> {
  const at = now();
  const doc = await deps.db.signingDocument.findUnique({ where: { id: documentId }, include: { recipients: true } });
  if (!doc?.expiresAt) return false;
  const expiresAt = doc.expiresAt;
  const targets = recipientStatuses(doc.status, doc.recipients).filter((r) => r.status === "ready" && !needsSingleUseUrl(r.identityVerification));
  const brand = await mailBrand(deps.db, doc.orgId, deps.baseUrl);
  const ids = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.signingDocument.updateMany({
      where: { id: documentId, expiryWarningAt: dueAt, ...remindable(at) },
      data: { expiryWarningAt: null },
    });
    if (count === 0) return [];
    const queued: string[] = [];
    for (const r of targets) {
      const mail = deps.emails.expiryWarning({
        recipientName: r.name,
        senderName: doc.senderName ?? undefined,
        documentName: doc.name,
        signUrl: signingLink(deps.baseUrl, signingLinkToken(deps.linkSecret, r.id)),
        expiresAt,
        lang: languageOr(doc.language),
        brand,
      });
      queued.push(await deps.mail.queue(tx, documentMail(doc, "signing_expiry_warning", r.email, mail)));
    }
    return queued;
  });
  await deps.mail.deliverQueued(ids);
  return ids.length > 0;
}

/** One pass: every reminder and expiry warning due by the service clock; returns how many were handled. */
export async function runReminderPass(deps: ReminderDeps, limit = 25): Promise<number> {
  const at = now();
  const [reminders, warnings] = await Promise.all([
    deps.db.signingRecipient.findMany({
      where: { nextReminderAt: { lte: at } },
      orderBy: { nextReminderAt: "asc" },
      take: limit,
      select: { id: true, nextReminderAt: true },
    }),
    deps.db.signingDocument.findMany({
      where: { expiryWarningAt: { lte: at } },
      orderBy: { expiryWarningAt: "asc" },
      take: limit,
      select: { id: true, expiryWarningAt: true },
    }),
  ]);
  let handled = 0;
  for (const r of reminders) {
    await remind(deps, r.id, r.nextReminderAt!);
    handled++;
  }
  for (const d of warnings) {
    await warnExpiry(deps, d.id, d.expiryWarningAt!);
    handled++;
  }
  // A due time that stayed (a document that is no longer sent) would be found again: clear those.
  const stale = await deps.db.signingRecipient.updateMany({
    where: { nextReminderAt: { lte: at }, OR: [{ signedAt: { not: null } }, { document: { NOT: remindable(at) } }] },
    data: { nextReminderAt: null },
  });
  const staleDocs = await deps.db.signingDocument.updateMany({ where: { expiryWarningAt: { lte: at }, NOT: remindable(at) }, data: { expiryWarningAt: null } });
  if (stale.count + staleDocs.count > 0) log.debug({ reminders: stale.count, warnings: staleDocs.count }, "cleared reminders no longer due");
  return handled;
}

/** Every instance polls (the claims decide who sends). Due times are days apart: idle, it looks once a minute. */
export function startReminderWorker(getDeps: () => Promise<ReminderDeps>, intervalMs = 1_000): void {
  startPoller({ name: "signing reminders", pass: async () => runReminderPass(await getDeps()), busyMs: intervalMs, idleMs: 60_000 });
}

export async function stopReminderWorker(): Promise<void> {
  await stopPoller("signing reminders");
}

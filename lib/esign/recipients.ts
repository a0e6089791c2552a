// The recipients of a signing document: the checks a prepare request passes (duplicates, identity
// verification against the organization's settings, return URL, expiry) and each signer's status.
import { now } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import { invalid } from "@/lib/esign/errors";
import { loadSigningSettings, parseIdentityBlock, resolveIdentity, smsPasscodesThisMonth } from "@/lib/esign/identity";
import type { RecipientInput } from "@/lib/esign/schemas";
import type { DocumentStatus } from "@/lib/generated/prisma/client";
import { loadPlan } from "@/lib/orgs/plan";

export function checkRecipients(recipients: RecipientInput[]): void {
  const externalIds = new Set<string>();
  const emails = new Set<string>();
  for (const [i, r] of recipients.entries()) {
    parseIdentityBlock(r.identityVerification, `recipients.${i}`);
    if (r.externalId) {
      if (externalIds.has(r.externalId)) throw invalid(`Two recipients share the externalId "${r.externalId}"`, "DuplicateExternalId", "recipients");
      externalIds.add(r.externalId);
    }
    const email = r.email.toLowerCase();
    if (emails.has(email)) throw invalid(`${r.email} is listed twice; each recipient signs once`, "DuplicateRecipient", "recipients");
    emails.add(email);
  }
}

/** Resolves every recipient's verification against the organization's current settings and plan. */
export async function checkIdentities(
  db: Db,
  orgId: string,
  recipients: { identityVerification: unknown; phone: string | null }[],
  automated: boolean,
): Promise<void> {
  const [settings, plan] = await Promise.all([loadSigningSettings(db, orgId), loadPlan(db, orgId)]);
  const ctx = { settings, plan, automated, smsUsed: () => smsPasscodesThisMonth(db, orgId, now()) };
  for (const [i, r] of recipients.entries()) await resolveIdentity(ctx, r, `recipients.${i}`);
}

/** external_idv and override signers sign only through a single-use URL, never an emailed link. */
export function needsSingleUseUrl(identityVerification: unknown): boolean {
  const mode = (identityVerification as { mode?: string } | null)?.mode;
  return mode === "external_idv" || mode === "override";
}

export function checkReturnUrl(url: string | undefined): void {
  if (url === undefined) return;
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // reported below
  }
  if (parsed?.protocol !== "https:") throw invalid("returnUrl must be an https:// URL", "InvalidReturnUrl", "returnUrl");
}

export function checkExpiresAt(expiresAt: string | undefined): void {
  // A request that is expired on arrival could never be signed; say so now, not on the signer's page.
  if (expiresAt !== undefined && new Date(expiresAt).getTime() <= now().getTime())
    throw invalid("expiresAt must be in the future", "ExpiresAtInPast", "expiresAt");
}

export type RecipientStatus = "ready" | "pending" | "completed";

export type RecipientRow = { id: string; name: string; email: string; externalId: string | null; signingOrder: number; signedAt: Date | null };

type Turn = Pick<RecipientRow, "signingOrder"> & { signedAt: unknown };

/** The signing order whose turn it is: the lowest of the recipients yet to sign. */
function openSigningOrder(recipients: readonly Turn[]): number {
  let open = Infinity;
  for (const r of recipients) if (!r.signedAt && r.signingOrder < open) open = r.signingOrder;
  return open;
}

/** A recipient's status on a document in `status`; `signedAt` only says whether they signed (a Date, or a listed page's ISO text). */
function statusOf(status: DocumentStatus, open: number, r: Turn): RecipientStatus {
  return r.signedAt ? "completed" : status === "sent" && r.signingOrder === open ? "ready" : "pending";
}

export function recipientStatuses<R extends Turn>(status: DocumentStatus, recipients: R[]): (R & { status: RecipientStatus })[] {
  const open = openSigningOrder(recipients);
  return recipients.map((r) => ({ ...r, status: statusOf(status, open, r) }));
}

/**
 * Each recipient as every reply about its document lists them (the prepare reply, the document, the
 * document list), with `more` of its own fields. Written field by field, not by copying the recipient
 * (an object spread cost about half a microsecond, and a page of 100 documents lists hundreds).
 */
export function recipientSummaries<R extends Omit<RecipientRow, "signedAt"> & Turn, M extends object = object>(
  status: DocumentStatus,
  recipients: readonly R[],
  more: (r: R) => M = () => ({}) as M,
) {
  const open = openSigningOrder(recipients);
  return recipients.map((r) =>
    Object.assign(
      { id: r.id, name: r.name, email: r.email, externalId: r.externalId, signingOrder: r.signingOrder, status: statusOf(status, open, r) },
      more(r),
    ),
  );
}

// Who may act on a signing link. A link token names a recipient: either the reusable token (emailed
// links, otp/none signing URLs) or a single-use grant (external_idv, override). Where a check
// applies, the signer also holds a session token: issued when a passcode is verified or when a
// single-use URL is redeemed, and sent by the signing page with every call (no cookies, so it also
// works inside third-party frames).
import crypto from "node:crypto";
import { now } from "@/lib/clock";
import type { Db } from "@/lib/db/client";
import type { EsignDeps } from "@/lib/esign/types";
import { loadSigningSettings, parseIdentityBlock, type Channel } from "@/lib/esign/identity";
import { FIELD_READING_ORDER } from "@/lib/esign/field-order";
import { hashToken } from "@/lib/esign/tokens";
import { QuireError } from "@/lib/errors";

const SESSION_HOURS = 4;

/**
 * Signer-page failures: `{ error, code }` with lowercase codes (docs/contract.md "Error bodies").
 * `localized` names the catalogue message (sign.errors.<key>, default the code) and its values, so the
 * signing page shows it in the signer's language (lib/i18n signerErrorText).
 */
export class SignerError extends QuireError {
  readonly kind;
  readonly localized?: { key?: string; params?: Record<string, string | number> };
  constructor(
    kind: "not_found" | "conflict" | "gone" | "validation" | "unauthenticated" | "forbidden" | "locked" | "rate_limited" | "payment_required" | "unavailable",
    message: string,
    code: string,
    localized?: { key?: string; params?: Record<string, string | number> },
  ) {
    super(message, code);
    this.kind = kind;
    this.localized = localized;
  }
}

/** The signing page's language for a link, from the document alone (no access check, no audit entry): for the tab title. */
export async function documentLanguageByToken(db: Db, token: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const hash = hashToken(token);
  const select = { document: { select: { language: true } } };
  const recipient =
    (await db.signingRecipient.findUnique({ where: { accessTokenHash: hash }, select })) ??
    (await db.signingUrlGrant.findUnique({ where: { tokenHash: hash }, select: { recipient: { select } } }))?.recipient;
  return recipient?.document.language ?? null;
}

/** The error a signer gets for a document that is no longer signable, named by the state found under the lock. */
export function notSignable(status: string, expired: boolean): SignerError {
  if (status === "voided") return new SignerError("gone", "This document was voided by its sender", "DocumentVoided");
  if (status === "declined") return new SignerError("gone", "This document was declined by a signer; nothing is left to sign", "DocumentDeclined");
  if (expired) return new SignerError("gone", "This signing request has expired", "DocumentExpired");
  return new SignerError("conflict", "This document cannot be signed", "DocumentNotSignable");
}

/** A document row read under its lock: anything but sent and unexpired ends a signature or a decline. */
export function requireSignable(locked: { status: string; expiresAt: Date | null } | undefined): void {
  const expired = Boolean(locked?.expiresAt && locked.expiresAt <= now());
  if (locked?.status !== "sent" || expired) throw notSignable(locked?.status ?? "draft", expired);
}

export type Requirement = { kind: "none" } | { kind: "otp"; channel: Channel } | { kind: "single_use"; mode: "external_idv" | "override" };

export async function loadByToken(db: Db, token: string) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new SignerError("not_found", "This signing link is not valid", "LinkNotFound");
  const include = {
    document: {
      include: { recipients: { orderBy: [{ signingOrder: "asc" as const }, { createdOn: "asc" as const }] }, fields: { orderBy: FIELD_READING_ORDER } },
    },
  };
  const hash = hashToken(token);
  const recipient = await db.signingRecipient.findUnique({ where: { accessTokenHash: hash }, include });
  if (recipient) return { recipient, grant: null };
  const grant = await db.signingUrlGrant.findUnique({ where: { tokenHash: hash }, include: { recipient: { include } } });
  if (grant) return { recipient: grant.recipient, grant };
  throw new SignerError("not_found", "This signing link is not valid", "LinkNotFound");
}

/** What this recipient must pass before seeing or signing the document. */
export async function requirementFor(
  db: Db,
  recipient: { identityVerification: unknown; document: { orgId: string; automated: boolean } },
): Promise<Requirement> {
  let block = null;
  try {
    block = parseIdentityBlock(recipient.identityVerification, "recipient");
  } catch {
    // Validated when prepared; a stored block that no longer parses is treated as email otp below.
    return { kind: "otp", channel: "email" };
  }
  if (block?.mode === "external_idv" || block?.mode === "override") return { kind: "single_use", mode: block.mode };
  const settings = await loadSigningSettings(db, recipient.document.orgId);
  const orgDefault = settings.enabled && settings.defaultChannel !== "none" ? settings.defaultChannel : null;
  if (block?.mode === "otp") return { kind: "otp", channel: block.channel ?? orgDefault ?? "email" };
  if (orgDefault && !recipient.document.automated) return { kind: "otp", channel: orgDefault };
  return { kind: "none" };
}

export async function issueSession(db: Db, recipientId: string, via: string): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  await db.signerSession.create({ data: { recipientId, tokenHash: hashToken(token), via, expiresAt: new Date(now().getTime() + SESSION_HOURS * 3600_000) } });
  return token;
}

async function validSession(db: Db, recipientId: string, sessionToken: string | null | undefined) {
  if (!sessionToken || sessionToken.length > 100) return null;
  const session = await db.signerSession.findUnique({ where: { tokenHash: hashToken(sessionToken) } });
  if (!session || session.recipientId !== recipientId || session.expiresAt <= now()) return null;
  return session;
}

export interface Access {
  verified: boolean;
  requirement: Requirement;
  /** How the signer was verified, for the audit trail and the certificate page. */
  via: string;
}

/** Whether the caller holding `token` (and maybe a session) has passed this recipient's checks. */
export async function accessOf(
  deps: Pick<EsignDeps, "db">,
  loaded: Awaited<ReturnType<typeof loadByToken>>,
  sessionToken: string | null | undefined,
): Promise<Access> {
  const requirement = await requirementFor(deps.db, loaded.recipient);
  // A redeemed single-use URL carries its own session; its reusable sibling link never suffices.
  if (requirement.kind === "single_use" || loaded.grant) {
    const session = await validSession(deps.db, loaded.recipient.id, sessionToken);
    return { verified: Boolean(session && loaded.grant), requirement, via: session?.via ?? requirement.kind };
  }
  if (requirement.kind === "none") return { verified: true, requirement, via: "none" };
  const session = await validSession(deps.db, loaded.recipient.id, sessionToken);
  return { verified: Boolean(session), requirement, via: session?.via ?? `${requirement.channel}_otp` };
}

export function requireVerified(access: Access): void {
  if (access.verified) return;
  if (access.requirement.kind === "single_use")
    throw new SignerError(
      "forbidden",
      "Open this document from the app that sent you here: this signer signs through a one-time link",
      "SingleUseLinkRequired",
    );
  throw new SignerError("unauthenticated", "Enter the passcode we sent you first", "VerificationRequired");
}

/** Redeems a single-use URL: exactly one caller wins, even under concurrent opens. */
export async function redeemGrant(db: Db, token: string): Promise<{ session: string; linkToken: string }> {
  const hash = hashToken(token);
  const at = now();
  const won = await db.signingUrlGrant.updateMany({ where: { tokenHash: hash, consumedAt: null, expiresAt: { gt: at } }, data: { consumedAt: at } });
  if (won.count !== 1) throw new SignerError("gone", "This signing link was already used or has expired; ask for a new one", "SigningUrlNotRedeemable");
  const grant = await db.signingUrlGrant.findUniqueOrThrow({ where: { tokenHash: hash } });
  return { session: await issueSession(db, grant.recipientId, grant.mode), linkToken: token };
}

export function maskDestination(channel: Channel, recipient: { email: string; phone: string | null }): string {
  if (channel === "sms") {
    const phone = recipient.phone ?? "";
    return phone.length > 4 ? `${"•".repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}` : phone;
  }
  const [user, domain] = recipient.email.split("@");
  return `${user.slice(0, 2)}${"•".repeat(Math.max(1, user.length - 2))}@${domain}`;
}

// Who may frame the signing page (docs/contract.md "Embedded signing": allowedFrameAncestors; an empty list denies
// all framing) and which embedding page may receive the completion message.
import type { Db } from "@/lib/db/client";
import { hashToken } from "@/lib/esign/tokens";

export function frameAncestorsHeader(origins: string[]): string {
  return `frame-ancestors ${origins.length ? origins.join(" ") : "'none'"}`;
}

/** The org's allow-list for a signing link's token (reusable or single-use), or none when unknown. */
export async function frameAncestorsForToken(db: Db, token: string): Promise<string[]> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return [];
  const hash = hashToken(token);
  const recipient =
    (await db.signingRecipient.findUnique({ where: { accessTokenHash: hash }, select: { document: { select: { orgId: true } } } })) ??
    (await db.signingUrlGrant.findUnique({ where: { tokenHash: hash }, select: { recipient: { select: { document: { select: { orgId: true } } } } } }))
      ?.recipient;
  if (!recipient) return [];
  const row = await db.embeddedSigningSettings.findUnique({ where: { orgId: recipient.document.orgId }, select: { allowedFrameAncestors: true } });
  return row?.allowedFrameAncestors ?? [];
}

/**
 * The embedding page's origin, when the browser named it (Referer of the framed request) and the
 * organization allows it. The page posts its completion message to this origin only.
 */
export function embeddingOrigin(referer: string | null, allowed: string[], ownOrigin: string): string | null {
  if (!referer) return null;
  let origin: string;
  try {
    origin = new URL(referer).origin;
  } catch {
    return null;
  }
  return origin !== ownOrigin && allowed.includes(origin) ? origin : null;
}

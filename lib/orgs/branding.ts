// An organization's branding (issue 19 item 6): logo, accent colour, sender display name and email
// footer, shown on the signing page, in its emails and on the certificate page. Administrators set it
// (lib/dashboard/actions/settings.ts); everyone who signs sees it.
import crypto from "node:crypto";
import { imageSize } from "image-size";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { ValidationError } from "@/lib/errors";

export const LOGO_MAX_BYTES = 256 * 1024;
const LOGO_MAX_PIXELS = 4000;

/** Blank text clears a setting. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .transform((v) => v || null);

export const brandingInput = z.object({
  accent: z
    .string()
    .trim()
    .refine((v) => v === "" || /^#[0-9a-fA-F]{6}$/.test(v), "must be a colour like #1a7f5a")
    .transform((v) => (v ? v.toLowerCase() : null)),
  senderName: optionalText(100),
  emailFooter: optionalText(500),
});
export type BrandingInput = z.output<typeof brandingInput>;

/** What the signing page, emails and certificate show. */
export interface Branding {
  /** The sender display name, or "Quire". */
  name: string;
  senderName: string | null;
  emailFooter: string | null;
  accent: string | null;
  /** Black or white, whichever contrasts more with the accent. */
  accentText: string | null;
  /** Site-relative (/api/branding/logo/{hash}); emails make it absolute. */
  logoPath: string | null;
}

export const DEFAULT_BRANDING: Branding = { name: "Quire", senderName: null, emailFooter: null, accent: null, accentText: null, logoPath: null };

// WCAG 2 relative luminance and contrast ratio.
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The text colour for a button in the accent colour: white or black, whichever reads better (always at least 4.58:1, the square root of 21). */
export function textOn(accent: string): string {
  return contrast(accent, "#ffffff") >= contrast(accent, "#000000") ? "#ffffff" : "#000000";
}

/** PNG or JPEG by their signatures; anything else (SVG included: it can carry script) is refused. */
export function sniffLogo(bytes: Uint8Array): "image/png" | "image/jpeg" | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length > 8 && png.every((b, i) => bytes[i] === b)) return "image/png";
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  return null;
}

export const logoPath = (hash: string) => `/api/branding/logo/${hash}`;

export async function loadBranding(db: Pick<Db, "orgBranding">, orgId: string): Promise<Branding> {
  const row = await db.orgBranding.findUnique({
    where: { orgId },
    select: { accent: true, senderName: true, emailFooter: true, logoHash: true },
  });
  if (!row) return DEFAULT_BRANDING;
  return {
    name: row.senderName ?? "Quire",
    senderName: row.senderName,
    emailFooter: row.emailFooter,
    accent: row.accent,
    accentText: row.accent ? textOn(row.accent) : null,
    logoPath: row.logoHash ? logoPath(row.logoHash) : null,
  };
}

export async function saveBranding(db: Pick<Db, "orgBranding">, orgId: string, input: BrandingInput): Promise<void> {
  await db.orgBranding.upsert({ where: { orgId }, create: { orgId, ...input }, update: input });
}

function logoError(message: string): ValidationError {
  return new ValidationError(message, [{ field: "logo", message }], "LogoRejected");
}

/** Stores a new logo (checked: size, type by its bytes, readable dimensions), or removes it with null. */
export async function setLogo(db: Pick<Db, "orgBranding">, orgId: string, bytes: Buffer | null): Promise<void> {
  if (bytes === null) {
    await db.orgBranding.upsert({ where: { orgId }, create: { orgId }, update: { logo: null, logoType: null, logoHash: null } });
    return;
  }
  if (bytes.length === 0) throw logoError("choose an image file");
  if (bytes.length > LOGO_MAX_BYTES) throw logoError(`is larger than ${LOGO_MAX_BYTES / 1024} KB`);
  const type = sniffLogo(bytes);
  if (!type) throw logoError("must be a PNG or JPEG image");
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw logoError("is not a readable image");
  }
  if (!size.width || !size.height || size.width > LOGO_MAX_PIXELS || size.height > LOGO_MAX_PIXELS)
    throw logoError(`must be at most ${LOGO_MAX_PIXELS} pixels wide and high`);
  const logoHash = crypto.createHash("sha256").update(bytes).digest("hex");
  const data = { logo: bytes.toString("base64"), logoType: type, logoHash };
  await db.orgBranding.upsert({ where: { orgId }, create: { orgId, ...data }, update: data });
}

/** A logo by its hash (the public, unguessable address signers and mail clients load). */
export async function logoByHash(db: Pick<Db, "orgBranding">, hash: string): Promise<{ bytes: Buffer; type: string } | null> {
  if (!/^[0-9a-f]{64}$/.test(hash)) return null;
  const row = await db.orgBranding.findFirst({ where: { logoHash: hash }, select: { logo: true, logoType: true } });
  if (!row?.logo || !row.logoType) return null;
  return { bytes: Buffer.from(row.logo, "base64"), type: row.logoType };
}

/** The organization's logo itself, for the certificate page of its sealed PDFs. */
export async function orgLogo(db: Pick<Db, "orgBranding">, orgId: string): Promise<Buffer | null> {
  const row = await db.orgBranding.findUnique({ where: { orgId }, select: { logo: true } });
  return row?.logo ? Buffer.from(row.logo, "base64") : null;
}

/** The branding an email wears (lib/mail/templates.ts MailBrand), its logo address absolute. */
export async function mailBrand(db: Pick<Db, "orgBranding">, orgId: string, baseUrl: string) {
  const b = await loadBranding(db, orgId);
  return {
    name: b.name,
    footer: b.emailFooter,
    accent: b.accent,
    accentText: b.accentText,
    logoUrl: b.logoPath ? new URL(b.logoPath, baseUrl).toString() : null,
  };
}

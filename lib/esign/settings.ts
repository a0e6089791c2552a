// Editing an organization's embedded signing settings and identity providers (dashboard and seed).
// Secrets the service must read back (SMS auth token, HS256 secrets) are sealed, never returned.
import { importSPKI } from "jose";
import { z } from "zod";
import { seal } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { signingSettingsFlags } from "@/lib/esign/responses";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { OUTBOX_SMS_PROVIDER } from "@/lib/sms/sms";

/** An origin exactly as browsers send it: scheme, host and optional port; nothing else. */
function normalizeOrigin(value: string, ctx: z.RefinementCtx): string {
  try {
    const u = new URL(value.trim());
    if (
      (u.protocol === "https:" || u.protocol === "http:") &&
      u.origin !== "null" &&
      (u.pathname === "/" || u.pathname === "") &&
      !u.search &&
      !u.hash &&
      !u.username
    )
      return u.origin;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: "custom", message: `${value} is not an origin (like https://app.example.com)` });
  return z.NEVER;
}

export const signingSettingsInput = z
  .object({
    ...signingSettingsFlags,
    allowedFrameAncestors: z
      .array(z.string().transform(normalizeOrigin))
      .max(50)
      .transform((origins) => [...new Set(origins)]),
    sms: z
      .discriminatedUnion("provider", [
        z.object({ provider: z.literal("none") }),
        z.object({ provider: z.literal("outbox") }),
        z.object({
          provider: z.literal("twilio"),
          apiBaseUrl: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }),
          accountSid: z.string().trim().min(1).max(100),
          from: z.string().trim().min(1).max(40),
          /** Omitted: keep the saved token. */
          authToken: z.string().min(1).max(200).optional(),
        }),
      ])
      .optional(),
  })
  .partial();
export type SigningSettingsInput = z.infer<typeof signingSettingsInput>;

export async function updateSigningSettings(db: Db, orgId: string, input: SigningSettingsInput, instanceSecret: string): Promise<void> {
  const { sms, ...flags } = input;
  const current = await db.embeddedSigningSettings.findUnique({ where: { orgId } });
  const smsData: Record<string, string | null> = {};
  if (sms?.provider === "none") Object.assign(smsData, { smsApiBaseUrl: null, smsAccountSid: null, smsFrom: null, smsAuthTokenEnc: null });
  if (sms?.provider === "outbox") Object.assign(smsData, { smsApiBaseUrl: OUTBOX_SMS_PROVIDER, smsAccountSid: null, smsFrom: null, smsAuthTokenEnc: null });
  if (sms?.provider === "twilio") {
    const tokenEnc = sms.authToken
      ? seal(instanceSecret, sms.authToken)
      : current?.smsAuthTokenEnc && current.smsApiBaseUrl !== OUTBOX_SMS_PROVIDER
        ? current.smsAuthTokenEnc
        : null;
    if (!tokenEnc) throw new ValidationError("The SMS provider needs an auth token", [{ field: "sms.authToken", message: "required" }]);
    Object.assign(smsData, { smsApiBaseUrl: sms.apiBaseUrl.replace(/\/+$/, ""), smsAccountSid: sms.accountSid, smsFrom: sms.from, smsAuthTokenEnc: tokenEnc });
  }
  await db.embeddedSigningSettings.upsert({ where: { orgId }, create: { orgId, ...flags, ...smsData }, update: { ...flags, ...smsData } });
}

export const identityProviderInput = z.discriminatedUnion("kind", [
  z.object({ name: z.string().trim().min(1).max(100), kind: z.literal("jwks"), jwksUrl: z.url({ protocol: /^https$/, message: "must be an https URL" }) }),
  z.object({ name: z.string().trim().min(1).max(100), kind: z.literal("pem"), publicKeyPem: z.string().trim().min(1).max(10_000) }),
  z.object({ name: z.string().trim().min(1).max(100), kind: z.literal("hs256"), secret: z.string().min(32, "must be at least 32 characters").max(1000) }),
]);
export type IdentityProviderInput = z.infer<typeof identityProviderInput>;

export async function addIdentityProvider(db: Db, orgId: string, input: IdentityProviderInput, instanceSecret: string): Promise<{ id: string }> {
  if (input.kind === "pem") {
    // Refuse a key that cannot verify anything now, not at the first signer's assertion.
    const usable = await Promise.any(["RS256", "ES256"].map((alg) => importSPKI(input.publicKeyPem, alg))).then(
      () => true,
      () => false,
    );
    if (!usable)
      throw new ValidationError("The public key must be a PEM SPKI RSA or P-256 key", [
        { field: "publicKeyPem", message: "not a usable RS256/ES256 public key" },
      ]);
  }
  if (await db.identityProvider.findUnique({ where: { orgId_name: { orgId, name: input.name } } }))
    throw new ConflictError(`An identity provider named "${input.name}" exists`, "IdentityProviderExists");
  const row = await db.identityProvider.create({
    data: {
      orgId,
      name: input.name,
      kind: input.kind,
      jwksUrl: input.kind === "jwks" ? input.jwksUrl : null,
      publicKeyPem: input.kind === "pem" ? input.publicKeyPem : null,
      secretEnc: input.kind === "hs256" ? seal(instanceSecret, input.secret) : null,
    },
  });
  return { id: row.id };
}

export async function removeIdentityProvider(db: Db, orgId: string, id: string): Promise<void> {
  const { count } = await db.identityProvider.deleteMany({ where: { id, orgId } });
  if (!count) throw new NotFoundError("Identity provider not found", "IdentityProviderNotFound");
}

export type SigningSettingsView = Awaited<ReturnType<typeof signingSettingsView>>;

/** The settings page's view: no secrets, only whether they are set. */
export async function signingSettingsView(db: Db, orgId: string) {
  const [row, providers] = await Promise.all([
    db.embeddedSigningSettings.findUnique({ where: { orgId } }),
    db.identityProvider.findMany({ where: { orgId }, orderBy: { name: "asc" } }),
  ]);
  const smsProvider = !row?.smsApiBaseUrl ? "none" : row.smsApiBaseUrl === OUTBOX_SMS_PROVIDER ? "outbox" : "twilio";
  return {
    enabled: row?.enabled ?? false,
    allowExternalIdv: row?.allowExternalIdv ?? false,
    allowIdentityOverride: row?.allowIdentityOverride ?? false,
    defaultChannel: (row?.defaultChannel ?? "none") as "none" | "email" | "sms",
    allowChannelOverride: row?.allowChannelOverride ?? true,
    allowedFrameAncestors: row?.allowedFrameAncestors ?? [],
    sms: {
      provider: smsProvider as "none" | "outbox" | "twilio",
      apiBaseUrl: smsProvider === "twilio" ? row!.smsApiBaseUrl : null,
      accountSid: row?.smsAccountSid ?? null,
      from: row?.smsFrom ?? null,
      authTokenSet: Boolean(row?.smsAuthTokenEnc),
    },
    identityProviders: providers.map((p) => ({
      id: p.id,
      name: p.name,
      kind: p.kind,
      jwksUrl: p.jwksUrl,
      hasPublicKey: Boolean(p.publicKeyPem),
      hasSecret: Boolean(p.secretEnc),
      createdOn: p.createdOn.toISOString(),
    })),
  };
}

// Identity verification per recipient (docs/contract.md "Identity verification"): the requested block is checked
// when a document is prepared, and resolved against the organization's settings and plan when it
// is sent and whenever a signing URL is issued (settings may change in between).
import { isValidPhoneNumber, parsePhoneNumberFromString } from "libphonenumber-js/max";
import type { Db } from "@/lib/db/client";
import type { EmbeddedSigningSettings } from "@/lib/generated/prisma/client";
import type { Plan } from "@/lib/auth/roles";
import { SigningRuleError } from "@/lib/esign/errors";

export type Channel = "email" | "sms";
export type IdentityMode = "otp" | "external_idv" | "override";

export type IdentityBlock =
  | { mode: "otp"; channel?: Channel }
  | { mode: "external_idv"; provider: string; maxAgeMinutes?: number }
  | { mode: "override"; overrideIdentityVerification: true; reason?: string };

export interface ResolvedIdentity {
  mode: IdentityMode | null;
  channel: Channel | null;
  provider?: string;
  maxAgeMinutes?: number;
}

export interface SigningSettings {
  enabled: boolean;
  allowExternalIdv: boolean;
  allowIdentityOverride: boolean;
  defaultChannel: "none" | Channel;
  allowChannelOverride: boolean;
  allowedFrameAncestors: string[];
  smsConfigured: boolean;
  identityProviders: string[];
}

export const DEFAULT_SETTINGS: SigningSettings = {
  enabled: false,
  allowExternalIdv: false,
  allowIdentityOverride: false,
  defaultChannel: "none",
  allowChannelOverride: true,
  allowedFrameAncestors: [],
  smsConfigured: false,
  identityProviders: [],
};

export async function loadSigningSettings(db: Db, orgId: string): Promise<SigningSettings> {
  const [row, providers] = await Promise.all([
    db.embeddedSigningSettings.findUnique({ where: { orgId } }),
    db.identityProvider.findMany({ where: { orgId }, select: { name: true } }),
  ]);
  return settingsFromRow(
    row,
    providers.map((p) => p.name),
  );
}

/** The settings row's columns this module reads (a Prisma row or a raw SQL row). */
export type SigningSettingsRow = Pick<
  EmbeddedSigningSettings,
  | "enabled"
  | "allowExternalIdv"
  | "allowIdentityOverride"
  | "defaultChannel"
  | "allowChannelOverride"
  | "allowedFrameAncestors"
  | "smsApiBaseUrl"
  | "smsAccountSid"
  | "smsFrom"
  | "smsAuthTokenEnc"
>;

/** An organization without a settings row has the defaults (embedded signing off). */
export function settingsFromRow(row: SigningSettingsRow | null, identityProviders: string[]): SigningSettings {
  if (!row) return { ...DEFAULT_SETTINGS, identityProviders };
  return {
    enabled: row.enabled,
    allowExternalIdv: row.allowExternalIdv,
    allowIdentityOverride: row.allowIdentityOverride,
    defaultChannel: row.defaultChannel as SigningSettings["defaultChannel"],
    allowChannelOverride: row.allowChannelOverride,
    allowedFrameAncestors: row.allowedFrameAncestors,
    smsConfigured: row.smsApiBaseUrl === "outbox" || Boolean(row.smsApiBaseUrl && row.smsAccountSid && row.smsFrom && row.smsAuthTokenEnc),
    identityProviders,
  };
}

/** 2.12 as the API shows it: the override flag reads true whenever it cannot apply. */
export function settingsJson(s: SigningSettings) {
  return {
    enabled: s.enabled,
    allowExternalIdv: s.allowExternalIdv,
    allowIdentityOverride: s.allowIdentityOverride,
    defaultChannel: s.defaultChannel,
    allowChannelOverride: s.allowChannelOverride || s.defaultChannel === "none" || !s.enabled,
    allowedFrameAncestors: s.allowedFrameAncestors,
  };
}

const rule = (_status: 400, code: string, message: string, at: string) => new SigningRuleError("validation", `${at}: ${message}`, code);

const MODE_KEYS: Record<IdentityMode, string[]> = {
  otp: ["channel"],
  external_idv: ["provider", "maxAgeMinutes"],
  override: ["overrideIdentityVerification", "reason"],
};

/** Checks a requested block's shape, naming the first problem with its 7.4 code. */
export function parseIdentityBlock(raw: unknown, at: string): IdentityBlock | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== "object" || Array.isArray(raw)) throw rule(400, "IdentityConfigInvalid", "identityVerification must be an object", at);
  const block = raw as Record<string, unknown>;
  const mode = block.mode;
  if (mode !== "otp" && mode !== "external_idv" && mode !== "override")
    throw rule(400, "IdentityConfigInvalid", "identityVerification.mode must be otp, external_idv or override", at);
  for (const key of Object.keys(block)) {
    if (key === "mode" || MODE_KEYS[mode].includes(key)) continue;
    const owner = (Object.keys(MODE_KEYS) as IdentityMode[]).find((m) => MODE_KEYS[m].includes(key));
    if (owner) throw rule(400, "IdentityModeConflict", `${key} belongs to mode ${owner}, not ${mode}`, at);
    throw rule(400, "IdentityConfigInvalid", `identityVerification has an unknown field ${key}`, at);
  }
  if (mode === "otp") {
    if (block.channel !== undefined && block.channel !== "email" && block.channel !== "sms")
      throw rule(400, "IdentityConfigInvalid", "channel must be email or sms", at);
    return { mode, ...(block.channel ? { channel: block.channel as Channel } : {}) };
  }
  if (mode === "external_idv") {
    if (typeof block.provider !== "string" || !block.provider.trim()) throw rule(400, "IdvProviderRequired", "external_idv needs a provider", at);
    const max = block.maxAgeMinutes;
    if (max !== undefined && (typeof max !== "number" || !Number.isInteger(max) || max < 1 || max > 525_600))
      throw rule(400, "IdentityConfigInvalid", "maxAgeMinutes must be a whole number of minutes", at);
    return { mode, provider: block.provider.trim(), ...(max !== undefined ? { maxAgeMinutes: max as number } : {}) };
  }
  if (block.overrideIdentityVerification !== true) throw rule(400, "OverrideNotAcknowledged", "override needs overrideIdentityVerification: true", at);
  if (block.reason !== undefined && (typeof block.reason !== "string" || block.reason.length > 1000))
    throw rule(400, "IdentityConfigInvalid", "reason must be a string of at most 1000 characters", at);
  return { mode, overrideIdentityVerification: true, ...(block.reason ? { reason: block.reason as string } : {}) };
}

/** Phone numbers for SMS: international (+...), and a number that can exist. */
export function checkSmsPhone(phone: string | null | undefined, at: string): string {
  if (!phone) throw rule(400, "OtpPhoneRequired", "an SMS passcode needs the recipient's phone", at);
  if (!/^\+[0-9 ()-]{6,}$/.test(phone.trim())) throw rule(400, "OtpPhoneInvalid", "phone must be in international format, starting with +", at);
  if (!isValidPhoneNumber(phone.trim())) throw rule(400, "OtpPhoneInvalid", `${phone} is not a number that can exist`, at);
  return parsePhoneNumberFromString(phone.trim())!.number;
}

/** A phone number in E.164 (what SMS providers expect), e.g. "+1 415 555 2671" -> "+14155552671". */
export function e164(phone: string): string {
  return parsePhoneNumberFromString(phone.trim())?.number ?? phone.trim();
}

export interface ResolveContext {
  settings: SigningSettings;
  plan: Plan;
  /** Automated sends skip the organization default (docs/contract.md "Identity verification"). */
  automated: boolean;
  /** SMS passcodes the organization sent this month, for the plan's allowance. */
  smsUsed: () => Promise<number>;
}

/** The verification that applies to one recipient now, or the 7.4 error that forbids it. */
export async function resolveIdentity(
  ctx: ResolveContext,
  recipient: { identityVerification: unknown; phone: string | null },
  at: string,
): Promise<ResolvedIdentity> {
  const { settings } = ctx;
  const block = parseIdentityBlock(recipient.identityVerification, at);
  const orgDefault = settings.enabled && settings.defaultChannel !== "none" ? settings.defaultChannel : null;
  if (!block) {
    if (!orgDefault || ctx.automated) return { mode: null, channel: null };
    return checkOtp(ctx, orgDefault, recipient.phone, at);
  }
  if (block.mode === "otp") {
    const locked = orgDefault !== null && !settings.allowChannelOverride;
    if (locked && block.channel && block.channel !== orgDefault) {
      throw new SigningRuleError(
        "forbidden",
        `${at}: the organization requires ${orgDefault} passcodes; this request asked for ${block.channel}`,
        "OtpOverrideNotAllowed",
      );
    }
    return checkOtp(ctx, block.channel ?? orgDefault ?? "email", recipient.phone, at);
  }
  if (!settings.enabled)
    throw new SigningRuleError(
      "forbidden",
      `${at}: embedded signing and identity verification are not enabled for this organization`,
      "EmbeddedSigningNotEnabled",
    );
  if (block.mode === "external_idv") {
    if (!settings.allowExternalIdv)
      throw new SigningRuleError("forbidden", `${at}: this organization does not allow external identity verification`, "ExternalIdvNotAllowed");
    if (!settings.identityProviders.includes(block.provider))
      throw rule(400, "IdentityConfigInvalid", `identity provider "${block.provider}" is not registered in the organization's settings`, at);
    return { mode: "external_idv", channel: null, provider: block.provider, maxAgeMinutes: block.maxAgeMinutes ?? 10 };
  }
  if (!settings.allowIdentityOverride)
    throw new SigningRuleError("forbidden", `${at}: this organization does not allow identity verification overrides`, "IdentityOverrideNotAllowed");
  return { mode: "override", channel: null };
}

async function checkOtp(ctx: ResolveContext, channel: Channel, phone: string | null, at: string): Promise<ResolvedIdentity> {
  if (channel === "email") {
    if (!ctx.plan.emailOtp) throw new SigningRuleError("payment_required", `${at}: the plan does not include email passcodes`, "OtpNotEntitled");
    return { mode: "otp", channel };
  }
  checkSmsPhone(phone, at);
  if (!ctx.plan.smsOtp) throw new SigningRuleError("payment_required", `${at}: the plan does not include SMS passcodes`, "OtpNotEntitled");
  if (!ctx.settings.enabled)
    throw new SigningRuleError("forbidden", `${at}: SMS passcodes need identity verification enabled in the organization's settings`, "SmsOtpNotEnabled");
  if (!ctx.settings.smsConfigured)
    throw new SigningRuleError("conflict", `${at}: no SMS provider is saved in the organization's settings`, "SmsProviderNotConfigured");
  if ((await ctx.smsUsed()) >= ctx.plan.smsAllowance)
    throw new SigningRuleError("payment_required", `${at}: the plan's SMS passcode allowance for this month is used up`, "SmsOtpLimitExceeded");
  return { mode: "otp", channel };
}

/** SMS passcodes sent by the organization since the start of the calendar month (UTC). */
export async function smsPasscodesThisMonth(db: Pick<Db, "signerPasscode">, orgId: string, at: Date): Promise<number> {
  const monthStart = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  return db.signerPasscode.count({ where: { channel: "sms", createdOn: { gte: monthStart }, recipient: { document: { orgId } } } });
}

// Identity resolution (docs/contract.md "Identity verification") as a pure function of settings, plan and request.
import { describe, expect, it } from "vitest";
import type { Plan } from "@/lib/auth/roles";
import { checkSmsPhone, DEFAULT_SETTINGS, e164, parseIdentityBlock, resolveIdentity, settingsJson, type SigningSettings } from "@/lib/esign/identity";

const plan: Plan = { hasFileDownload: true, emailOtp: true, smsOtp: true, maxDeliverables: 10, maxStorageBytes: 10n, smsAllowance: 10, rateLimitPerMinute: 60 };
const on: SigningSettings = {
  ...DEFAULT_SETTINGS,
  enabled: true,
  allowExternalIdv: true,
  allowIdentityOverride: true,
  smsConfigured: true,
  identityProviders: ["acme"],
};

function resolve(
  block: unknown,
  o: { settings?: Partial<SigningSettings>; plan?: Partial<Plan>; phone?: string | null; automated?: boolean; smsUsed?: number } = {},
) {
  return resolveIdentity(
    { settings: { ...on, ...o.settings }, plan: { ...plan, ...o.plan }, automated: o.automated ?? false, smsUsed: async () => o.smsUsed ?? 0 },
    { identityVerification: block, phone: o.phone ?? null },
    "recipients.0",
  );
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: { code: string }) => e.code,
  );

describe("identity verification blocks", () => {
  it("names each malformed block with its own code", () => {
    const code = (raw: unknown) => {
      try {
        parseIdentityBlock(raw, "r");
        return "ok";
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    expect(code({ mode: "face" })).toBe("IdentityConfigInvalid");
    expect(code({ mode: "otp", channel: "pigeon" })).toBe("IdentityConfigInvalid");
    expect(code({ mode: "otp", provider: "acme" })).toBe("IdentityModeConflict");
    expect(code({ mode: "override", channel: "sms", overrideIdentityVerification: true })).toBe("IdentityModeConflict");
    expect(code({ mode: "otp", colour: "red" })).toBe("IdentityConfigInvalid");
    expect(code({ mode: "external_idv" })).toBe("IdvProviderRequired");
    expect(code({ mode: "external_idv", provider: "acme", maxAgeMinutes: 0 })).toBe("IdentityConfigInvalid");
    expect(code({ mode: "override" })).toBe("OverrideNotAcknowledged");
    expect(code({ mode: "override", overrideIdentityVerification: false })).toBe("OverrideNotAcknowledged");
    expect(code(undefined)).toBe("ok");
  });
});

describe("resolution against the organization", () => {
  it("applies the default channel, except to automated sends", async () => {
    expect(await resolve(undefined, { settings: { defaultChannel: "email" } })).toEqual({ mode: "otp", channel: "email" });
    expect(await resolve(undefined, { settings: { defaultChannel: "email" }, automated: true })).toEqual({ mode: null, channel: null });
    expect(await resolve(undefined)).toEqual({ mode: null, channel: null });
    // A disabled organization's default does not apply.
    expect(await resolve(undefined, { settings: { enabled: false, defaultChannel: "email" } })).toEqual({ mode: null, channel: null });
  });

  it("otp without a channel takes the default, or email when the default is none", async () => {
    expect(await resolve({ mode: "otp" }, { settings: { defaultChannel: "sms" }, phone: "+14155552671" })).toEqual({ mode: "otp", channel: "sms" });
    expect(await resolve({ mode: "otp" })).toEqual({ mode: "otp", channel: "email" });
  });

  it("a locked channel refuses a different one but accepts the same or none", async () => {
    const locked = { settings: { defaultChannel: "email" as const, allowChannelOverride: false }, phone: "+14155552671" };
    expect(await codeOf(resolve({ mode: "otp", channel: "sms" }, locked))).toBe("OtpOverrideNotAllowed");
    expect(await codeOf(resolve({ mode: "otp", channel: "email" }, locked))).toBe("ok");
    expect(await codeOf(resolve({ mode: "otp" }, locked))).toBe("ok");
    expect(settingsJson({ ...on, defaultChannel: "none", allowChannelOverride: false }).allowChannelOverride).toBe(true);
  });

  it("checks SMS: phone, entitlement, enablement, provider and allowance", async () => {
    const sms = { mode: "otp", channel: "sms" };
    expect(await codeOf(resolve(sms))).toBe("OtpPhoneRequired");
    expect(await codeOf(resolve(sms, { phone: "4155552671" }))).toBe("OtpPhoneInvalid");
    expect(await codeOf(resolve(sms, { phone: "+1 555 010 0000" }))).toBe("OtpPhoneInvalid");
    expect(await codeOf(resolve(sms, { phone: "+14155552671", plan: { smsOtp: false } }))).toBe("OtpNotEntitled");
    expect(await codeOf(resolve(sms, { phone: "+14155552671", settings: { enabled: false } }))).toBe("SmsOtpNotEnabled");
    expect(await codeOf(resolve(sms, { phone: "+14155552671", settings: { smsConfigured: false } }))).toBe("SmsProviderNotConfigured");
    expect(await codeOf(resolve(sms, { phone: "+14155552671", smsUsed: 10 }))).toBe("SmsOtpLimitExceeded");
    expect(await codeOf(resolve({ mode: "otp", channel: "email" }, { plan: { emailOtp: false } }))).toBe("OtpNotEntitled");
    expect(await resolve(sms, { phone: "+44 20 7946 0018" })).toEqual({ mode: "otp", channel: "sms" });
  });

  it("external_idv and override need the organization to allow them", async () => {
    const idv = { mode: "external_idv", provider: "acme" };
    const override = { mode: "override", overrideIdentityVerification: true };
    expect(await resolve(idv)).toEqual({ mode: "external_idv", channel: null, provider: "acme", maxAgeMinutes: 10 });
    expect(await codeOf(resolve(idv, { settings: { enabled: false } }))).toBe("EmbeddedSigningNotEnabled");
    expect(await codeOf(resolve(idv, { settings: { allowExternalIdv: false } }))).toBe("ExternalIdvNotAllowed");
    expect(await codeOf(resolve({ mode: "external_idv", provider: "other" }))).toBe("IdentityConfigInvalid");
    expect(await resolve(override)).toEqual({ mode: "override", channel: null });
    expect(await codeOf(resolve(override, { settings: { allowIdentityOverride: false } }))).toBe("IdentityOverrideNotAllowed");
  });
});

describe("SMS phone numbers", () => {
  const code = (phone: string | null) => {
    try {
      return checkSmsPhone(phone, "r");
    } catch (e) {
      return (e as { code: string }).code;
    }
  };

  it("needs one, in international format, that can exist; returns it in E.164", () => {
    expect(code(null)).toBe("OtpPhoneRequired");
    expect(code("")).toBe("OtpPhoneRequired");
    expect(code("415 555 2671")).toBe("OtpPhoneInvalid");
    expect(code("+1 555 010 0000")).toBe("OtpPhoneInvalid");
    expect(code("+999 1234567")).toBe("OtpPhoneInvalid");
    expect(code("+1 (415) 555-2671")).toBe("+14155552671");
    expect(code("+44 20 7946 0018")).toBe("+442079460018");
  });

  it("e164 normalizes what SMS providers receive", () => {
    expect(e164(" +1 415 555 2671 ")).toBe("+14155552671");
    expect(e164("+49 30 901820")).toBe("+4930901820");
  });
});

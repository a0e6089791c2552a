"use client";
// Embedded signing settings (docs/contract.md "Embedded signing"): verification modes, the default passcode channel
// and the origins allowed to frame the signing page. Administrators edit; others see them disabled.
import { useState, useTransition } from "react";
import { saveSigningSettingsAction } from "@/lib/dashboard/actions/settings";
import type { SigningSettingsView } from "@/lib/esign/settings";
import { CheckboxField, FieldError, FormActions, SelectField, type FieldErrors } from "@/components/fields";

type Flags = Pick<SigningSettingsView, "enabled" | "allowExternalIdv" | "allowIdentityOverride" | "defaultChannel" | "allowChannelOverride">;

const VERIFICATION_SWITCHES: { key: "enabled" | "allowExternalIdv" | "allowIdentityOverride"; label: string; hint: string }[] = [
  { key: "enabled", label: "Enable embedded signing and identity verification", hint: "Signing URLs, passcodes, external identity and overrides." },
  {
    key: "allowExternalIdv",
    label: "Allow external identity verification",
    hint: "Your app vouches for the signer with an assertion signed by one of the identity providers below (external_idv).",
  },
  {
    key: "allowIdentityOverride",
    label: "Allow identity override",
    hint: "A sender may issue a single-use link that skips verification, with a reason (override).",
  },
];

export function EmbeddedSigningForm({ initial, readOnly }: { initial: SigningSettingsView; readOnly: boolean }) {
  const [flags, setFlags] = useState<Flags>({
    enabled: initial.enabled,
    allowExternalIdv: initial.allowExternalIdv,
    allowIdentityOverride: initial.allowIdentityOverride,
    defaultChannel: initial.defaultChannel,
    allowChannelOverride: initial.allowChannelOverride,
  });
  const [origins, setOrigins] = useState<string[]>(initial.allowedFrameAncestors.length ? initial.allowedFrameAncestors : [""]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const set = <K extends keyof Flags>(key: K, value: Flags[K]) => setFlags((f) => ({ ...f, [key]: value }));
  const channelLockMatters = flags.enabled && flags.defaultChannel !== "none";

  function submit(e: React.FormEvent) {
    e.preventDefault();
    // Blank rows are dropped; remember which row each sent origin came from, for its error.
    const rows = origins.map((value, row) => ({ value: value.trim(), row })).filter((o) => o.value);
    startTransition(async () => {
      const result = await saveSigningSettingsAction({ ...flags, allowedFrameAncestors: rows.map((o) => o.value) });
      if (result.ok) {
        setErrors({});
        setMessage({ tone: "ok", text: result.data });
        setOrigins(rows.length ? [...new Set(rows.map((o) => new URL(o.value).origin))] : [""]);
        return;
      }
      const mapped: FieldErrors = {};
      for (const [key, text] of Object.entries(result.fieldErrors ?? {})) {
        const m = /^allowedFrameAncestors\.(\d+)$/.exec(key);
        mapped[m ? `origin.${rows[Number(m[1])]?.row}` : key] = text;
      }
      setErrors(mapped);
      setMessage({ tone: "error", text: result.error });
    });
  }

  return (
    <form onSubmit={submit} aria-label="Embedded signing settings" className="space-y-5">
      <fieldset disabled={readOnly} className="space-y-3">
        <legend className="sr-only">Verification</legend>
        {VERIFICATION_SWITCHES.map(({ key, label, hint }) => (
          <CheckboxField key={key} label={label} hint={hint} checked={flags[key]} onChange={(e) => set(key, e.target.checked)} error={errors[key]} />
        ))}
      </fieldset>

      <fieldset disabled={readOnly} className="grid gap-3 sm:grid-cols-2 sm:items-start">
        <legend className="sr-only">Passcodes</legend>
        <SelectField
          label="Default passcode channel"
          value={flags.defaultChannel}
          onChange={(e) => set("defaultChannel", e.target.value as Flags["defaultChannel"])}
          error={errors.defaultChannel}
          hint="Applies to recipients without their own verification."
        >
          <option value="none">None (no passcode unless requested)</option>
          <option value="email">Email</option>
          <option value="sms">SMS</option>
        </SelectField>
        <div className="sm:pt-7">
          <CheckboxField
            label="Requests may choose another channel"
            hint={
              channelLockMatters
                ? "Off: a request that sets a different channel is refused (OtpOverrideNotAllowed)."
                : "Always allowed while the default is none or embedded signing is off."
            }
            checked={flags.allowChannelOverride}
            onChange={(e) => set("allowChannelOverride", e.target.checked)}
            error={errors.allowChannelOverride}
          />
        </div>
      </fieldset>

      <fieldset disabled={readOnly}>
        <legend className="text-sm font-medium">Origins allowed to frame the signing page</legend>
        <p className="mb-2 text-xs text-slate-500">Scheme, host and port only, like https://app.example.com. With none, no site may frame it.</p>
        <ul className="space-y-2">
          {origins.map((value, i) => (
            <li key={i}>
              <div className="flex gap-2">
                <input
                  aria-label={`Allowed origin ${i + 1}`}
                  value={value}
                  placeholder="https://app.example.com"
                  inputMode="url"
                  autoCapitalize="off"
                  spellCheck={false}
                  onChange={(e) => setOrigins(origins.map((o, j) => (j === i ? e.target.value : o)))}
                  aria-invalid={errors[`origin.${i}`] ? true : undefined}
                  aria-describedby={errors[`origin.${i}`] ? `origin-${i}-error` : undefined}
                  className={`min-w-0 flex-1 rounded-md border px-3 py-2 font-mono text-sm disabled:bg-slate-50 ${errors[`origin.${i}`] ? "border-red-500" : "border-slate-300"}`}
                />
                {!readOnly ? (
                  <button
                    type="button"
                    aria-label={`Remove origin ${i + 1}`}
                    onClick={() => setOrigins(origins.length > 1 ? origins.filter((_, j) => j !== i) : [""])}
                    className="rounded-md border border-slate-300 px-3 text-sm hover:bg-slate-50"
                  >
                    Remove
                  </button>
                ) : null}
              </div>
              <FieldError id={`origin-${i}-error`} error={errors[`origin.${i}`]} />
            </li>
          ))}
        </ul>
        <FieldError id="origins-error" error={errors.allowedFrameAncestors} />
        {!readOnly ? (
          <button type="button" onClick={() => setOrigins([...origins, ""])} className="mt-2 text-sm font-medium text-brand-700 hover:underline">
            + Add origin
          </button>
        ) : null}
      </fieldset>

      <FormActions readOnly={readOnly} pending={pending} message={message}>
        Save embedded signing
      </FormActions>
    </form>
  );
}

"use client";
// Where SMS passcodes go: nowhere, the Outbox (development) or a Twilio-compatible API. The auth
// token is write-only: the page only says whether one is saved.
import { useState, useTransition } from "react";
import { saveSmsProviderAction } from "@/lib/dashboard/actions/settings";
import { Badge } from "@/components/ui";
import type { SigningSettingsView } from "@/lib/esign/settings";
import { FormActions, SelectField, TextField, type FieldErrors } from "@/components/fields";

type Provider = SigningSettingsView["sms"]["provider"];

export function SmsProviderForm({ initial, readOnly }: { initial: SigningSettingsView["sms"]; readOnly: boolean }) {
  const [provider, setProvider] = useState<Provider>(initial.provider);
  const [apiBaseUrl, setApiBaseUrl] = useState(initial.apiBaseUrl ?? "https://api.twilio.com");
  const [accountSid, setAccountSid] = useState(initial.accountSid ?? "");
  const [from, setFrom] = useState(initial.from ?? "");
  const [authToken, setAuthToken] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  // A saved token belongs to the saved Twilio-compatible provider only.
  const tokenSaved = initial.provider === "twilio" && initial.authTokenSet;

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const input = provider === "twilio" ? { provider, apiBaseUrl: apiBaseUrl.trim(), accountSid, from, ...(authToken ? { authToken } : {}) } : { provider };
    startTransition(async () => {
      const result = await saveSmsProviderAction(input);
      setErrors(result.ok ? {} : (result.fieldErrors ?? {}));
      setMessage({ tone: result.ok ? "ok" : "error", text: result.ok ? result.data : result.error });
      if (result.ok) setAuthToken("");
    });
  }

  return (
    <form onSubmit={submit} aria-label="SMS provider" className="space-y-4">
      <fieldset disabled={readOnly} className="space-y-4">
        <SelectField label="Provider" value={provider} onChange={(e) => setProvider(e.target.value as Provider)} error={errors.provider}>
          <option value="none">None (SMS passcodes cannot be sent)</option>
          <option value="outbox">Outbox (development: messages appear in the Outbox)</option>
          <option value="twilio">Twilio-compatible API</option>
        </SelectField>
        {provider === "twilio" ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              label="API base URL"
              value={apiBaseUrl}
              onChange={(e) => setApiBaseUrl(e.target.value)}
              inputMode="url"
              error={errors.apiBaseUrl}
              hint="Messages are posted to {base}/2010-04-01/Accounts/{sid}/Messages.json"
            />
            <TextField label="Account SID" value={accountSid} onChange={(e) => setAccountSid(e.target.value)} autoComplete="off" error={errors.accountSid} />
            <TextField label="From number" value={from} onChange={(e) => setFrom(e.target.value)} placeholder="+15551234567" error={errors.from} />
            <div>
              <TextField
                label="Auth token"
                type="password"
                value={authToken}
                onChange={(e) => setAuthToken(e.target.value)}
                autoComplete="new-password"
                placeholder={tokenSaved ? "Saved; type to replace" : ""}
                error={errors.authToken}
                hint={tokenSaved ? "Leave empty to keep the saved token. It is encrypted and never shown." : "Encrypted at rest and never shown again."}
              />
              {tokenSaved ? (
                <p className="mt-1" data-testid="sms-token-saved">
                  <Badge tone="green">token saved</Badge>
                </p>
              ) : null}
            </div>
          </div>
        ) : null}
      </fieldset>
      <FormActions readOnly={readOnly} pending={pending} message={message}>
        Save SMS provider
      </FormActions>
    </form>
  );
}

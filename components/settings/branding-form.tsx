"use client";
// The organization's branding (issue 19 item 6): logo, accent colour, sender display name and email
// footer, on the signing page, its emails and the certificate page. Administrators edit; others see it.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { removeLogoAction, saveBrandingAction, uploadLogoAction } from "@/lib/dashboard/actions/settings";
import { FieldError, type FieldErrors, FormActions, TextField } from "@/components/fields";

export interface BrandingView {
  accent: string | null;
  accentText: string | null;
  senderName: string | null;
  emailFooter: string | null;
  logoPath: string | null;
}

type Message = { tone: "ok" | "error"; text: string } | null;

export function BrandingForm({ initial, readOnly }: { initial: BrandingView; readOnly: boolean }) {
  const router = useRouter();
  const [accent, setAccent] = useState(initial.accent ?? "");
  const [senderName, setSenderName] = useState(initial.senderName ?? "");
  const [emailFooter, setEmailFooter] = useState(initial.emailFooter ?? "");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<Message>(null);
  const [logoMessage, setLogoMessage] = useState<Message>(null);
  const [logoError, setLogoError] = useState<string | undefined>();
  const [pending, startTransition] = useTransition();
  const [logoPending, startLogo] = useTransition();
  const validAccent = /^#[0-9a-fA-F]{6}$/.test(accent);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    startTransition(async () => {
      const r = await saveBrandingAction({ accent, senderName, emailFooter });
      setErrors(r.ok ? {} : (r.fieldErrors ?? {}));
      setMessage(r.ok ? { tone: "ok", text: r.data } : { tone: "error", text: r.error });
    });
  }

  function upload(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const input = e.currentTarget.elements.namedItem("logo") as HTMLInputElement;
    startLogo(async () => {
      const r = await uploadLogoAction(null, form);
      setLogoError(r.ok ? undefined : (r.fieldErrors?.logo ?? r.error));
      setLogoMessage(r.ok ? { tone: "ok", text: r.data } : { tone: "error", text: r.error });
      if (r.ok) {
        input.value = "";
        router.refresh();
      }
    });
  }

  function removeLogo() {
    startLogo(async () => {
      const r = await removeLogoAction({});
      setLogoMessage(r.ok ? { tone: "ok", text: r.data } : { tone: "error", text: r.error });
      if (r.ok) router.refresh();
    });
  }

  return (
    <div className="space-y-6">
      <form onSubmit={upload} aria-label="Logo" className="space-y-3">
        <div className="flex flex-wrap items-center gap-4">
          {initial.logoPath ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img src={initial.logoPath} alt="Current logo" className="h-12 max-w-48 rounded border border-slate-200 bg-white object-contain p-1" />
          ) : (
            <p className="text-sm text-slate-500">No logo: signers see “Quire”.</p>
          )}
          {initial.logoPath && !readOnly ? (
            <button
              type="button"
              onClick={removeLogo}
              disabled={logoPending}
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm text-red-700 hover:bg-slate-50"
            >
              Remove logo
            </button>
          ) : null}
        </div>
        {readOnly ? null : (
          <div>
            <label htmlFor="branding-logo" className="text-sm font-medium">
              Upload a logo
            </label>
            <input
              id="branding-logo"
              name="logo"
              type="file"
              accept="image/png,image/jpeg"
              required
              aria-invalid={logoError ? true : undefined}
              aria-describedby={logoError ? "branding-logo-error" : "branding-logo-hint"}
              className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            />
            {logoError ? null : (
              <p id="branding-logo-hint" className="mt-1 text-xs text-slate-500">
                PNG or JPEG, at most 256 KB; shown about 40 pixels high.
              </p>
            )}
            <FieldError id="branding-logo-error" error={logoError} />
          </div>
        )}
        <FormActions readOnly={readOnly} pending={logoPending} pendingLabel="Uploading…" message={logoMessage}>
          Upload logo
        </FormActions>
      </form>

      <form onSubmit={submit} aria-label="Branding" className="space-y-4">
        <fieldset disabled={readOnly} className="grid gap-3 sm:grid-cols-2 sm:items-start">
          <div className="flex items-end gap-2">
            <div className="flex-1">
              <TextField
                label="Accent colour"
                hint="Buttons on the signing page and in emails; blank for Quire's blue. Their text is black or white, whichever reads better."
                value={accent}
                placeholder="#1a7f5a"
                onChange={(e) => setAccent(e.target.value)}
                error={errors.accent}
              />
            </div>
            <input
              type="color"
              aria-label="Pick the accent colour"
              value={validAccent ? accent.toLowerCase() : "#3457d5"}
              onChange={(e) => setAccent(e.target.value)}
              className="mb-0.5 h-10 w-12 cursor-pointer rounded border border-slate-300 bg-white"
            />
          </div>
          <TextField
            label="Sender display name"
            hint="Shown instead of “Quire” on the signing page, in emails and on the certificate page."
            value={senderName}
            maxLength={100}
            onChange={(e) => setSenderName(e.target.value)}
            error={errors.senderName}
          />
          <div className="sm:col-span-2">
            <label htmlFor="branding-footer" className="text-sm font-medium">
              Email footer
            </label>
            <textarea
              id="branding-footer"
              value={emailFooter}
              maxLength={500}
              rows={3}
              onChange={(e) => setEmailFooter(e.target.value)}
              aria-invalid={errors.emailFooter ? true : undefined}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm disabled:bg-slate-50"
            />
            <p className="text-xs text-slate-500">Under every signing email, and at the foot of the certificate page. Up to 500 characters.</p>
            <FieldError id="branding-footer-error" error={errors.emailFooter} />
          </div>
        </fieldset>
        <FormActions readOnly={readOnly} pending={pending} message={message}>
          Save branding
        </FormActions>
      </form>
    </div>
  );
}

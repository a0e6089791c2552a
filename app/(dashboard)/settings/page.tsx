import type { Metadata } from "next";
import { EmbeddedSigningForm } from "@/components/settings/embedded-signing-form";
import { BrandingForm } from "@/components/settings/branding-form";
import { IdentityProviders } from "@/components/settings/identity-providers";
import { ReminderDefaultForm } from "@/components/settings/reminder-default-form";
import { LanguageForm } from "@/components/settings/language-form";
import { SmsProviderForm } from "@/components/settings/sms-provider-form";
import { Badge, Card, PageHeader } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { db } from "@/lib/db/client";
import { signingSettingsView } from "@/lib/esign/settings";
import { languageOr } from "@/lib/i18n";
import { loadBranding } from "@/lib/orgs/branding";

export const metadata: Metadata = { title: "Settings" };

function formatBytes(bytes: bigint): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = Number(bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString("en", { maximumFractionDigits: 1 })} ${units[unit]}`;
}

export default async function SettingsPage() {
  const { org: current, role } = await requireDashboard();
  const client = await db();
  const [org, signing] = await Promise.all([client.organization.findUniqueOrThrow({ where: { id: current.id } }), signingSettingsView(client, current.id)]);
  const branding = await loadBranding(client, current.id);
  const readOnly = role !== "administrator";
  const features: [string, boolean][] = [
    ["File download (hasFileDownload)", org.hasFileDownload],
    ["Email passcodes (emailOtp)", org.emailOtp],
    ["SMS passcodes (smsOtp)", org.smsOtp],
  ];
  const quotas: [string, string][] = [
    ["Deliverables (maxDeliverables)", org.maxDeliverables.toLocaleString("en")],
    ["Storage (maxStorageBytes)", formatBytes(org.maxStorageBytes)],
    ["SMS allowance (smsAllowance)", org.smsAllowance.toLocaleString("en")],
    ["API rate limit", `${org.rateLimitPerMinute.toLocaleString("en")} requests / minute / key`],
  ];
  return (
    <>
      <PageHeader title="Settings" description={`Workspace ${org.name}`} />
      <div className="grid gap-4 md:grid-cols-2">
        <Card>
          <h2 className="mb-3 font-medium">License features</h2>
          <ul className="space-y-2 text-sm">
            {features.map(([label, on]) => (
              <li key={label} className="flex items-center justify-between gap-2">
                {label}
                <Badge tone={on ? "green" : "slate"}>{on ? "enabled" : "not included"}</Badge>
              </li>
            ))}
          </ul>
        </Card>
        <Card>
          <h2 className="mb-3 font-medium">Plan limits</h2>
          <dl className="space-y-2 text-sm">
            {quotas.map(([label, value]) => (
              <div key={label} className="flex items-center justify-between gap-2">
                <dt>{label}</dt>
                <dd className="font-medium">{value}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>

      <h2 id="signing-appearance" className="mt-8 mb-1 text-lg font-semibold">
        Signing page and emails
      </h2>
      <p className="mb-4 text-sm text-slate-600">What signers see.{readOnly ? " Only administrators can change it." : ""}</p>
      <div className="grid gap-4">
        <Card>
          <h3 className="mb-3 font-medium">Language</h3>
          <LanguageForm initial={languageOr(org.defaultLanguage)} readOnly={readOnly} />
        </Card>
        <Card>
          <h3 className="mb-3 font-medium">Branding</h3>
          <BrandingForm initial={branding} readOnly={readOnly} />
        </Card>
      </div>

      <h2 id="embedded-signing" className="mt-8 mb-1 text-lg font-semibold">
        Embedded signing
      </h2>
      <p className="mb-4 text-sm text-slate-600">
        Identity verification and framing of the signing page. API clients read these with GET /esign/embedded-signing-settings.
        {readOnly ? " Only administrators can change them." : ""}
      </p>
      <div className="grid gap-4">
        <Card>
          <h3 className="mb-3 font-medium">Verification and framing</h3>
          <EmbeddedSigningForm initial={signing} readOnly={readOnly} />
        </Card>
        <Card>
          <h3 className="mb-3 font-medium">SMS provider</h3>
          <SmsProviderForm initial={signing.sms} readOnly={readOnly} />
        </Card>
        <Card>
          <h3 className="mb-3 font-medium">Identity providers</h3>
          <IdentityProviders providers={signing.identityProviders} readOnly={readOnly} />
        </Card>
        <Card>
          <h3 className="mb-3 font-medium">Signing reminders</h3>
          <ReminderDefaultForm initial={org.signingReminderDays} readOnly={readOnly} />
        </Card>
      </div>
    </>
  );
}

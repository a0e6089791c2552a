import type { Metadata } from "next";
import { Badge, Card, PageHeader } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { db } from "@/lib/db/client";

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
  const { org: current } = await requireDashboard();
  const org = await (await db()).organization.findUniqueOrThrow({ where: { id: current.id } });
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
    </>
  );
}

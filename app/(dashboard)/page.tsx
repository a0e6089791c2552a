import { Card, PageHeader } from "@/components/ui";
import { CopyButton } from "@/components/copy-button";
import { requireDashboard } from "@/lib/auth/dashboard";
import { getConfig } from "@/lib/config";

export default async function OverviewPage() {
  const { org } = await requireDashboard();
  const { baseUrl } = getConfig();
  const curl = `curl ${baseUrl}/api/whoami \\\n  -H "Authorization: Bearer <API key>" \\\n  -H "x-service-org-id: ${org.id}"`;
  return (
    <>
      <PageHeader title="Overview" description="Generate documents from templates, collect signatures, and notify your systems." />
      <div className="grid gap-4">
        <Card>
          <h2 className="font-medium">Organization id</h2>
          <p className="mt-1 text-sm text-slate-600">Send it as the x-service-org-id header with every API request.</p>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <code data-testid="org-id" className="break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm">
              {org.id}
            </code>
            <CopyButton value={org.id} />
          </div>
        </Card>
        <Card>
          <h2 className="font-medium">Try the API</h2>
          <pre className="mt-3 overflow-x-auto rounded bg-slate-900 p-3 font-mono text-xs text-slate-100">{curl}</pre>
        </Card>
      </div>
    </>
  );
}

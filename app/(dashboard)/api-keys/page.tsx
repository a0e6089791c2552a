import type { Metadata } from "next";
import { Badge, Card, DataTable, PageHeader, formatDate } from "@/components/ui";
import { listApiKeys } from "@/lib/auth/api-keys";
import { requireDashboard } from "@/lib/auth/dashboard";
import { db } from "@/lib/db/client";
import { CreateKeyForm } from "./create-key-form";
import { RevokeButton } from "./revoke-button";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const { org, role } = await requireDashboard();
  const keys = await listApiKeys(await db(), org.id);
  const isAdmin = role === "administrator";
  return (
    <>
      <PageHeader title="API keys" description="Keys authenticate REST and SDK calls. Each key has one role. Keep keys on your server." />
      <div className="grid gap-4">
        {isAdmin ? (
          <Card>
            <h2 className="mb-3 font-medium">Create a key</h2>
            <CreateKeyForm />
          </Card>
        ) : (
          <Card>
            <p className="text-sm text-slate-600">Only administrators can create or revoke keys.</p>
          </Card>
        )}
        <DataTable minWidth="36rem" columns={["Name", "Prefix", "Role", "Last used", "Status", ""]}>
          {keys.length === 0 ? (
            <tr>
              <td colSpan={6} className="px-4 py-6 text-center text-slate-500">
                No keys yet.
              </td>
            </tr>
          ) : null}
          {keys.map((key) => (
            <tr key={key.id} data-testid={`key-row-${key.prefix}`} className="border-b border-slate-100 last:border-0">
              <td className="px-4 py-2">{key.name}</td>
              <td className="px-4 py-2 font-mono text-xs">{key.prefix}</td>
              <td className="px-4 py-2">{key.role}</td>
              <td className="px-4 py-2 text-slate-600">{formatDate(key.lastUsedAt)}</td>
              <td className="px-4 py-2">{key.revokedAt ? <Badge tone="red">revoked</Badge> : <Badge tone="green">active</Badge>}</td>
              <td className="px-4 py-2 text-right">{isAdmin && !key.revokedAt ? <RevokeButton id={key.id} label={key.name} /> : null}</td>
            </tr>
          ))}
        </DataTable>
      </div>
    </>
  );
}

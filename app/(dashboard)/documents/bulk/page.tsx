import type { Metadata } from "next";
import { BulkSendForm } from "@/components/documents/bulk-send-form";
import { PageHeader, RoleRefusal } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { SENDERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { listLayouts } from "@/lib/esign/layouts";

export const metadata: Metadata = { title: "Bulk send" };

export default async function BulkSendPage() {
  const { org, role } = await requireDashboard();
  if (!SENDERS.includes(role)) {
    return <RoleRefusal title="Bulk send">Only administrators and contributors can send documents for signing.</RoleRefusal>;
  }
  const layouts = await listLayouts(await db(), org.id);
  return (
    <>
      <PageHeader title="Bulk send" description="One document per row of a CSV, from a saved layout. Rows with a problem are listed and send nothing." />
      <BulkSendForm layouts={layouts.map((l) => ({ id: l.id, name: l.name, roles: l.roles }))} />
    </>
  );
}

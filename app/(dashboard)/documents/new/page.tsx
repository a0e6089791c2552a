import type { Metadata } from "next";
import { NewDocumentForm } from "@/components/documents/new-document-form";
import { PageHeader, RoleRefusal } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { SENDERS } from "@/lib/auth/roles";
import { listDeliverables } from "@/lib/deliverables/list";
import { sql } from "@/lib/db/sql";
import { documentTooLarge, MAX_DOCUMENT_BYTES } from "@/lib/esign/http";
import { db } from "@/lib/db/client";
import { listLayouts } from "@/lib/esign/layouts";
import { orgDefaultLanguage } from "@/lib/orgs/appearance";

export const metadata: Metadata = { title: "Send for signing" };

export default async function NewDocumentPage({ searchParams }: { searchParams: Promise<{ deliverableId?: string }> }) {
  const { org, role } = await requireDashboard();
  const { deliverableId } = await searchParams;
  if (!SENDERS.includes(role)) {
    return <RoleRefusal title="Send for signing">Only administrators and contributors can send documents for signing.</RoleRefusal>;
  }
  const { results } = await listDeliverables(await sql(), org.id, { limit: 100, offset: 0, showTags: false, selectedTags: [] });
  const layouts = await listLayouts(await db(), org.id);
  return (
    <>
      <PageHeader title="Send for signing" description="Step 1 of 2: the document and who signs it. Next you place the fields." />
      <NewDocumentForm
        deliverables={results.map((d) => ({ id: d.id, name: d.name }))}
        layouts={layouts.map((l) => ({ id: l.id, name: l.name, roles: l.roles }))}
        initialDeliverableId={results.some((d) => d.id === deliverableId) ? deliverableId : undefined}
        limit={{ bytes: MAX_DOCUMENT_BYTES, message: documentTooLarge().message }}
        defaultLanguage={await orgDefaultLanguage(await db(), org.id)}
      />
    </>
  );
}

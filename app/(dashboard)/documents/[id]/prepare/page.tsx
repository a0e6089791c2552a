import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { FieldPlacer } from "@/components/documents/field-placer";
import { PageHeader, RoleRefusal } from "@/components/ui";
import { requireDashboard } from "@/lib/auth/dashboard";
import { SENDERS } from "@/lib/auth/roles";
import { draftLayout } from "@/lib/esign/draft-fields";
import { esignDeps } from "@/lib/esign/service";
import { NotFoundError } from "@/lib/errors";

export const metadata: Metadata = { title: "Place fields" };

export default async function PrepareDocumentPage({ params }: { params: Promise<{ id: string }> }) {
  const { org, role } = await requireDashboard();
  const { id } = await params;
  if (!SENDERS.includes(role)) {
    return <RoleRefusal title="Place fields">Only administrators and contributors can prepare documents for signing.</RoleRefusal>;
  }
  const layout = await draftLayout(await esignDeps(), org.id, id).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  // Fields are fixed once a document is out: its page shows status instead.
  if (layout.status !== "draft") redirect(`/documents/${id}`);
  return (
    <>
      <PageHeader title={layout.name} description="Step 2 of 2: place each signer's fields on the pages, then send." />
      <FieldPlacer documentId={layout.id} pages={layout.pages} recipients={layout.recipients} initialFields={layout.fields} tags={layout.tags} />
    </>
  );
}

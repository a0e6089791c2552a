import { db } from "@/lib/db/client";
import { auditTrail } from "@/lib/esign/audit";
import { requireDocument } from "@/lib/esign/documents";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute(signingOperations.getAuditTrail, async ({ principal, params }) => {
  const client = await db();
  const doc = await requireDocument(client, principal.orgId, params.id);
  return dataResponse({ document: { id: doc.id, name: doc.name }, auditTrail: await auditTrail(client, doc.id) });
});

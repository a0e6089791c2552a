import { db } from "@/lib/db/client";
import { deleteDraft } from "@/lib/esign/delete-draft";
import { getDocument } from "@/lib/esign/documents";
import { signingOperations } from "@/lib/esign/operations";
import { esignDeps } from "@/lib/esign/service";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute(signingOperations.getSigningDocument, async ({ principal, params }) =>
  dataResponse(await getDocument(await db(), principal.orgId, params.id)),
);

// Drafts only (docs/contract.md "Signing documents"): 409 DocumentNotDeletable once sent.
export const DELETE = apiRoute(signingOperations.deleteSigningDocument, async ({ principal, params }) =>
  dataResponse(await deleteDraft(await esignDeps(), principal.orgId, params.id)),
);

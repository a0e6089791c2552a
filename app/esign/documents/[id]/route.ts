import { ANY_ROLE, SENDERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { deleteDraft, getDocument } from "@/lib/esign/documents";
import { esignDeps } from "@/lib/esign/service";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute<{ id: string }>({ family: "signing", roles: ANY_ROLE }, async ({ principal, params }) =>
  dataResponse(await getDocument(await db(), principal.orgId, params.id)),
);

// Drafts only (docs/contract.md "Signing documents"): 409 DocumentNotDeletable once sent.
export const DELETE = apiRoute<{ id: string }>({ family: "signing", roles: SENDERS }, async ({ principal, params }) =>
  dataResponse(await deleteDraft(await esignDeps(), principal.orgId, params.id)),
);

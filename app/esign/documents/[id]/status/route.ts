import { ANY_ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { requireDocument } from "@/lib/esign/documents";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute<{ id: string }>({ family: "signing", roles: ANY_ROLE }, async ({ principal, params }) => {
  const doc = await requireDocument(await db(), principal.orgId, params.id);
  return dataResponse({ status: doc.status });
});

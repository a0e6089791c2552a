import { ANY_ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { getDocument } from "@/lib/esign/documents";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute<{ id: string }>({ family: "signing", roles: ANY_ROLE }, async ({ principal, params }) =>
  dataResponse(await getDocument(await db(), principal.orgId, params.id)),
);

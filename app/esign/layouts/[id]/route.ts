import { db } from "@/lib/db/client";
import { deleteLayout, getLayout } from "@/lib/esign/layouts";
import { signingOperations } from "@/lib/esign/operations";
import { esignDeps } from "@/lib/esign/service";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute(signingOperations.getSigningLayout, async ({ principal, params }) =>
  dataResponse(await getLayout(await db(), principal.orgId, params.id)),
);

export const DELETE = apiRoute(signingOperations.deleteSigningLayout, async ({ principal, params }) =>
  dataResponse(await deleteLayout(await esignDeps(), principal.orgId, params.id)),
);

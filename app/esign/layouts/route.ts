import { db } from "@/lib/db/client";
import { createLayout, listLayouts } from "@/lib/esign/layouts";
import { signingOperations } from "@/lib/esign/operations";
import { esignDeps } from "@/lib/esign/service";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute(signingOperations.listSigningLayouts, async ({ principal }) => dataResponse(await listLayouts(await db(), principal.orgId)));

export const POST = apiRoute(signingOperations.createSigningLayout, async ({ principal, json }) =>
  dataResponse(await createLayout(await esignDeps(), principal, await json()), { status: 201 }),
);

import { voidDocument } from "@/lib/esign/documents";
import { esignDeps } from "@/lib/esign/service";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";

export const POST = apiRoute(signingOperations.voidSigningDocument, async ({ req, principal, params, json }) => {
  const { reason } = await json();
  return dataResponse(await voidDocument(await esignDeps(), principal, params.id, reason, requestMeta(req)));
});

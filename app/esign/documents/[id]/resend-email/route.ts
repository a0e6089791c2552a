import { resendDocument } from "@/lib/esign/documents";
import { esignDeps } from "@/lib/esign/service";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";

export const POST = apiRoute(signingOperations.resendSigningEmail, async ({ req, principal, params, json }) => {
  const { recipientIds } = await json();
  return dataResponse(await resendDocument(await esignDeps(), principal, params.id, recipientIds, requestMeta(req)));
});

import { prepareDocument } from "@/lib/esign/documents";
import { withPrepareRequest } from "@/lib/esign/http";
import { esignDeps } from "@/lib/esign/service";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";

export const POST = apiRoute(signingOperations.prepareForReview, async ({ req, principal }) => {
  return withPrepareRequest(req, async (input, file) =>
    dataResponse(await prepareDocument(await esignDeps(), principal, input, file, "review", requestMeta(req))),
  );
});

import { sendDocument } from "@/lib/esign/documents";
import { esignDeps } from "@/lib/esign/service";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";

export const POST = apiRoute(signingOperations.sendSigningDocument, async ({ req, principal, params }) =>
  dataResponse(await sendDocument(await esignDeps(), principal, params.id, requestMeta(req))),
);

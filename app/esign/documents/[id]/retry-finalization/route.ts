import { retryFinalization } from "@/lib/esign/completion";
import { signingDeps } from "@/lib/esign/service";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

// The API twin of the dashboard's "Retry finalization": a signed document whose sealing failed every attempt.
export const POST = apiRoute(signingOperations.retrySigningDocumentFinalization, async ({ principal, params }) =>
  dataResponse(await retryFinalization(await signingDeps(), principal.orgId, params.id)),
);

import { signingUrlDeps } from "@/lib/esign/embedded";
import { issueSigningUrl } from "@/lib/esign/signing-urls";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";

export const POST = apiRoute(signingOperations.createSigningUrl, async ({ req, principal, params, json, admission }) => {
  const input = await json();
  return dataResponse({ results: await issueSigningUrl(await signingUrlDeps(), principal, params.id, input, requestMeta(req), { admission }) });
});

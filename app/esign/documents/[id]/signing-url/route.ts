import { SENDERS } from "@/lib/auth/roles";
import { signingUrlDeps } from "@/lib/esign/embedded";
import { signingUrlSchema } from "@/lib/esign/schemas";
import { issueSigningUrl } from "@/lib/esign/signing-urls";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";
import { parseJsonBody } from "@/lib/http/validation";

export const POST = apiRoute<{ id: string }>({ family: "signing", roles: SENDERS, idempotent: true }, async ({ req, principal, params }) => {
  const input = await parseJsonBody(signingUrlSchema, req);
  return dataResponse({ results: await issueSigningUrl(await signingUrlDeps(), principal, params.id, input, requestMeta(req)) });
});

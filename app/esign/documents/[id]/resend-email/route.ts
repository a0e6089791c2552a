import { SENDERS } from "@/lib/auth/roles";
import { resendDocument } from "@/lib/esign/documents";
import { resendSchema } from "@/lib/esign/schemas";
import { esignDeps } from "@/lib/esign/service";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";
import { parseJsonBody } from "@/lib/http/validation";

export const POST = apiRoute<{ id: string }>({ family: "signing", roles: SENDERS }, async ({ req, principal, params }) => {
  const { recipientIds } = await parseJsonBody(resendSchema, req);
  return dataResponse(await resendDocument(await esignDeps(), principal, params.id, recipientIds, requestMeta(req)));
});

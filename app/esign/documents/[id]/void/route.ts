import { SENDERS } from "@/lib/auth/roles";
import { voidDocument } from "@/lib/esign/documents";
import { voidSchema } from "@/lib/esign/schemas";
import { esignDeps } from "@/lib/esign/service";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";
import { parseJsonBody } from "@/lib/http/validation";

export const POST = apiRoute<{ id: string }>({ family: "signing", roles: SENDERS }, async ({ req, principal, params }) => {
  const { reason } = await parseJsonBody(voidSchema, req);
  return dataResponse(await voidDocument(await esignDeps(), principal, params.id, reason, requestMeta(req)));
});

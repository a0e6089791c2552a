import { SENDERS } from "@/lib/auth/roles";
import { sendDocument } from "@/lib/esign/documents";
import { esignDeps } from "@/lib/esign/service";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { requestMeta } from "@/lib/http/request-meta";

export const POST = apiRoute<{ id: string }>({ family: "signing", roles: SENDERS }, async ({ req, principal, params }) =>
  dataResponse(await sendDocument(await esignDeps(), principal, params.id, requestMeta(req))),
);

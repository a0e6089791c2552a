import { loadSigningSettings, settingsJson } from "@/lib/esign/identity";
import { db } from "@/lib/db/client";
import { UnauthenticatedError } from "@/lib/errors";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { errorResponse } from "@/lib/http/errors";

// Read-only; any valid key may read it. Its only error is 401 (docs/contract.md "Embedded signing"), so an
// organization id that is not the key's own (403 elsewhere) is a 401 here.
const read = apiRoute(signingOperations.getEmbeddedSigningSettings, async ({ principal }) => {
  return dataResponse({ results: settingsJson(await loadSigningSettings(await db(), principal.orgId)) });
});

export async function GET(req: Request, ctx: { params: Promise<Record<string, never>> }): Promise<Response> {
  const res = await read(req, ctx);
  return res.status === 403 ? errorResponse(new UnauthenticatedError("The organization id does not belong to this key"), "signing") : res;
}

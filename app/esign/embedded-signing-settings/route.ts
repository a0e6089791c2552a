import { ANY_ROLE } from "@/lib/auth/roles";
import { loadSigningSettings, settingsJson } from "@/lib/esign/identity";
import { db } from "@/lib/db/client";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

// Read-only; any valid key may read it (interface.md 4.3: its only error is 401).
export const GET = apiRoute({ family: "signing", roles: ANY_ROLE }, async ({ principal }) => {
  return dataResponse({ results: settingsJson(await loadSigningSettings(await db(), principal.orgId)) });
});

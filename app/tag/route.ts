import { ANY_ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { listTags } from "@/lib/tags/tags";

export const GET = apiRoute({ family: "listing", roles: ANY_ROLE }, async ({ principal }) =>
  dataResponse({ results: await listTags(await db(), principal.orgId) }),
);

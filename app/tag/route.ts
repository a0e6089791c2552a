import { db } from "@/lib/db/client";
import { templateOperations } from "@/lib/templates/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { listTags } from "@/lib/tags/tags";

export const GET = apiRoute(templateOperations.listTags, async ({ principal }) => dataResponse({ results: await listTags(await db(), principal.orgId) }));

import { serviceOperations } from "@/lib/server/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute(serviceOperations.whoami, async ({ principal }) =>
  dataResponse({ orgId: principal.orgId, role: principal.role, keyPrefix: principal.keyPrefix }),
);

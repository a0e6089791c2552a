import { ANY_ROLE } from "@/lib/auth/roles";
import { apiRoute, dataResponse } from "@/lib/http/api-route";

export const GET = apiRoute({ family: "deliverable", roles: ANY_ROLE }, async ({ principal }) =>
  dataResponse({ orgId: principal.orgId, role: principal.role, keyPrefix: principal.keyPrefix }),
);

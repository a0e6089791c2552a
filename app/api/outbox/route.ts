import { db } from "@/lib/db/client";
import { serviceOperations } from "@/lib/server/operations";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { listOutbox } from "@/lib/mail/outbox";

// Every email the organization's documents caused, newest first (a mail catcher for development
// and an audit of what was sent in production). Administrators only: mails carry signing links.
export const GET = apiRoute(serviceOperations.listOutbox, async ({ principal, query }) => {
  const q = query();
  return dataResponse(await listOutbox(await db(), { orgId: principal.orgId, ...q }));
});

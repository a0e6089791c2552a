import { ADMINS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { parseQuery } from "@/lib/http/validation";
import { listOutbox } from "@/lib/mail/outbox";
import { listOutboxQuery } from "@/lib/mail/schemas";

// Every email the organization's documents caused, newest first (a mail catcher for development
// and an audit of what was sent in production). Administrators only: mails carry signing links.
export const GET = apiRoute({ family: "deliverable", roles: ADMINS }, async ({ req, principal }) => {
  const q = parseQuery(listOutboxQuery, new URL(req.url).searchParams);
  return dataResponse(await listOutbox(await db(), { orgId: principal.orgId, ...q }));
});

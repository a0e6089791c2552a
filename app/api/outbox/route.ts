import { z } from "zod";
import { ADMINS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { intParam } from "@/lib/http/params";
import { parseQuery } from "@/lib/http/validation";
import { listOutbox } from "@/lib/mail/outbox";

// Every email the organization's documents caused, newest first (a mail catcher for development
// and an audit of what was sent in production). Administrators only: mails carry signing links.
const query = z.object({ to: z.string().max(320).optional(), limit: intParam(20, 1, 100), offset: intParam(0, 0, 10_000_000) });

export const GET = apiRoute({ family: "deliverable", roles: ADMINS }, async ({ req, principal }) => {
  const q = parseQuery(query, new URL(req.url).searchParams);
  return dataResponse(await listOutbox(await db(), { orgId: principal.orgId, ...q }));
});

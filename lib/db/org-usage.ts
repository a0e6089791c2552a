// The org_usage counter row (migrations org_usage, org_usage_templates, org_usage_documents): what an
// organization holds, kept exact by triggers on every write, so an unfiltered list's total is one row
// read, not a count.
import { Prisma } from "@/lib/generated/prisma/client";

/** Active deliverables, active templates, signing documents in every state. */
export type Counted = "deliverables" | "templates" | "documents";

/** The counter as a scalar SQL expression a list statement can carry (0 without a row); `org` is the organization's id as a value or a placeholder. */
export function usageCountSql(what: Counted, org: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`coalesce((SELECT ${Prisma.raw(what)} FROM org_usage WHERE "orgId" = ${org}::uuid), 0)::int`;
}

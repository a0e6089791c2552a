// The org_usage counter row (migrations org_usage, org_usage_templates): what an organization holds,
// kept exact by triggers on every write, so an unfiltered list's total is one row read, not a count.
import type { SqlRunner } from "@/lib/db/sql";

/** The organization's active deliverables or templates, from its counter row (0 without one). */
export async function activeCount(sql: SqlRunner, orgId: string, what: "deliverables" | "templates"): Promise<number> {
  const [row] = await sql.query<{ total: number }>(`SELECT coalesce((SELECT ${what} FROM org_usage WHERE "orgId" = $1::uuid), 0)::int AS total`, [orgId]);
  return row.total;
}

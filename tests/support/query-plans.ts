// Reading what a statement did from EXPLAIN ANALYZE's JSON plan, for tests that hold a query's shape:
// how many rows of a table it read, not only what it answered.
import type { SqlQueryOptions, SqlRunner } from "@/lib/db/driver";

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Heap Fetches"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** Runs the statement under EXPLAIN (ANALYZE, FORMAT JSON) and returns its plan as it ran. */
export async function explainAnalyze(sql: SqlRunner, text: string, params?: unknown[], options?: SqlQueryOptions): Promise<PlanNode> {
  const [{ "QUERY PLAN": explained }] = await sql.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params, options);
  // The driver answers the json column parsed or as text, depending on the database.
  const [{ Plan }] = (typeof explained === "string" ? JSON.parse(explained) : explained) as { Plan: PlanNode }[];
  return Plan;
}

/** `own` summed over a plan's every node. */
function sumOverPlan(node: PlanNode, own: (node: PlanNode) => number): number {
  return own(node) + (node.Plans ?? []).reduce((sum, child) => sum + sumOverPlan(child, own), 0);
}

/** Rows a plan's scans of `table` read, kept or filtered out (an index-only scan's entries included). */
export function rowsRead(plan: PlanNode, table: string): number {
  return sumOverPlan(plan, (node) =>
    node["Relation Name"] === table && node["Node Type"].endsWith("Scan")
      ? (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0)) * node["Actual Loops"]
      : 0,
  );
}

/** Rows a plan read from `table`'s heap: what its table scans returned or filtered out, and an index-only scan's heap fetches. */
export function heapRowsRead(plan: PlanNode, table: string): number {
  return sumOverPlan(plan, (node) => {
    if (node["Relation Name"] !== table || node["Node Type"] === "Bitmap Index Scan") return 0;
    if (node["Node Type"] === "Index Only Scan") return node["Heap Fetches"] ?? 0;
    return (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0)) * node["Actual Loops"];
  });
}

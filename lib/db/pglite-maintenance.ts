// Autovacuum's job for the embedded database. PGlite runs PostgreSQL in single-user mode, which starts
// no autovacuum: without this, its tables would never get fresh planner statistics, dead rows (every
// rate-limit count and queue update leaves one) would never be reclaimed, and no index-only scan would
// ever apply (the template list reads its page's ids that way). So every ten seconds each table past
// autovacuum's thresholds (the server's settings, or the table's own storage parameters) is vacuumed or
// analyzed, one statement at a time: requests queue behind one table's pass, never behind the whole
// database's.
//
// Ten seconds, not autovacuum's minute: an ANALYZE is also what makes PostgreSQL plan its prepared
// statements again, and Quire keeps every statement prepared. A plan made while a table was nearly empty
// (a fresh install, a new document's audit trail) reads the whole table; with a minute between rounds a
// table could grow to thousands of rows under such a plan, in WebAssembly (issue 17: a busy signing-url
// load spent half its database time so, 0.94 ms against 0.47 ms a request). A round that finds nothing
// due costs a read of the statistics counters (about 1.5 ms).
import type { SqlRunner } from "@/lib/db/sql";
import { log } from "@/lib/log";
import { startPoller, stopPoller } from "@/lib/server/poller";

const NAPTIME_MS = 10_000;

// What the statistics system counts for each table (the functions behind pg_stat_user_tables, read
// directly: the view's index counts cost half again as much), and the table's own storage parameters.
// PGlite keeps the counters in memory only, so a restart loses them: a table never analyzed
// (reltuples -1) is analyzed on the next round whatever they say.
const COUNTERS_SQL = `
  SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS "table",
         pg_stat_get_dead_tuples(c.oid)::float8 AS dead, pg_stat_get_ins_since_vacuum(c.oid)::float8 AS inserted,
         pg_stat_get_mod_since_analyze(c.oid)::float8 AS changed, pg_stat_get_live_tuples(c.oid)::float8 AS live,
         c.reltuples < 0 AS "neverAnalyzed", c.reloptions AS options
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_toast'`;
const SETTINGS = [
  "autovacuum_vacuum_threshold",
  "autovacuum_vacuum_scale_factor",
  "autovacuum_vacuum_max_threshold",
  "autovacuum_vacuum_insert_threshold",
  "autovacuum_vacuum_insert_scale_factor",
  "autovacuum_analyze_threshold",
  "autovacuum_analyze_scale_factor",
] as const;
type Setting = (typeof SETTINGS)[number];
/** The server's settings, one row (null for one this PostgreSQL does not have); pg_settings cost six times more. */
const SETTINGS_SQL = `SELECT ${SETTINGS.map((name) => `current_setting('${name}', true) AS ${name}`).join(", ")}`;
type ServerSettings = Record<Setting, string | null>;

interface TableCounters {
  table: string;
  dead: number;
  inserted: number;
  changed: number;
  live: number;
  neverAnalyzed: boolean;
  /** "name=value" storage parameters (ALTER TABLE … SET), or null. */
  options: string[] | null;
}

/**
 * What autovacuum would do to the table now: its rule, threshold + scale factor × live rows, with the
 * server's settings unless the table's own storage parameters override them, and nothing for a table
 * with autovacuum_enabled off. A migration can so spare a table whose every request updates one row
 * (rate_limit_window) the pass it would otherwise get every round, on both databases.
 */
function autovacuumAction(t: TableCounters, server: ServerSettings): "vacuum" | "analyze" | null {
  const own = new Map((t.options ?? []).map((option) => [option.slice(0, option.indexOf("=")), option.slice(option.indexOf("=") + 1)]));
  const setting = (name: Setting) => Number(own.get(name) ?? server[name] ?? Number.NaN);
  if (/^(f|false|n|no|off|0)$/i.test(own.get("autovacuum_enabled") ?? "on")) return null;
  // PostgreSQL 18 caps the dead-row threshold of a big table (autovacuum_vacuum_max_threshold, -1: no cap).
  const cap = setting("autovacuum_vacuum_max_threshold");
  const deadLimit = setting("autovacuum_vacuum_threshold") + setting("autovacuum_vacuum_scale_factor") * t.live;
  if (
    t.dead > (cap >= 0 ? Math.min(deadLimit, cap) : deadLimit) ||
    t.inserted > setting("autovacuum_vacuum_insert_threshold") + setting("autovacuum_vacuum_insert_scale_factor") * t.live
  )
    return "vacuum";
  if (t.neverAnalyzed || t.changed > setting("autovacuum_analyze_threshold") + setting("autovacuum_analyze_scale_factor") * t.live) return "analyze";
  return null;
}

export interface Maintained {
  table: string;
  /** true: VACUUM (ANALYZE); false: ANALYZE alone. */
  vacuumed: boolean;
}

/** One round: every table that is due, in turn, until `stopping` says so. Returns what it did. */
export async function maintainEmbeddedDatabase(sql: SqlRunner, stopping: () => boolean = () => false): Promise<Maintained[]> {
  const [tables, [server]] = await Promise.all([sql.query<TableCounters>(COUNTERS_SQL), sql.query<ServerSettings>(SETTINGS_SQL)]);
  // The most neglected first: dead rows and changes since the last ANALYZE.
  const due = tables
    .map((t) => ({ ...t, action: autovacuumAction(t, server) }))
    .filter((t) => t.action !== null)
    .sort((a, b) => b.dead + b.changed - (a.dead + a.changed) || (a.table < b.table ? -1 : 1));
  const done: Maintained[] = [];
  for (const { table, action } of due) {
    const vacuum = action === "vacuum";
    if (stopping()) break;
    await sql.exec(vacuum ? `VACUUM (ANALYZE) ${table}` : `ANALYZE ${table}`);
    done.push({ table, vacuumed: vacuum });
  }
  return done;
}

const UPKEEP = "embedded database upkeep";

export function startEmbeddedMaintenance(sql: () => Promise<SqlRunner>): void {
  // A round a minute whatever it found: it reports 0 so the loop never runs the next one straight away.
  startPoller({
    name: UPKEEP,
    pass: async (stopping) => {
      const done = await maintainEmbeddedDatabase(await sql(), stopping);
      if (done.length > 0) log.debug({ tables: done }, "embedded database maintained");
      return 0;
    },
    busyMs: NAPTIME_MS,
    idleMs: NAPTIME_MS,
  });
}

/** Stops the loop; a round in progress finishes the table it is on (before the database closes). */
export function stopEmbeddedMaintenance(): Promise<void> {
  return stopPoller(UPKEEP);
}

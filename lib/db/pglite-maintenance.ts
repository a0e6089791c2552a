// Autovacuum's job for the embedded database. PGlite runs PostgreSQL in single-user mode, which starts
// no autovacuum: without this, its tables would never get fresh planner statistics, dead rows (every
// rate-limit count and queue update leaves one) would never be reclaimed, and no index-only scan would
// ever apply (the template list reads its page's ids that way). So every ten seconds each table past
// autovacuum's default thresholds is vacuumed or analyzed, one statement at a time: requests queue behind
// one table's pass, never behind the whole database's.
//
// Ten seconds, not autovacuum's minute: an ANALYZE is also what makes PostgreSQL plan its prepared
// statements again, and Quire keeps every statement prepared. A plan made while a table was nearly empty
// (a fresh install, a new document's audit trail) reads the whole table; with a minute between rounds a
// table could grow to thousands of rows under such a plan, in WebAssembly (issue 17: a busy signing-url
// load spent half its database time so, 0.94 ms against 0.47 ms a request). A round that finds nothing
// due costs one query of the statistics views (about 2 ms).
import type { SqlRunner } from "@/lib/db/sql";
import { log } from "@/lib/log";
import { startPoller, stopPoller } from "@/lib/server/poller";

const NAPTIME_MS = 10_000;

// PostgreSQL's defaults: autovacuum_vacuum_threshold/_scale_factor, autovacuum_vacuum_insert_threshold/
// _scale_factor, autovacuum_analyze_threshold/_scale_factor, on the statistics system's counters. PGlite
// keeps those counters in memory only, so a restart loses them: a table never analyzed (reltuples -1)
// is analyzed on the next round whatever they say.
const DUE_SQL = `
  SELECT quote_ident(s.schemaname) || '.' || quote_ident(s.relname) AS "table",
         (s.n_dead_tup > 50 + 0.2 * s.n_live_tup OR s.n_ins_since_vacuum > 1000 + 0.2 * s.n_live_tup) AS vacuum
  FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
  WHERE s.n_dead_tup > 50 + 0.2 * s.n_live_tup
     OR s.n_ins_since_vacuum > 1000 + 0.2 * s.n_live_tup
     OR s.n_mod_since_analyze > 50 + 0.1 * s.n_live_tup
     OR c.reltuples < 0
  ORDER BY s.n_dead_tup + s.n_mod_since_analyze DESC, s.relname`;

export interface Maintained {
  table: string;
  /** true: VACUUM (ANALYZE); false: ANALYZE alone. */
  vacuumed: boolean;
}

/** One round: every table that is due, in turn, until `stopping` says so. Returns what it did. */
export async function maintainEmbeddedDatabase(sql: SqlRunner, stopping: () => boolean = () => false): Promise<Maintained[]> {
  const due = await sql.query<{ table: string; vacuum: boolean }>(DUE_SQL);
  const done: Maintained[] = [];
  for (const { table, vacuum } of due) {
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

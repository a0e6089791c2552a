// Plain SQL on the driver under Prisma, for the hot paths where Prisma's own cost per query (its query
// compiler and result mapping) is most of the request (issue 17: API-key checks, lists). Same pool,
// same migrated schema: db() runs first, so the migrations have been applied.
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { getDriver, type SqlQueryOptions, type SqlRunner, sqlRunner } from "@/lib/db/driver";
import type { Prisma } from "@/lib/generated/prisma/client";

export type { SqlRunner };

/** A LIKE/ILIKE pattern for "contains", with the user's %, _ and \\ taken literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A statement written with Prisma.sql (values as $n parameters), run on the plain driver; `more` are
 * parameters its raw text numbers after its own values (a carried admission's, ADR 0022).
 */
export function runStatement<T = Record<string, unknown>>(
  runner: SqlRunner,
  statement: Prisma.Sql,
  options?: SqlQueryOptions,
  more: unknown[] = [],
): Promise<T[]> {
  return runner.query<T>(statement.text, more.length ? [...statement.values, ...more] : statement.values, options);
}

export async function sql(): Promise<SqlRunner> {
  await db();
  return sqlRunner(await getDriver(getConfig().database));
}

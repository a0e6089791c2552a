// The Prisma client, on top of the shared driver. `db()` migrates once per process before
// handing out the client, so every entry point (server, seed, tests) sees an up-to-date schema,
// and refuses a process whose instance secret differs from the database's (lib/db/instance-secret.ts).
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { getConfig } from "@/lib/config";
import { closeDriver, getDriver, sqlRunner, type Driver } from "@/lib/db/driver";
import { checkInstanceSecret } from "@/lib/db/instance-secret";
import { applyMigrations } from "@/lib/db/migrate";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { refuseSecondEmbeddedProcess } from "@/lib/server/instance-file";

export type Db = PrismaClient;

const registry = globalThis as unknown as { __quirePrisma?: Promise<PrismaClient> };

async function createClient(): Promise<PrismaClient> {
  const config = getConfig();
  if (config.database.kind === "pglite") refuseSecondEmbeddedProcess(config.dataDir);
  const driver: Driver = await getDriver(config.database);
  await applyMigrations(sqlRunner(driver));
  await checkInstanceSecret(sqlRunner(driver), config.nextAuthSecret);
  // The adapter uses only the part of PGlite that PGliteLike names (query, exec, transaction).
  const adapter = driver.kind === "pglite" ? new PrismaPGlite(driver.pglite as unknown as PGlite) : new PrismaPg(driver.pool);
  return new PrismaClient({ adapter });
}

export function db(): Promise<PrismaClient> {
  registry.__quirePrisma ??= createClient().catch((err) => {
    registry.__quirePrisma = undefined;
    throw err;
  });
  return registry.__quirePrisma;
}

export async function closeDb(): Promise<void> {
  const pending = registry.__quirePrisma;
  registry.__quirePrisma = undefined;
  // $disconnect may already end the pg pool it was given; closeDriver tolerates that.
  if (pending) await (await pending.catch(() => null))?.$disconnect().catch(() => {});
  await closeDriver();
}

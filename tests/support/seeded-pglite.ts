// A real (in-memory) database with Prisma on it and the demo workspace seeded, for unit tests that
// compare what the API's statements answer with what Prisma reads.
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { seedDemoWorkspace } from "@/lib/orgs/seed";
import { type MigratedPGlite, openMigratedPGlite } from "./migrated-pglite";

export interface SeededPGlite extends MigratedPGlite {
  prisma: PrismaClient;
  /** The demo organization and its administrator (the user behind its keys). */
  orgId: string;
  userId: string;
}

/** One per test file: open and seeded from its first beforeAll on (register further hooks after it), closed after the file. */
export function seededPGlite(): Readonly<SeededPGlite> {
  const seeded = {} as SeededPGlite;
  beforeAll(async () => {
    const db = await openMigratedPGlite();
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(db.pglite) });
    const { orgId } = await seedDemoWorkspace(prisma, { baseUrl: "http://quire.test", adminPassword: "password-123", sampleTemplates: false });
    const { userId } = await prisma.apiKey.findFirstOrThrow({ where: { orgId }, select: { userId: true } });
    Object.assign(seeded, { ...db, prisma, orgId, userId });
  }, 60_000);
  afterAll(async () => {
    await seeded.prisma?.$disconnect();
    await seeded.pglite?.close();
  });
  return seeded;
}

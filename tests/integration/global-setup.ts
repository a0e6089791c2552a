import type { TestProject } from "vitest/node";
import { startQuireServer, type QuireTestServer, type TestDatabase } from "../support/quire-server";

declare module "vitest" {
  export interface ProvidedContext {
    quire: QuireTestServer;
  }
}

export default async function setup(project: TestProject) {
  const db = (process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase;
  const { server, stop } = await startQuireServer(db);
  project.provide("quire", server);
  return stop;
}

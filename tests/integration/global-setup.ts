import type { TestProject } from "vitest/node";
import { testCertificates, webhookTestEnv } from "../support/https-receiver";
import { startQuireServer, type QuireTestServer, type TestDatabase } from "../support/quire-server";

declare module "vitest" {
  export interface ProvidedContext {
    quire: QuireTestServer;
  }
}

export default async function setup(project: TestProject) {
  const db = (process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase;
  // Webhook tests run HTTPS receivers on loopback with a throwaway CA the server trusts; the workers
  // find the same certificates through QUIRE_TEST_CERTS_DIR (tests set it from the server's env).
  const certs = testCertificates();
  const { server, stop } = await startQuireServer(db, { extraEnv: { ...webhookTestEnv(), QUIRE_TEST_CERTS_DIR: certs.dir } });
  project.provide("quire", server);
  return stop;
}

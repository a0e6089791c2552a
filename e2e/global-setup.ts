import fs from "node:fs";
import path from "node:path";
import { testCertificates, webhookTestEnv } from "../tests/support/https-receiver";
import { startQuireServer, type TestDatabase } from "../tests/support/quire-server";

// Starts one server for the browser suite; tests read it through e2e/fixtures.ts.
export default async function globalSetup() {
  // The webhook spec runs an HTTPS receiver on loopback; workers inherit QUIRE_TEST_CERTS_DIR.
  process.env.QUIRE_TEST_CERTS_DIR = testCertificates().dir;
  const { server, stop } = await startQuireServer((process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase, { extraEnv: webhookTestEnv() });
  process.env.QUIRE_E2E_BASE_URL = server.baseUrl;
  process.env.QUIRE_E2E_SERVER = JSON.stringify(server);
  fs.mkdirSync(".test-output", { recursive: true });
  fs.writeFileSync(path.join(".test-output", "e2e-server.json"), JSON.stringify({ baseUrl: server.baseUrl, dataDir: server.dataDir }));
  return stop;
}

// npm run seed -- [--json] [--org <slug>] [--rate-limit <requests per minute>] [--plan '<JSON plan overrides>']
//                  [--signing '<JSON embedded signing settings>'] [--identity-providers '<JSON array>']
// Creates (or re-uses) the demo workspace and prints its login and one API key per role.
import { parseArgs } from "node:util";
import { getConfig, persistedSecret } from "@/lib/config";
import { closeDb, db } from "@/lib/db/client";
import { seedDemoWorkspace, type SeedOptions, type SeedResult } from "@/lib/orgs/seed";
import { findRunningServer } from "@/lib/server/instance-file";

const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    org: { type: "string" },
    "rate-limit": { type: "string" },
    plan: { type: "string" },
    signing: { type: "string" },
    "identity-providers": { type: "string" },
  },
});

async function main(): Promise<SeedResult> {
  const config = getConfig();
  const options: SeedOptions = {
    baseUrl: config.baseUrl,
    orgSlug: values.org,
    orgName: values.org ? `${values.org} workspace` : undefined,
    adminPassword: process.env.SEED_ADMIN_PASSWORD ?? persistedSecret(config.dataDir, "demoAdminPassword"),
    rateLimitPerMinute: values["rate-limit"] ? Number(values["rate-limit"]) : undefined,
    plan: values.plan ? (JSON.parse(values.plan) as SeedOptions["plan"]) : undefined,
    signing: values.signing ? (JSON.parse(values.signing) as SeedOptions["signing"]) : undefined,
    identityProviders: values["identity-providers"] ? (JSON.parse(values["identity-providers"]) as SeedOptions["identityProviders"]) : undefined,
  };
  // The embedded database is single-process: when a server holds it, seed through that server.
  const running = config.database.kind === "pglite" ? findRunningServer(config.dataDir) : null;
  if (running) {
    const res = await fetch(`${running.baseUrl}/api/internal/seed`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-quire-local-secret": persistedSecret(config.dataDir, "localAdminSecret") },
      body: JSON.stringify({ ...options, baseUrl: running.baseUrl }),
    });
    if (!res.ok) throw new Error(`The running server (pid ${running.pid}) refused to seed: ${res.status} ${await res.text()}`);
    return (await res.json()) as SeedResult;
  }
  try {
    return await seedDemoWorkspace(await db(), { ...options, instanceSecret: config.nextAuthSecret });
  } finally {
    await closeDb();
  }
}

main().then(
  (result) => {
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return;
    }
    const lines = [
      `Quire demo workspace (${result.orgId})`,
      `  URL:       ${result.baseUrl}`,
      `  Login:     ${result.login.email} / ${result.login.password}`,
      `  Org id:    ${result.orgId}   (send as x-service-org-id)`,
      ...Object.entries(result.keys).map(([role, key]) => `  ${role.padEnd(13)} ${key}`),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  },
  (err) => {
    process.stderr.write(`seed failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

#!/usr/bin/env node
// `npm test`: every suite, the way CI runs it, ending with one summary line.
//   build -> unit (vitest) -> integration on PGlite -> integration on PostgreSQL -> browser (Playwright)
// Integration and browser suites start the built server and talk to it over HTTP.
// Env: QUIRE_TEST_SKIP_BUILD=1 reuses .next; QUIRE_TEST_ONLY=unit,integration-pglite,... picks phases;
//      QUIRE_TEST_POSTGRES_URL overrides the admin URL of the PostgreSQL used for tests.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const out = path.join(root, ".test-output");
fs.mkdirSync(out, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const bin = (name) => path.join(root, "node_modules", ".bin", name);

function run(cmd, args, extraEnv = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  return r.status ?? 1;
}

function prepare() {
  if (!fs.existsSync(path.join(root, "node_modules"))) {
    console.log("[test] installing Node packages");
    if (run("bash", ["scripts/install-node-deps.sh"]) !== 0) process.exit(1);
  }
  if (!fs.existsSync(env.CHROMIUM_PATH ?? "/usr/bin/chromium") || !fs.existsSync("/usr/bin/pdftotext")) {
    console.log("[test] installing system packages for tests");
    if (run("bash", ["scripts/install-system-deps.sh", "--test"]) !== 0) process.exit(1);
  }
}

function vitestCounts(file) {
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  return { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests };
}

function playwrightCounts(file) {
  const { stats } = JSON.parse(fs.readFileSync(file, "utf8"));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
}

const phases = [
  { id: "check", title: "Format, lint, import layers and types (npm run check)", cmd: ["npm", ["run", "check"]] },
  { id: "build", title: "Build (Prisma client, type check, Next.js)", cmd: ["npm", ["run", "build"]], skip: env.QUIRE_TEST_SKIP_BUILD === "1" },
  { id: "unit", title: "Unit tests", vitest: "unit" },
  { id: "integration-pglite", title: "Integration tests over HTTP on embedded PGlite", vitest: "integration", env: { QUIRE_TEST_DB: "pglite" } },
  { id: "integration-postgres", title: "Integration tests over HTTP on PostgreSQL", vitest: "integration", env: { QUIRE_TEST_DB: "postgres" } },
  { id: "e2e", title: "Browser tests (Playwright, Chromium)", playwright: true, env: { QUIRE_TEST_DB: "pglite" } },
];

const only = env.QUIRE_TEST_ONLY?.split(",").map((s) => s.trim());
prepare();

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
for (const phase of phases) {
  if (phase.skip || (only && !only.includes(phase.id) && phase.id !== "build")) continue;
  console.log(`\n=== ${phase.title} ===`);
  const started = Date.now();
  let status;
  let counts = null;
  const report = path.join(out, `${phase.id}.json`);
  fs.rmSync(report, { force: true });
  if (phase.cmd) {
    status = run(phase.cmd[0], phase.cmd[1], phase.env);
  } else if (phase.vitest) {
    status = run(bin("vitest"), ["run", "--project", phase.vitest, "--reporter=default", "--reporter=json", `--outputFile=${report}`], phase.env);
    if (fs.existsSync(report)) counts = vitestCounts(report);
  } else {
    // playwright.config.ts writes its JSON report to .test-output/e2e.json (= report).
    status = run(bin("playwright"), ["test"], phase.env);
    if (fs.existsSync(report)) counts = playwrightCounts(report);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (counts) {
    // A suite that exited non-zero without a failing test (crash, setup error) still counts as a failure.
    if (status !== 0 && counts.failed === 0) counts.failed = 1;
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
    lines.push(
      `${phase.id.padEnd(22)} ${status === 0 ? "ok  " : "FAIL"} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${seconds}s)`,
    );
  } else {
    if (status !== 0) totals.failed += 1;
    lines.push(`${phase.id.padEnd(22)} ${status === 0 ? "ok  " : "FAIL"} (${seconds}s)`);
    if (phase.id === "build" && status !== 0) break; // nothing else can run without a build
  }
}

console.log(`\n=== Summary ===\n${lines.join("\n")}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);

#!/usr/bin/env node
// `npm test`: every suite, the way CI runs it, ending with one summary line.
//   build -> unit (vitest) -> integration on PGlite and on PostgreSQL, side by side -> browser (Playwright)
// Integration and browser suites start the built server and talk to it over HTTP. The two integration
// halves share nothing (each has its own server, database, ports and temp dirs) and spend much of their
// time waiting on servers and LibreOffice, so they run at once; each writes its log to .test-output/
// and the logs are printed whole, one after the other, when both are done.
// Env: QUIRE_TEST_SKIP_BUILD=1 reuses .next; QUIRE_TEST_ONLY=unit,integration-pglite,... picks phases;
//      QUIRE_TEST_POSTGRES_URL overrides the admin URL of the PostgreSQL used for tests.
import { spawn, spawnSync } from "node:child_process";
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

/** run() in the background, its output to `logFile`: resolves with the exit status. */
function runToFile(cmd, args, extraEnv, logFile) {
  const fd = fs.openSync(logFile, "w");
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", fd, fd], env: { ...env, ...extraEnv } });
    child.on("error", () => resolve(1));
    child.on("close", (code) => {
      fs.closeSync(fd);
      resolve(code ?? 1);
    });
  });
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

// The summary names each failing test, with the first line of its error: a CI log is often read from
// its tail only, and a rare failure must be identifiable from there.
const firstLine = (text) =>
  (text ?? "")
    .replace(/\x1b\[[0-9;]*m/g, "")
    .trim()
    .split("\n")[0]
    .slice(0, 200);

function vitestFailures(file) {
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  const failures = [];
  for (const f of r.testResults) {
    const name = path.relative(root, f.name);
    const failed = f.assertionResults.filter((t) => t.status === "failed");
    for (const t of failed) failures.push(`${name} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    // A file can fail outside its tests (an import, a hook).
    if (f.status === "failed" && failed.length === 0) failures.push(`${name}: ${firstLine(f.message)}`);
  }
  return failures;
}

function playwrightFailures(file) {
  const failures = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === "unexpected") failures.push(`${spec.file}:${spec.line} › ${spec.title}: ${firstLine(t.results?.at(-1)?.error?.message)}`);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of JSON.parse(fs.readFileSync(file, "utf8")).suites ?? []) walk(suite);
  return failures;
}

function playwrightCounts(file) {
  const { stats } = JSON.parse(fs.readFileSync(file, "utf8"));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
}

const phases = [
  { id: "check", title: "Format, lint, import layers and types (npm run check)", cmd: ["npm", ["run", "check"]] },
  { id: "build", title: "Build (Prisma client, type check, Next.js)", cmd: ["npm", ["run", "build"]], skip: env.QUIRE_TEST_SKIP_BUILD === "1" },
  { id: "unit", title: "Unit tests", vitest: "unit" },
  {
    id: "integration-pglite",
    title: "Integration tests over HTTP on embedded PGlite",
    vitest: "integration",
    env: { QUIRE_TEST_DB: "pglite" },
    together: "integration",
  },
  {
    id: "integration-postgres",
    title: "Integration tests over HTTP on PostgreSQL",
    vitest: "integration",
    env: { QUIRE_TEST_DB: "postgres" },
    together: "integration",
  },
  { id: "e2e", title: "Browser tests (Playwright, Chromium)", playwright: true, env: { QUIRE_TEST_DB: "pglite" } },
];

const only = env.QUIRE_TEST_ONLY?.split(",").map((s) => s.trim());
prepare();

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function command(phase, report) {
  if (phase.cmd) return phase.cmd;
  if (phase.vitest) return [bin("vitest"), ["run", "--project", phase.vitest, "--reporter=default", "--reporter=json", `--outputFile=${report}`]];
  // playwright.config.ts writes its JSON report to .test-output/e2e.json (= report).
  return [bin("playwright"), ["test"]];
}

/** Adds a finished phase to the totals and the summary; false when nothing after it can run. */
function record(phase, status, seconds, report) {
  const counts = phase.cmd || !fs.existsSync(report) ? null : phase.vitest ? vitestCounts(report) : playwrightCounts(report);
  if (counts) {
    // A suite that exited non-zero without a failing test (crash, setup error) still counts as a failure.
    if (status !== 0 && counts.failed === 0) counts.failed = 1;
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
    lines.push(
      `${phase.id.padEnd(22)} ${status === 0 ? "ok  " : "FAIL"} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${seconds}s)`,
    );
    if (status !== 0) for (const failure of (phase.vitest ? vitestFailures : playwrightFailures)(report)) lines.push(`  failed: ${failure}`);
    return true;
  }
  if (status !== 0) totals.failed += 1;
  lines.push(`${phase.id.padEnd(22)} ${status === 0 ? "ok  " : "FAIL"} (${seconds}s)`);
  return !(phase.id === "build" && status !== 0); // nothing else can run without a build
}

const reportOf = (phase) => {
  const report = path.join(out, `${phase.id}.json`);
  fs.rmSync(report, { force: true });
  return report;
};
const chosen = phases.filter((phase) => !phase.skip && (!only || only.includes(phase.id) || phase.id === "build"));
for (let i = 0; i < chosen.length; i++) {
  const phase = chosen[i];
  let end = i + 1;
  while (phase.together && end < chosen.length && chosen[end].together === phase.together) end++;
  const group = chosen.slice(i, end);
  if (group.length > 1) {
    console.log(`\n=== ${group.map((p) => p.title).join(" | ")} (at once; logs follow when both are done) ===`);
    const started = Date.now();
    const runs = await Promise.all(
      group.map(async (p) => {
        const report = reportOf(p);
        const log = path.join(out, `${p.id}.log`);
        const [cmd, args] = command(p, report);
        const status = await runToFile(cmd, args, p.env, log);
        return { p, status, seconds: ((Date.now() - started) / 1000).toFixed(1), report, log };
      }),
    );
    for (const r of runs) {
      console.log(`\n=== ${r.p.title} (${r.seconds}s) ===`);
      process.stdout.write(fs.readFileSync(r.log, "utf8"));
      record(r.p, r.status, r.seconds, r.report);
    }
    i += group.length - 1;
    continue;
  }
  console.log(`\n=== ${phase.title} ===`);
  const started = Date.now();
  const report = reportOf(phase);
  const [cmd, args] = command(phase, report);
  const status = run(cmd, args, phase.env);
  if (!record(phase, status, ((Date.now() - started) / 1000).toFixed(1), report)) break;
}

console.log(`\n=== Summary ===\n${lines.join("\n")}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);

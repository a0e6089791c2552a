#!/usr/bin/env node
// npm run fuzz: the property-based fuzz test (tests/integration/fuzz.test.ts) for longer than in
// `npm test`. Env: QUIRE_FUZZ_RUNS (default 5000), QUIRE_FUZZ_SEED (default: a new one, printed),
// QUIRE_TEST_DB (pglite or postgres, default pglite). Builds first when there is no build.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const env = {
  ...process.env,
  QUIRE_FUZZ_RUNS: process.env.QUIRE_FUZZ_RUNS ?? "5000",
  QUIRE_FUZZ_SEED: process.env.QUIRE_FUZZ_SEED ?? String(Date.now() % 2 ** 31),
  QUIRE_TEST_DB: process.env.QUIRE_TEST_DB ?? "pglite",
};
console.log(`[fuzz] ${env.QUIRE_FUZZ_RUNS} runs, seed ${env.QUIRE_FUZZ_SEED} (repeat with QUIRE_FUZZ_SEED=${env.QUIRE_FUZZ_SEED}), ${env.QUIRE_TEST_DB}`);
if (!fs.existsSync(".next/BUILD_ID") && spawnSync("npm", ["run", "build"], { stdio: "inherit" }).status !== 0) process.exit(1);
const r = spawnSync("npx", ["vitest", "run", "--project", "integration", "tests/integration/fuzz.test.ts"], { stdio: "inherit", env });
process.exit(r.status ?? 1);

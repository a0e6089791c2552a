// Fault injection for the crash tests (QUIRE_TEST_CRASH_AT, QUIRE_TEST_FAIL_SEAL): the server kills
// itself at a named point of the last signature, once per DATA_DIR (a marker file says it happened,
// so the restarted server gets past it), or the first N seals fail. Unset, both do nothing.
import fs from "node:fs";
import path from "node:path";
import { type CrashPoint, getConfig } from "@/lib/config";

export function crashPoint(point: CrashPoint): void {
  const config = getConfig();
  if (!config.testFaults.crashAt.includes(point)) return;
  const marker = path.join(config.dataDir, `.test-crashed-${point}`);
  if (fs.existsSync(marker)) return;
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(marker, String(process.pid));
  process.kill(process.pid, "SIGKILL");
}

// On globalThis: Next.js may load this module once per bundle (routes, instrumentation), and the
// count is the process's.
const counter = globalThis as unknown as { __quireSealFailures?: number };

/** Throws while fewer than QUIRE_TEST_FAIL_SEAL seals have failed in this process. */
export function injectedSealFailure(): void {
  const failed = counter.__quireSealFailures ?? 0;
  if (failed < getConfig().testFaults.failSeals) {
    counter.__quireSealFailures = failed + 1;
    throw new Error(`injected sealing failure ${failed + 1} (QUIRE_TEST_FAIL_SEAL)`);
  }
}

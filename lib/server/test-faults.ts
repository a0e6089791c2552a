// Fault injection for the crash and race tests (QUIRE_TEST_CRASH_AT, QUIRE_TEST_FAIL_SEAL,
// QUIRE_TEST_HOLDS): the server kills itself at a named point of the last signature, once per DATA_DIR
// (a marker file says it happened, so the restarted server gets past it), the first N seals fail, or a
// request waits at a named point while the test holds it there. Unset, all three do nothing.
import crypto from "node:crypto";
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

/** The marker file that holds requests at `point` (a test writes it into DATA_DIR and removes it to let them go). */
export function holdMarker(dataDir: string, point: string): string {
  return path.join(dataDir, `.test-hold-${crypto.createHash("sha256").update(point).digest("hex")}`);
}

const HOLD_LIMIT_MS = 30_000;

/** Where the last signature's request waits, committed and before it runs the completion it holds. */
export const SIGNATURE_COMMITTED_HOLD = "signature-committed";

/**
 * Under QUIRE_TEST_HOLDS, waits (at most 30 s) while the marker for `point` exists, so a test can keep
 * one request in the middle of its work and see, deterministically, what others get meanwhile.
 */
export async function heldForTest(point: string): Promise<void> {
  const config = getConfig();
  if (!config.testFaults.holds) return;
  const marker = holdMarker(config.dataDir, point);
  for (const until = Date.now() + HOLD_LIMIT_MS; fs.existsSync(marker) && Date.now() < until; ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export { as, authHeaders, call, type ApiReply } from "./api";
import type { QuireTestServer } from "./quire-server";
import { runSeedInBackground } from "./quire-server";

/** Runs `npm run seed` against a running test server's database (through the server on PGlite). */
export function runSeedAgainst(server: QuireTestServer, args: string[] = []) {
  return runSeedInBackground(server.env, args);
}

/**
 * Waits, when fewer than `seconds` of the clock's minute are left, until the next one begins: the rate
 * limit counts per minute of the clock, and a test that counts must not cross into the next.
 */
export async function roomInThisMinute(seconds: number): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 60_000 - seconds * 1000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
}

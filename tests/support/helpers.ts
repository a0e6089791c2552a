export { as, authHeaders, call, type ApiReply } from "./api";
import type { QuireTestServer } from "./quire-server";
import { runSeedInBackground } from "./quire-server";

/** Runs `npm run seed` against a running test server's database (through the server on PGlite). */
export function runSeedAgainst(server: QuireTestServer, args: string[] = []) {
  return runSeedInBackground(server.env, args);
}

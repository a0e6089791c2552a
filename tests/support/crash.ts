// Helpers for the crash tests: wait for a condition, for a server that killed itself to go down, and
// start it again on the same DATA_DIR and database.
import type { RunningQuire } from "./quire-server";

export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits for the server to kill itself (its port stops answering). */
export async function untilDown(baseUrl: string): Promise<void> {
  await until(
    `${baseUrl} to go down`,
    () =>
      fetch(`${baseUrl}/api/health`).then(
        () => false,
        () => true,
      ),
    60_000,
  );
}

/** Restarts a server that killed itself; it may die again during start-up (its worker crashing), so retry. */
export async function restartAfterCrash(quire: RunningQuire): Promise<void> {
  await untilDown(quire.server.baseUrl);
  for (let i = 0; ; i++) {
    try {
      await quire.restart();
      return;
    } catch (err) {
      if (i >= 3) throw err;
    }
  }
}

// The background queues' poller: it drains a backlog in one go, backs off while the queue stays
// empty (so an idle server stops querying its database several times a second), comes back to the
// short wait on a kick or when a pass finds work, and stops cleanly with a pass under way.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { kickPoller, startPoller, stopPoller } from "@/lib/server/poller";

beforeEach(() => vi.useFakeTimers());
afterEach(async () => {
  await stopPoller("webhook deliveries");
  vi.useRealTimers();
});

/** Starts a poller whose passes return the queued answers (then 0), recording when each ran. */
function poll(answers: number[] = []) {
  const at: number[] = [];
  startPoller({
    name: "webhook deliveries",
    pass: async () => {
      at.push(Date.now());
      return answers.shift() ?? 0;
    },
    busyMs: 100,
    idleMs: 800,
  });
  return at;
}

const gaps = (at: number[]) => at.slice(1).map((t, i) => t - at[i]);

describe("startPoller", () => {
  it("doubles its wait while the queue stays empty, up to idleMs", async () => {
    const at = poll();
    await vi.advanceTimersByTimeAsync(100 + 200 + 400 + 800 + 800 + 1);
    expect(gaps(at)).toEqual([200, 400, 800, 800]);
  });

  it("drains a backlog without waiting, then looks again at the short wait", async () => {
    const at = poll([5, 3]);
    await vi.advanceTimersByTimeAsync(100);
    expect(at.length).toBe(3); // 5, 3, then the empty pass that ends the drain
    await vi.advanceTimersByTimeAsync(100);
    expect(at.length).toBe(4);
  });

  it("looks again soon after a kick, however long it had backed off", async () => {
    const at = poll();
    await vi.advanceTimersByTimeAsync(100 + 200 + 400 + 800 + 1);
    const before = at.length;
    kickPoller("webhook deliveries");
    await vi.advanceTimersByTimeAsync(100);
    expect(at.length).toBe(before + 1);
    // …and keeps the short wait once more before backing off again.
    await vi.advanceTimersByTimeAsync(200);
    expect(at.length).toBe(before + 2);
  });

  it("stops: no pass after stop, and a second start is one poller, not two", async () => {
    const at = poll();
    poll();
    await vi.advanceTimersByTimeAsync(100);
    expect(at.length).toBe(1);
    await stopPoller("webhook deliveries");
    await vi.advanceTimersByTimeAsync(5_000);
    expect(at.length).toBe(1);
    kickPoller("webhook deliveries"); // nothing runs: a kick with no poller is a no-op
    await vi.advanceTimersByTimeAsync(1_000);
    expect(at.length).toBe(1);
  });
});

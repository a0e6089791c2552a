// One loop for the background queues every instance polls (webhook deliveries, signed documents to
// complete): a pass runs until it finds nothing, then the loop waits. While a queue stays empty the
// wait doubles up to `idleMs`, so an idle server does not query its database several times a second;
// work recorded by this process kicks its queue back to the short wait at once, and work found by a
// pass keeps it there. Another instance's work waits at most `idleMs`.
import { log } from "@/lib/log";

/** The queues, and the embedded database's upkeep (a round every ten seconds): one poller each per process. */
export type QueueName = "webhook deliveries" | "document completions" | "signing reminders" | "bulk sends" | "embedded database upkeep";

export interface PollerOptions {
  /** Named in logs and in kickPoller(). */
  name: QueueName;
  /** One pass: how many items it handled (0: the queue looked empty). `stopping` turns true at shutdown. */
  pass: (stopping: () => boolean) => Promise<number>;
  /** The wait after a pass that found work, or after a kick. */
  busyMs: number;
  /** The longest wait while the queue stays empty. */
  idleMs: number;
}

interface Poller {
  stop: () => Promise<void>;
  kick: () => void;
}

// On globalThis: Next.js may load this module more than once; one poller per queue per process.
const pollers = globalThis as unknown as { __quirePollers?: Map<QueueName, Poller> };
const registry = (pollers.__quirePollers ??= new Map<QueueName, Poller>());

export function startPoller({ name, pass, busyMs, idleMs }: PollerOptions): void {
  if (registry.has(name)) return;
  let running: Promise<void> | null = null;
  let stopped = false;
  let wait = busyMs;
  let kicked = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    if (running || stopped) return;
    kicked = false;
    running = (async () => {
      let handled = 0;
      const stopping = () => stopped;
      try {
        // Keep going while there is a backlog.
        for (let n = await pass(stopping); n > 0 && !stopped; n = await pass(stopping)) handled += n;
      } catch (err) {
        log.error({ err: err instanceof Error ? err.message : String(err) }, `${name} pass failed`);
      } finally {
        running = null;
        wait = handled > 0 || kicked ? busyMs : Math.min(idleMs, wait * 2);
        if (!stopped) schedule(wait);
      }
    })();
  };
  registry.set(name, {
    kick: () => {
      wait = busyMs;
      kicked = true;
      // A pass under way reschedules itself when it ends; otherwise look again soon (the work may still
      // be in a transaction that has not committed: the short wait covers that).
      if (!running && !stopped) schedule(busyMs);
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      registry.delete(name);
    },
  });
  schedule(busyMs);
}

/** Every queue: poll each soon (the test clock moved, so timed work may be due). */
export function kickAllPollers(): void {
  for (const poller of registry.values()) poller.kick();
}

/** This process recorded work for `name`'s queue: poll it soon. A no-op where no poller runs (serverless, tests). */
export function kickPoller(name: QueueName): void {
  registry.get(name)?.kick();
}

export async function stopPoller(name: QueueName): Promise<void> {
  await registry.get(name)?.stop();
}

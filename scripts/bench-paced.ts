// Size: one idea, a load at a steady rate. Requests leave evenly spaced (one every 1/rate s) over a pool of
// keep-alive connections, and each latency is counted from when its request was due, not from when a free
// connection sent it: a server that falls behind shows its queue in the percentiles (no coordinated
// omission). This is what "holds N requests/s with p99 <= X" asks for. autocannon's rate instead lets each
// connection send its share of every second back to back at the top of the second: at 200/s over 20
// connections, a burst of 20 requests at once, ten times over, then a pause (issue 17).
import http from "node:http";
import { performance } from "node:perf_hooks";

export interface PacedOptions {
  url: string;
  path: string;
  headers: Record<string, string>;
  /** Requests per second, evenly spaced. */
  rate: number;
  seconds: number;
  /** At most this many requests in flight; the rest wait for a connection (and that wait is counted). */
  connections: number;
  timeoutMs: number;
  /** Looks at each 2xx body; a body it refuses counts as a failure. */
  check: (body: string) => boolean;
  /** Called about once a second with what has been answered so far. */
  progress?: (answered: number, elapsedSeconds: number) => void;
}

/** What a load run measured, paced or not (bench-load.ts adds the CPU it cost). */
export interface LoadOutcome {
  /** Answers per second, over the run or until the last answer if that came later. */
  achieved: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** 2xx answers whose body was not what the scenario expects. */
  badBodies: number;
  errors: number;
  timeouts: number;
  errorCodes: Record<string, number>;
}

export interface PacedResult extends LoadOutcome {
  sent: number;
  answered: number;
  statusCodes: Record<number, number>;
}

/** The value at quantile q of sorted values (nearest rank), to 0.1 ms. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] * 10) / 10;
}

export async function pacedLoad(o: PacedOptions): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const target = new URL(o.path, o.url);
  const total = Math.round(o.rate * o.seconds);
  const latencies: number[] = [];
  const statusCodes: Record<number, number> = {};
  const errorCodes: Record<string, number> = {};
  let non2xx = 0;
  let badBodies = 0;
  let errors = 0;
  let timeouts = 0;
  let sent = 0;
  let lastAnswer = 0;
  let inFlight = 0;
  let allSent!: () => void;
  const sending = new Promise<void>((resolve) => {
    allSent = resolve;
  });
  let drained: (() => void) | undefined;

  const settle = () => {
    inFlight--;
    lastAnswer = performance.now();
    if (inFlight === 0) drained?.();
  };
  const fail = (code: string) => {
    errors++;
    errorCodes[code] = (errorCodes[code] ?? 0) + 1;
    settle();
  };
  const send = (due: number) => {
    inFlight++;
    sent++;
    const req = http.request(target, { agent, headers: o.headers, timeout: o.timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        statusCodes[status] = (statusCodes[status] ?? 0) + 1;
        if (status < 200 || status >= 300) non2xx++;
        else if (!o.check(Buffer.concat(chunks).toString("utf8"))) badBodies++;
        latencies.push(performance.now() - due);
        settle();
      });
      res.on("error", (err: NodeJS.ErrnoException) => fail(err.code ?? err.message));
    });
    req.on("timeout", () => {
      timeouts++;
      req.destroy(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" }));
    });
    req.on("error", (err: NodeJS.ErrnoException) => fail(err.code ?? err.message));
    req.end();
  };

  const started = performance.now();
  let lastProgress = started;
  const tick = () => {
    const now = performance.now();
    // Every request whose time has come, each stamped with its own due time.
    const due = Math.min(total, Math.floor(((now - started) * o.rate) / 1000) + 1);
    while (sent < due) send(started + (sent * 1000) / o.rate);
    if (o.progress && now - lastProgress >= 1000) {
      lastProgress = now;
      o.progress(latencies.length, (now - started) / 1000);
    }
    if (sent < total) setTimeout(tick, 1);
    else allSent();
  };
  tick();
  await sending;
  if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const elapsed = Math.max(o.seconds * 1000, lastAnswer - started) / 1000;
  return {
    sent,
    answered: latencies.length,
    achieved: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    non2xx,
    badBodies,
    errors,
    timeouts,
    errorCodes,
    statusCodes,
  };
}

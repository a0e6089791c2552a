// The bench's steady-rate load (scripts/bench-paced.ts): requests really leave evenly spaced, and a
// server that falls behind shows its queue in the latencies (counted from each request's due time).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { pacedLoad, quantile } from "../../scripts/bench-paced";

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A local server; `handle` answers each request (it may wait). */
async function serve(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<string> {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const base = { path: "/", headers: {}, connections: 20, timeoutMs: 5_000, check: (body: string) => body === "ok" };

describe("pacedLoad", () => {
  it("sends at an even pace, not in bursts", async () => {
    const arrivals: number[] = [];
    const url = await serve((_req, res) => {
      arrivals.push(performance.now());
      res.end("ok");
    });
    const r = await pacedLoad({ ...base, url, rate: 50, seconds: 1 });
    expect(r).toMatchObject({ sent: 50, answered: 50, non2xx: 0, badBodies: 0, errors: 0 });
    expect(r.achieved).toBeGreaterThan(45);
    // 20 ms apart: no 10 ms window holds more than a few arrivals (a late timer may send two at once; autocannon's rate would put 20 in one).
    const crowded = arrivals.map((t) => arrivals.filter((u) => u >= t && u < t + 10).length);
    expect(Math.max(...crowded)).toBeLessThanOrEqual(4);
    expect(arrivals[arrivals.length - 1] - arrivals[0]).toBeGreaterThan(900);
  });

  it("counts a falling-behind server's queue in the latencies and the rate", async () => {
    // One answer at a time, 40 ms each, asked for 50/s (one every 20 ms): the queue grows by half a request per request.
    let busyUntil = 0;
    const url = await serve((_req, res) => {
      busyUntil = Math.max(busyUntil, performance.now()) + 40;
      setTimeout(() => res.end("ok"), busyUntil - performance.now());
    });
    const r = await pacedLoad({ ...base, url, rate: 50, seconds: 1 });
    expect(r.answered).toBe(50);
    expect(r.p50).toBeGreaterThan(300);
    expect(r.p99).toBeGreaterThan(800);
    expect(r.achieved).toBeLessThan(30);
  });

  it("counts non-2xx answers and 2xx bodies the check refuses", async () => {
    let n = 0;
    const url = await serve((_req, res) => {
      n++;
      if (n % 5 === 0) res.writeHead(503).end("busy");
      else res.end(n % 5 === 1 ? "not ok" : "ok");
    });
    const r = await pacedLoad({ ...base, url, rate: 100, seconds: 0.5 });
    expect(r).toMatchObject({ sent: 50, answered: 50, non2xx: 10, badBodies: 10, statusCodes: { 200: 40, 503: 10 } });
  });
});

describe("quantile", () => {
  it("takes the nearest rank, to 0.1 ms", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1.04);
    expect([quantile(values, 0.5), quantile(values, 0.99), quantile(values, 1), quantile([7.26], 0.99)]).toEqual([50, 99, 100, 7.3]);
    expect(quantile([], 0.5)).toBeNaN();
  });
});

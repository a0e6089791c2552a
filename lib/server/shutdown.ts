// Graceful shutdown on SIGTERM/SIGINT: stop accepting connections, let the requests in flight and the
// background work (webhook attempts) finish within SHUTDOWN_TIMEOUT_MS, then close the converter and
// the database and exit 0 (1 when the time ran out).
//
// Why not Next.js's own handler: `next start` (start-server.js) closes the HTTP server on a signal and
// then exits (code 143) as soon as the last response is sent, with no time limit and without waiting for
// work outside requests. Quire's server (scripts/quire-server.cjs) starts Next.js without start-server.js,
// which installs no handler; under a plain `next start`, deployments set NEXT_MANUAL_SIG_HANDLE=true (Next.js
// then installs none), and when it is not set the handler Next.js registered before instrumentation ran is
// removed here.
// Next.js gives no handle on its HTTP server: it is learned from Node's `http.server.request.start`
// diagnostics channel, which also counts the requests in flight.
import diagnostics_channel from "node:diagnostics_channel";
import type { Server, ServerResponse } from "node:http";
import { log } from "@/lib/log";

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

export interface ShutdownPlan {
  timeoutMs: number;
  /** Background work to stop and wait for while requests finish (e.g. the webhook worker). */
  drain: ShutdownStep[];
  /** Resources to release once nothing uses them any more (converter, database). */
  close: ShutdownStep[];
}

interface HttpState {
  servers: Set<Server>;
  inFlight: Set<ServerResponse>;
  onIdle: (() => void)[];
  closing: boolean;
}

/** Kept at the end of the shutdown time for closing the converter and the database. */
const CLOSE_RESERVE_MS = 5_000;

const STATE_KEY = Symbol.for("quire.shutdown");
const g = globalThis as typeof globalThis & { [STATE_KEY]?: HttpState };

function stopAccepting(server: Server): void {
  // close() refuses new connections; idle keep-alive sockets would otherwise stay open until they time out.
  if (server.listening) server.close();
  server.closeIdleConnections();
}

function trackHttp(): HttpState {
  if (g[STATE_KEY]) return g[STATE_KEY];
  const state: HttpState = { servers: new Set(), inFlight: new Set(), onIdle: [], closing: false };
  g[STATE_KEY] = state;
  diagnostics_channel.subscribe("http.server.request.start", (message) => {
    const { response, server } = message as { response: ServerResponse; server: Server };
    state.servers.add(server);
    state.inFlight.add(response);
    if (state.closing) {
      // A request on a connection opened before the signal: served, then that connection is closed.
      response.setHeader("connection", "close");
      stopAccepting(server);
    }
    response.once("close", () => {
      state.inFlight.delete(response);
      if (state.closing) for (const s of state.servers) s.closeIdleConnections();
      if (state.inFlight.size === 0) for (const resolve of state.onIdle.splice(0)) resolve();
    });
  });
  return state;
}

/** The promise's value, or `fallback` once `ms` have passed. */
async function within<T, F>(ms: number, promise: Promise<T>, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function requestsDone(state: HttpState): Promise<void> {
  return state.inFlight.size === 0 ? Promise.resolve() : new Promise((resolve) => state.onIdle.push(resolve));
}

async function runSteps(steps: ShutdownStep[]): Promise<boolean> {
  const results = await Promise.all(
    steps.map((step) =>
      step.run().then(
        () => true,
        (err) => {
          log.error({ err, step: step.name }, "shutdown step failed");
          return false;
        },
      ),
    ),
  );
  return results.every(Boolean);
}

/** Installs the signal handlers (once per process). Call it early: requests are counted from then on. */
export function installGracefulShutdown(plan: ShutdownPlan): void {
  const state = trackHttp();
  const installed = globalThis as typeof globalThis & { __quireShutdownInstalled?: boolean };
  if (installed.__quireShutdownInstalled) return;
  installed.__quireShutdownInstalled = true;
  if (!process.env.NEXT_MANUAL_SIG_HANDLE) {
    // Before instrumentation runs, the only listeners are Next.js's start-server cleanup (see above).
    const removed = [...process.listeners("SIGTERM"), ...process.listeners("SIGINT")].map((l) => l.name || "anonymous");
    process.removeAllListeners("SIGTERM");
    process.removeAllListeners("SIGINT");
    log.debug({ removed }, "took over the shutdown signals from Next.js");
  }

  let started = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    // A terminal's Ctrl+C under `npm start` arrives twice (from the terminal and forwarded by npm).
    if (started) return;
    started = true;
    const began = Date.now();
    state.closing = true;
    log.info({ signal, inFlight: state.inFlight.size, timeoutMs: plan.timeoutMs }, "shutting down: finishing requests in flight");
    for (const server of state.servers) stopAccepting(server);

    // The whole shutdown fits in timeoutMs: requests and background work get all but the last few
    // seconds, which are kept for closing the converter and the database.
    const reserveMs = Math.min(CLOSE_RESERVE_MS, plan.timeoutMs / 5);
    const drained = Promise.all([requestsDone(state), runSteps(plan.drain)]).then(([, ok]) => (ok ? "drained" : "failed"));
    const outcome = await within(plan.timeoutMs - reserveMs, drained, "timeout" as const);
    if (outcome === "timeout") log.warn({ inFlight: state.inFlight.size }, "shutdown: time is up, closing with work still in flight");
    const closed = await within(Math.max(0, began + plan.timeoutMs - Date.now()), runSteps(plan.close), false);
    const clean = outcome === "drained" && closed;
    log.info({ durationMs: Date.now() - began, clean }, "shutdown complete");
    process.exit(clean ? 0 : 1);
  };
  const onSignal = (signal: NodeJS.Signals) =>
    shutdown(signal).catch((err) => {
      log.error({ err }, "shutdown failed");
      process.exit(1);
    });
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}

// Structured JSON logs. Secrets are redacted by path so a careless `log.info({ req })` cannot leak them.
// Every line written while a request is served carries its `reqId` (the X-Request-Id the client sees):
// route wrappers run the handler inside runWithRequestContext(), and the mixin below reads it.
import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";

export interface RequestContext {
  reqId: string;
  /** Filled in once the caller is known (API key or dashboard session), for the access log. */
  orgId?: string;
  keyPrefix?: string;
}

// On globalThis: Next.js may evaluate this module once per bundle, and the wrapper that opens the
// context and the domain code that logs must see the same storage.
const STORE_KEY = Symbol.for("quire.requestContext");
const g = globalThis as typeof globalThis & { [STORE_KEY]?: AsyncLocalStorage<RequestContext> };
const storage = (g[STORE_KEY] ??= new AsyncLocalStorage<RequestContext>());

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the request being served, if any (mutable: set orgId/keyPrefix when known). */
export function requestContext(): RequestContext | undefined {
  return storage.getStore();
}

const SECRET_FIELDS = [
  "authorization",
  "cookie",
  "set-cookie",
  "password",
  "passwordHash",
  "apiKey",
  "secret",
  "token",
  "passcode",
  "session",
  "x-signer-session",
  "x-api-key",
  "cronSecret",
];

// Asynchronous writes (issue 17): a slow reader of stdout (a pipe, a log shipper) must not stall
// requests. Lines go out as soon as the previous write is done; what is still buffered when the process
// exits is written synchronously then. One destination per process, for the same reason as the store.
const DESTINATION_KEY = Symbol.for("quire.logDestination");
const gd = globalThis as typeof globalThis & { [DESTINATION_KEY]?: pino.DestinationStream };
const destination = (gd[DESTINATION_KEY] ??= (() => {
  const stream = pino.destination({ dest: 1, sync: false });
  process.on("exit", () => {
    try {
      stream.flushSync();
    } catch {
      // a write still in flight at exit: nothing more can be done synchronously
    }
  });
  return stream;
})());

const options: pino.LoggerOptions = {
  level: process.env.LOG_LEVEL ?? "info",
  base: { service: "quire" },
  mixin: () => {
    const reqId = storage.getStore()?.reqId;
    return reqId ? { reqId } : {};
  },
};

export const log = pino(
  {
    ...options,
    redact: {
      paths: SECRET_FIELDS.flatMap((f) => {
        const p = /^[A-Za-z_$][\w$]*$/.test(f) ? f : `["${f}"]`;
        const sub = p.startsWith("[") ? p : `.${p}`;
        return [p, `*${sub}`, `headers${sub}`, `*.headers${sub}`];
      }),
      censor: "[redacted]",
    },
  },
  destination,
);

/**
 * The access log's one line per request (lib/http/observe.ts), on the same stream. Its fields are fixed
 * (method, a path without query or tokens, status, duration, organization, key prefix), so none can
 * hold a secret: it skips the redaction pass that every other line goes through, which cost about 2%
 * of a request's CPU under load (issue 17).
 */
export const accessLog = pino(options, destination);

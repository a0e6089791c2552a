// The main thread's handle on the embedded database running in its own thread (lib/db/pglite-worker.mjs).
// It offers the part of PGlite's interface Quire and the Prisma adapter use (query, exec, transaction,
// close), with the same results and the same error classes, so nothing above the driver can tell.
import v8 from "node:v8";
import { Worker } from "node:worker_threads";
import { messages, type ParserOptions, type QueryOptions, type Results, TransactionAbortedError } from "@electric-sql/pglite";

/** PGlite's query options, and genericPlan (lib/db/pglite-prepared.mjs): an in-thread PGlite ignores it. */
export type PGliteQueryOptions = QueryOptions & { genericPlan?: boolean };

/** What lib/db/driver.ts and pglite-prisma-adapter need of PGlite, whether in this thread or another. */
export interface PGliteLike {
  query<T>(sql: string, params?: unknown[], options?: PGliteQueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Array<Results>>;
  transaction<R>(fn: (tx: PGliteTxLike) => Promise<R>): Promise<R>;
  /** LISTEN: callback hears each NOTIFY on the channel, before the reply to the statement whose commit sent it. */
  listen(channel: string, callback: (payload: string) => void): Promise<unknown>;
  close(): Promise<void>;
}

export interface PGliteTxLike {
  query<T>(sql: string, params?: unknown[], options?: PGliteQueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Array<Results>>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

interface PostedError {
  kind: string;
  message: string;
  props: Record<string, unknown>;
}

type Reply = { id: number; result?: unknown; error?: PostedError } | { notification: { channel: string; payload: string } };

/**
 * The least limit V8 keeps for the database thread's old generation (issue 17). Each statement's reply
 * passes through a few short-lived buffers in PGlite (a copy of each chunk out of WebAssembly's memory,
 * then of the whole reply), and V8 counted those against a heap that otherwise holds about 10 MB: it kept
 * the limit near 15 MB and ran a full collection about three times a second at 200 list pages a second,
 * 5% of the thread's time. With this floor: 4-5 in 35 s instead of about 100, for at most this many MB
 * more memory.
 */
const DATABASE_THREAD_OLD_SPACE_MB = 64;

/**
 * The worker, its heap made with V8's initial old space set: a flag V8 reads when it makes an isolate's
 * heap, which a Worker's resourceLimits cannot set. It goes back to 0 (V8's own sizing) as soon as the
 * thread runs, so no later isolate gets it; the main thread's heap was made before and keeps its own.
 */
function startDatabaseThread(dataDir: string): Worker {
  const reset = () => v8.setFlagsFromString("--initial-old-space-size=0");
  v8.setFlagsFromString(`--initial-old-space-size=${DATABASE_THREAD_OLD_SPACE_MB}`);
  try {
    // Next.js's build turns this into a worker chunk of its own; tsx and vitest load the file as it is.
    const worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url), { workerData: { dataDir } });
    worker.once("online", reset).once("exit", reset);
    return worker;
  } catch (err) {
    reset();
    throw err;
  }
}

/** The worker's handle; threadId is the database thread's id in the operating system, where it can be read. */
export async function openPGliteWorker(dataDir: string): Promise<PGliteLike & { threadId?: number }> {
  const worker = startDatabaseThread(dataDir);
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let failure: Error | null = null;

  const { threadId } = await new Promise<{ threadId?: number }>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    worker.once("error", onError);
    worker.once("message", (ready: { threadId?: number }) => {
      worker.off("error", onError);
      resolve(ready);
    });
  });
  // The worker keeps the process alive only while an answer is awaited, like a socket would.
  worker.unref();

  const settleAll = (err: Error) => {
    failure = err;
    for (const { reject } of pending.values()) reject(err);
    pending.clear();
    worker.unref();
  };
  worker.on("error", settleAll);
  worker.on("exit", (code) => settleAll(new Error(`the embedded database's thread exited (code ${code})`)));
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const listenings = new Map<string, Promise<unknown>>();
  worker.on("message", (reply: Reply) => {
    if ("notification" in reply) {
      for (const listener of listeners.get(reply.notification.channel) ?? []) listener(reply.notification.payload);
      return;
    }
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.error) call.reject(rebuildError(reply.error));
    else call.resolve(reply.result);
  });

  const call = <T>(message: Record<string, unknown>): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    if (pending.size === 0) worker.ref();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...message, id });
    });
  };

  const query = async <T>(txId: number | undefined, sql: string, params?: unknown[], options?: PGliteQueryOptions): Promise<Results<T>> => {
    const parsers = options?.parsers;
    const rawTypes = parsers ? Object.keys(parsers).map(Number) : undefined;
    const result = await call<Results<T>>({ op: "query", txId, sql, params, rowMode: options?.rowMode, rawTypes, genericPlan: options?.genericPlan });
    if (parsers) applyParsers(result, parsers);
    return result;
  };
  const exec = (txId: number | undefined, sql: string) => call<Array<Results>>({ op: "exec", txId, sql });

  let nextTx = 1;
  return {
    threadId,
    query: (sql, params, options) => query(undefined, sql, params, options),
    exec: (sql) => exec(undefined, sql),
    async transaction(fn) {
      const txId = nextTx++;
      await call({ op: "begin", txId });
      let closed = false;
      const tx: PGliteTxLike = {
        query: (sql, params, options) => query(txId, sql, params, options),
        exec: (sql) => exec(txId, sql),
        rollback: async () => {
          await call({ op: "txRollback", txId });
          closed = true;
        },
        get closed() {
          return closed;
        },
      };
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn(tx);
      } catch (err) {
        await call({ op: "end", txId, commit: false }).catch(() => {});
        throw err;
      }
      await call({ op: "end", txId, commit: true });
      return result;
    },
    listen(channel, callback) {
      let channelListeners = listeners.get(channel);
      if (!channelListeners) listeners.set(channel, (channelListeners = new Set()));
      channelListeners.add(callback);
      // One LISTEN per channel in the worker; every caller waits until it is in effect. A LISTEN that
      // failed is forgotten, with the callers' callbacks, so that a later call tries again.
      let listening = listenings.get(channel);
      if (!listening) {
        listening = call({ op: "listen", channel }).catch((err) => {
          listenings.delete(channel);
          throw err;
        });
        listenings.set(channel, listening);
      }
      const subscribed = channelListeners;
      return listening.catch((err) => {
        subscribed.delete(callback);
        throw err;
      });
    },
    async close() {
      await call({ op: "close" }).catch(() => {});
      await worker.terminate();
    },
  };
}

/** The caller's parsers, run here on the text the worker left unparsed for those column types. */
function applyParsers(result: Results<unknown>, parsers: ParserOptions): void {
  const columns = result.fields
    // PGlite calls a parser with the column's text and its type (the adapter's array parsers use neither more nor less).
    .map((field, index) => ({
      index,
      name: field.name,
      parse: parsers[field.dataTypeID] as ((text: string, type: number) => unknown) | undefined,
      type: field.dataTypeID,
    }))
    .filter((c) => c.parse);
  if (columns.length === 0) return;
  for (const row of result.rows as Array<Record<string | number, unknown>>) {
    for (const c of columns) {
      const key = Array.isArray(row) ? c.index : c.name;
      const value = row[key];
      if (typeof value === "string") row[key] = c.parse?.(value, c.type);
    }
  }
}

/** The same error classes as an in-thread PGlite throws: the Prisma adapter maps DatabaseError by class. */
function rebuildError(posted: PostedError): Error {
  const { name, length, message: _message, stack: _stack, ...fields } = posted.props;
  let err: Error;
  if (posted.kind === "TransactionAbortedError") err = new TransactionAbortedError();
  else if (posted.kind === "DatabaseError")
    err = new messages.DatabaseError(posted.message, Number(length ?? 0), (name ?? "error") as ConstructorParameters<typeof messages.DatabaseError>[2]);
  else err = new Error(posted.message);
  return Object.assign(err, fields);
}

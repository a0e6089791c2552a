// The embedded database's own thread (issue 17): PGlite runs PostgreSQL compiled to WebAssembly, and
// on the server's main thread every statement stopped Next.js from answering anything else, so one
// core did all of Quire's work while the other idled. This worker holds the one PGlite instance and
// answers lib/db/pglite-remote.ts over postMessage. Plain JavaScript: the Next.js build makes it a worker
// chunk of its own; tsx and vitest run the file as it is.
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { messages, PGlite, TransactionAbortedError } from "@electric-sql/pglite";
import { PreparedStatements } from "./pglite-prepared.mjs";

const pglite = await PGlite.create(workerData.dataDir);
const prepared = new PreparedStatements(pglite);
/** Open transactions by id: the callback PGlite runs stays pending until the main thread ends it. */
const transactions = new Map();
const identity = (text) => text;

/** Column types the main thread parses itself (its parsers are functions, which cannot be posted). */
function rawParsers(types) {
  return types ? Object.fromEntries(types.map((t) => [t, identity])) : undefined;
}

function openTransaction(txId) {
  const open = transactions.get(txId);
  if (!open) throw new Error(`transaction ${txId} is not open`);
  if (open.closed) throw new Error("Transaction is closed");
  return open;
}

function target(txId) {
  return txId === undefined ? pglite : openTransaction(txId).tx;
}

function begin(txId) {
  return new Promise((started, failedToStart) => {
    const done = pglite
      .transaction(
        (tx) =>
          new Promise((commit, rollback) => {
            transactions.set(txId, { tx, commit, rollback, done });
            started();
          }),
      )
      .finally(() => transactions.delete(txId));
    // A BEGIN that fails never calls the callback.
    done.catch(failedToStart);
  });
}

const ROLLED_BACK = Symbol("rolled back");

async function end(txId, commit) {
  const open = transactions.get(txId);
  if (!open) throw new Error(`transaction ${txId} is not open`);
  if (commit) open.commit();
  else open.rollback(ROLLED_BACK);
  try {
    await open.done;
  } catch (err) {
    if (err !== ROLLED_BACK) throw err;
  }
}

async function handle(message) {
  switch (message.op) {
    case "query": {
      const options = { rowMode: message.rowMode, parsers: rawParsers(message.rawTypes) };
      const inTransaction = message.txId !== undefined;
      if (inTransaction) openTransaction(message.txId);
      const { rows, fields, affectedRows } = await prepared.query(message.sql, message.params, options, inTransaction, message.genericPlan);
      return { rows, fields, affectedRows };
    }
    case "exec":
      return (await target(message.txId).exec(message.sql)).map(({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows }));
    case "begin":
      return begin(message.txId);
    case "end":
      return end(message.txId, message.commit);
    case "txRollback": {
      const open = openTransaction(message.txId);
      await open.tx.rollback();
      open.closed = true;
      return;
    }
    case "listen":
      // PGlite calls listeners in a microtask queued while it reads the statement's reply, so the
      // notification is posted before the reply to the statement whose commit sent it: the main thread
      // hears of a change before the caller that made it goes on.
      await pglite.listen(message.channel, (payload) => parentPort.postMessage({ notification: { channel: message.channel, payload } }));
      return;
    case "close":
      return pglite.close();
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

/** What the main thread needs to rebuild the error: PostgreSQL's fields travel as plain properties. */
function describeError(err) {
  if (!(err instanceof Error)) return { kind: "Error", message: String(err), props: {} };
  // By class, not constructor name: the package is minified.
  const kind = err instanceof TransactionAbortedError ? "TransactionAbortedError" : err instanceof messages.DatabaseError ? "DatabaseError" : "Error";
  return { kind, message: err.message, props: { ...err } };
}

parentPort.on("message", (message) => {
  handle(message).then(
    (result) => parentPort.postMessage({ id: message.id, result }),
    (err) => {
      try {
        parentPort.postMessage({ id: message.id, error: describeError(err) });
      } catch {
        // A property that cannot be posted: the message alone still answers the caller.
        parentPort.postMessage({ id: message.id, error: { kind: "Error", message: String(err?.message ?? err), props: {} } });
      }
    },
  );
});
/** This thread's id in the operating system (Linux: /proc/thread-self), so its CPU can be told from the server's (top -H, the bench). */
function osThreadId() {
  try {
    return Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
  } catch {
    return undefined;
  }
}
parentPort.postMessage({ ready: true, threadId: osThreadId() });

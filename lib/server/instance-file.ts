// With the embedded database only one process may open DATA_DIR. A running server records itself
// here so CLI tools (seed) can go through it instead of opening the database a second time.
import fs from "node:fs";
import path from "node:path";
import { ConfigError } from "@/lib/config";

export interface RunningServer {
  pid: number;
  baseUrl: string;
}

function file(dataDir: string): string {
  return path.join(dataDir, "server.json");
}

export function recordRunningServer(dataDir: string, server: RunningServer): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file(dataDir), JSON.stringify(server));
  const clear = () => {
    try {
      const current = JSON.parse(fs.readFileSync(file(dataDir), "utf8")) as RunningServer;
      if (current.pid === process.pid) fs.rmSync(file(dataDir), { force: true });
    } catch {
      // already gone
    }
  };
  process.once("exit", clear);
}

export function findRunningServer(dataDir: string): RunningServer | null {
  try {
    const server = JSON.parse(fs.readFileSync(file(dataDir), "utf8")) as RunningServer;
    process.kill(server.pid, 0); // throws when the process is gone
    return server;
  } catch {
    return null;
  }
}

/**
 * PGlite runs inside one process: a second process opening the same directory would corrupt it. Called
 * before the embedded database is opened; several instances need PostgreSQL.
 */
export function refuseSecondEmbeddedProcess(dataDir: string): void {
  const running = findRunningServer(dataDir);
  if (running && running.pid !== process.pid) {
    throw new ConfigError(
      `The embedded database in ${dataDir} is already open in another Quire server (pid ${running.pid}, ${running.baseUrl}). ` +
        "The embedded PGlite database serves one process: stop that server first, or run several instances on PostgreSQL (DATABASE_URL=postgres://…). " +
        `If that process is not Quire, remove ${file(dataDir)}.`,
    );
  }
}

// A local S3-compatible server (s3rver) in a child process: the Quire test server's seed step runs
// synchronously in the test process, so an in-process S3 server could not answer it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const CHILD = `
import S3rver from "s3rver";
const [dir, bucket] = process.argv.slice(1);
const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
const { port } = await server.run();
process.stdout.write(JSON.stringify({ port }) + "\\n");
process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
`;

export async function startS3Server(bucket = "quire") {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "quire-s3-"));
  const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD, directory, bucket], {
    cwd: path.resolve(__dirname, "..", ".."),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`s3rver exited with ${code}`)));
    child.stdout.once("data", (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { port: number }).port));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    directory,
    env: {
      STORAGE_DRIVER: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_PREFIX: "quire/",
    },
    stop: async () => {
      if (child.exitCode === null) await new Promise((r) => (child.once("exit", r), child.kill("SIGTERM")));
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

// A local RFC 3161 time-stamping service for tests: `openssl ts -reply` behind a small HTTP handler,
// with its own throwaway root and TSA certificates (made by openssl here, never copied in).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

export interface LocalTsa {
  url: string;
  /** PEM of the root that issued the TSA certificate (for `openssl ts -verify -CAfile`). */
  caFile: string;
  tsaCertFile: string;
  /** Requests answered so far. */
  requests: () => number;
  close: () => Promise<void>;
}

const CONFIG = `
[ tsa ]
default_tsa = tsa_config1
[ tsa_config1 ]
serial = ./serial
crypto_device = builtin
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = no
ess_cert_id_chain = no
ess_cert_id_alg = sha256
[ v3_tsa ]
extendedKeyUsage = critical,timeStamping
basicConstraints = CA:FALSE
keyUsage = critical,digitalSignature
`;

function openssl(dir: string, args: string[], input?: Buffer): Buffer {
  return execFileSync("openssl", args, { cwd: dir, input, stdio: ["pipe", "pipe", "pipe"] });
}

export async function startLocalTsa(): Promise<LocalTsa> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-tsa-"));
  fs.writeFileSync(path.join(dir, "ts.cnf"), CONFIG);
  fs.writeFileSync(path.join(dir, "serial"), "01\n");
  openssl(dir, [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.crt",
    "-days",
    "30",
    "-subj",
    "/CN=Quire Test TSA Root",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  openssl(dir, ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "tsa.key", "-out", "tsa.csr", "-subj", "/CN=Quire Test TSA"]);
  openssl(dir, [
    "x509",
    "-req",
    "-in",
    "tsa.csr",
    "-CA",
    "ca.crt",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "tsa.crt",
    "-days",
    "30",
    "-extfile",
    "ts.cnf",
    "-extensions",
    "v3_tsa",
  ]);
  let count = 0;
  let queue = Promise.resolve();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      // One reply at a time: openssl ts keeps its serial number in a file.
      queue = queue.then(() => {
        try {
          const query = path.join(dir, `q${++count}.tsq`);
          fs.writeFileSync(query, Buffer.concat(chunks));
          openssl(dir, [
            "ts",
            "-reply",
            "-config",
            "ts.cnf",
            "-queryfile",
            query,
            "-signer",
            "tsa.crt",
            "-inkey",
            "tsa.key",
            "-chain",
            "ca.crt",
            "-out",
            `${query}.tsr`,
          ]);
          res.writeHead(200, { "content-type": "application/timestamp-reply" });
          res.end(fs.readFileSync(`${query}.tsr`));
        } catch (err) {
          res.writeHead(500, { "content-type": "text/plain" });
          res.end(String(err));
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsr`,
    caFile: path.join(dir, "ca.crt"),
    tsaCertFile: path.join(dir, "tsa.crt"),
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

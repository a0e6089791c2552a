// A real HTTPS webhook receiver on loopback for tests: a throwaway CA (trusted by the Quire server
// through NODE_EXTRA_CA_CERTS) and a server certificate for 127.0.0.1/localhost, made with node-forge.
// It verifies every signature it receives and can be told how to answer.
import crypto from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import forge from "node-forge";

export interface ReceivedDelivery {
  /** Path and query the delivery was posted to. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  signatureValid: boolean;
  receivedAt: number;
}

function makeCertificates() {
  const caKeys = forge.pki.rsa.generateKeyPair(2048);
  const ca = forge.pki.createCertificate();
  ca.publicKey = caKeys.publicKey;
  ca.serialNumber = "01";
  ca.validity.notBefore = new Date(Date.now() - 60_000);
  ca.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  const caName = [{ name: "commonName", value: "Quire test CA" }];
  ca.setSubject(caName);
  ca.setIssuer(caName);
  ca.setExtensions([
    { name: "basicConstraints", cA: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true },
  ]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());

  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = "02";
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  cert.setSubject([{ name: "commonName", value: "localhost" }]);
  cert.setIssuer(caName);
  cert.setExtensions([
    {
      name: "subjectAltName",
      altNames: [
        { type: 2, value: "localhost" },
        { type: 7, ip: "127.0.0.1" },
      ],
    },
  ]);
  cert.sign(caKeys.privateKey, forge.md.sha256.create());
  return { caPem: forge.pki.certificateToPem(ca), certPem: forge.pki.certificateToPem(cert), keyPem: forge.pki.privateKeyToPem(keys.privateKey) };
}

export function verifySignature(secret: string, header: string, body: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return false;
  const expected = crypto.createHmac("sha256", secret).update(`${m[1]}.${body}`).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(m[2], "hex")) && Math.abs(Date.now() / 1000 - Number(m[1])) < 300;
}

/**
 * The CA file to hand the Quire server as NODE_EXTRA_CA_CERTS (made once per test process), and the
 * receiver's certificate. A global setup that starts the server makes them and sets
 * QUIRE_TEST_CERTS_DIR (ca.pem, cert.pem, key.pem) so test workers use the same ones.
 */
let shared: (ReturnType<typeof makeCertificates> & { caFile: string; dir: string }) | undefined;
export function testCertificates() {
  if (!shared) {
    const dir = process.env.QUIRE_TEST_CERTS_DIR;
    if (dir && fs.existsSync(path.join(dir, "key.pem"))) {
      const read = (name: string) => fs.readFileSync(path.join(dir, name), "utf8");
      shared = { caPem: read("ca.pem"), certPem: read("cert.pem"), keyPem: read("key.pem"), caFile: path.join(dir, "ca.pem"), dir };
    } else {
      const certs = makeCertificates();
      const made = fs.mkdtempSync(path.join(os.tmpdir(), "quire-ca-"));
      fs.writeFileSync(path.join(made, "ca.pem"), certs.caPem);
      fs.writeFileSync(path.join(made, "cert.pem"), certs.certPem);
      fs.writeFileSync(path.join(made, "key.pem"), certs.keyPem, { mode: 0o600 });
      shared = { ...certs, caFile: path.join(made, "ca.pem"), dir: made };
    }
  }
  return shared;
}

/** Environment for a Quire server that delivers to startReceiver() receivers quickly. */
export function webhookTestEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_EXTRA_CA_CERTS: testCertificates().caFile,
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_RETRY_SCALE: "0.0001",
    WEBHOOK_TIMEOUT_MS: "3000",
    ...overrides,
  };
}

export async function startReceiver(
  options: {
    secret?: () => string;
    respond?: (n: number, d: ReceivedDelivery) => { status: number; delayMs?: number; body?: string; headers?: Record<string, string> };
  } = {},
) {
  const certs = testCertificates();
  const received: ReceivedDelivery[] = [];
  const server = https.createServer({ cert: certs.certPem, key: certs.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const secret = options.secret?.();
      const d: ReceivedDelivery = {
        url: req.url ?? "",
        headers: req.headers,
        body,
        signatureValid: secret ? verifySignature(secret, String(req.headers["x-service-signature"] ?? ""), body) : false,
        receivedAt: Date.now(),
      };
      received.push(d);
      const answer = options.respond?.(received.length, d) ?? { status: 200 };
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
        res.end(answer.body ?? "ok");
      }, answer.delayMs ?? 0);
    });
  });
  const sockets = new Set<net.Socket>();
  server.on("connection", (s) => (sockets.add(s), s.on("close", () => sockets.delete(s))));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), server.close(() => resolve()))),
  };
}

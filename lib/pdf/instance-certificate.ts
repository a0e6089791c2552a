// The certificate that digitally signs completed documents: the operator's PKCS#12 file when
// configured, otherwise a self-signed development certificate made once. The server keeps that one
// in the database (sealed), so every instance on one database signs with the same certificate; without
// a store (unit tests, tools) it is kept under DATA_DIR.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import forge from "node-forge";
import { UnavailableError } from "@/lib/errors";

export interface SigningCertificate {
  p12: Buffer;
  password: string;
  subject: string;
  selfSigned: boolean;
}

function subjectOf(p12: Buffer, password: string): string {
  const asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString("binary")));
  const parsed = forge.pkcs12.pkcs12FromAsn1(asn1, password);
  const bags = parsed.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  const cert = bags[0]?.cert;
  if (!cert) throw new Error("the file holds no certificate");
  return cert.subject.getField("CN")?.value ?? "unknown";
}

function createSelfSigned(password: string): Buffer {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${crypto.randomBytes(8).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000);
  const attrs = [
    { name: "commonName", value: "Quire development signing certificate" },
    { name: "organizationName", value: "Quire" },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true },
    { name: "extKeyUsage", emailProtection: true },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], password, { algorithm: "3des" });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), "binary");
}

/** Where the generated certificate is shared: the stored value, or `make()`'s if none is stored yet. */
export interface CertificateStore {
  getOrPut(make: () => string): Promise<string>;
}

interface LoadOptions {
  p12Path?: string;
  password?: string;
  dataDir: string;
  store?: CertificateStore;
}

const cache = new Map<string, Promise<SigningCertificate>>();

export function loadOrCreateSigningCertificate(opts: LoadOptions): Promise<SigningCertificate> {
  const key = opts.p12Path ?? (opts.store ? "store" : opts.dataDir);
  if (!cache.has(key)) {
    // A failure (database away, unreadable file) is not remembered: the next document tries again.
    const loading = load(opts).catch((err) => {
      cache.delete(key);
      throw err;
    });
    cache.set(key, loading);
  }
  return cache.get(key)!;
}

async function load(opts: LoadOptions): Promise<SigningCertificate> {
  if (opts.p12Path) {
    try {
      const p12 = fs.readFileSync(opts.p12Path);
      return { p12, password: opts.password ?? "", subject: subjectOf(p12, opts.password ?? ""), selfSigned: false };
    } catch (err) {
      throw new UnavailableError(`SIGNING_P12_PATH (${opts.p12Path}) cannot be used: ${(err as Error).message}`, "SigningCertificateUnusable");
    }
  }
  const dir = path.join(opts.dataDir, "signing");
  const file = path.join(dir, "instance.p12");
  const passwordFile = path.join(dir, "password");
  if (opts.store) {
    // A certificate an earlier version left under DATA_DIR becomes the shared one, so signing goes on
    // with the same certificate; otherwise the first instance to need one makes it.
    const stored = await opts.store.getOrPut(() => {
      if (fs.existsSync(file)) return JSON.stringify({ p12: fs.readFileSync(file).toString("base64"), password: fs.readFileSync(passwordFile, "utf8") });
      const password = crypto.randomBytes(24).toString("base64url");
      return JSON.stringify({ p12: createSelfSigned(password).toString("base64"), password });
    });
    const { p12: encoded, password } = JSON.parse(stored) as { p12: string; password: string };
    const p12 = Buffer.from(encoded, "base64");
    return { p12, password, subject: subjectOf(p12, password), selfSigned: true };
  }
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const password = crypto.randomBytes(24).toString("base64url");
    const p12 = createSelfSigned(password);
    // Password first: a crash between the writes leaves no certificate without its password.
    fs.writeFileSync(passwordFile, password, { mode: 0o600 });
    fs.writeFileSync(`${file}.tmp`, p12, { mode: 0o600 });
    fs.renameSync(`${file}.tmp`, file);
  }
  const p12 = fs.readFileSync(file);
  const password = fs.readFileSync(passwordFile, "utf8");
  return { p12, password, subject: subjectOf(p12, password), selfSigned: true };
}

// Secrets Quire must read back (SMS auth tokens, HS256 provider secrets) are sealed with
// AES-256-GCM under a key derived from the instance secret; hashes are used for everything else.
import crypto from "node:crypto";

function keyOf(instanceSecret: string): Buffer {
  return crypto.createHash("sha256").update(`quire:secret-box:${instanceSecret}`).digest();
}

export function seal(instanceSecret: string, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyOf(instanceSecret), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

export function open(instanceSecret: string, sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("Not a sealed secret");
  const decipher = crypto.createDecipheriv("aes-256-gcm", keyOf(instanceSecret), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

// Every process on one database (each app instance, the seed CLI) must use the same instance secret
// (NEXTAUTH_SECRET): it keys dashboard sessions, sealed settings (SMS tokens, identity-provider
// secrets, the generated signing certificate), passcode hashes, emailed signing links and webhook
// secrets. When it is unset each DATA_DIR generates its own, so two instances with their own
// DATA_DIR would silently disagree. The database keeps a keyed fingerprint of the first secret it
// saw; a process with another one is refused before it serves anything.
import crypto from "node:crypto";
import { ConfigError } from "@/lib/config";
import { sameSecret } from "@/lib/crypto/same-secret";
import type { SqlRunner } from "@/lib/db/driver";

const SETTING = "instance_secret_fingerprint";

export function secretFingerprint(secret: string): string {
  return crypto.createHmac("sha256", secret).update("quire:instance-secret-fingerprint").digest("hex");
}

export async function checkInstanceSecret(sql: SqlRunner, secret: string): Promise<void> {
  const fingerprint = secretFingerprint(secret);
  // The first process records its secret; any number starting at once agree on one row.
  await sql.query(`INSERT INTO "instance_setting" ("name", "value") VALUES ($1, $2) ON CONFLICT ("name") DO NOTHING`, [SETTING, fingerprint]);
  const [row] = await sql.query<{ value: string }>(`SELECT "value" FROM "instance_setting" WHERE "name" = $1`, [SETTING]);
  if (!row || !sameSecret(row.value, fingerprint)) {
    throw new ConfigError(
      "NEXTAUTH_SECRET differs from the secret this database was set up with. Every Quire instance on one database, " +
        "and `npm run seed`, must use the same NEXTAUTH_SECRET (when it is unset, each DATA_DIR generates its own): " +
        "set it explicitly to the value the first instance uses.",
    );
  }
}

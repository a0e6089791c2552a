// What several processes on one database must agree on: the instance secret (a fingerprint in the
// database refuses another one) and the generated signing certificate (kept in a shared store).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "@/lib/config";
import { checkInstanceSecret } from "@/lib/db/instance-secret";
import { loadOrCreateSigningCertificate } from "@/lib/pdf/instance-certificate";
import { migratedPGlite } from "../support/migrated-pglite";

const db = migratedPGlite();

describe("checkInstanceSecret", () => {
  it("records the first secret, accepts it again and refuses any other, naming NEXTAUTH_SECRET", async () => {
    const concurrent = await Promise.allSettled([
      checkInstanceSecret(db.sql, "first-secret-0123456789"),
      checkInstanceSecret(db.sql, "other-secret-0123456789"),
    ]);
    // Whichever came first is the database's secret; the other is refused.
    expect(concurrent.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const winner = concurrent[0].status === "fulfilled" ? "first-secret-0123456789" : "other-secret-0123456789";
    const loser = winner.startsWith("first") ? "other-secret-0123456789" : "first-secret-0123456789";
    await expect(checkInstanceSecret(db.sql, winner)).resolves.toBeUndefined();
    const refused = checkInstanceSecret(db.sql, loser);
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(/NEXTAUTH_SECRET differs/);
    // Only a keyed fingerprint is stored, never the secret.
    const rows = await db.sql.query<{ value: string }>(`SELECT "value" FROM "instance_setting"`);
    expect(rows).toHaveLength(1);
    expect(rows[0].value).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].value).not.toContain(winner);
  });
});

describe("loadOrCreateSigningCertificate with a shared store", () => {
  it("hands a certificate left under DATA_DIR to the store and then signs with the stored one", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-cert-"));
    const onDisk = await loadOrCreateSigningCertificate({ dataDir });
    let stored: string | null = null;
    const store = {
      getOrPut: async (make: () => string) => (stored ??= make()),
    };
    const shared = await loadOrCreateSigningCertificate({ dataDir, store });
    expect(shared.p12.equals(onDisk.p12)).toBe(true);
    expect(JSON.parse(stored!)).toEqual({ p12: onDisk.p12.toString("base64"), password: onDisk.password });
    // Later calls in this process use the loaded one without asking the store again.
    stored = "not used";
    expect((await loadOrCreateSigningCertificate({ dataDir, store })).p12.equals(onDisk.p12)).toBe(true);
  });
});

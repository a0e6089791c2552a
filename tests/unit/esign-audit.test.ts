import { describe, expect, it } from "vitest";
import { AUDIT_HASH_VERSION, canonicalJson, chainHash, GENESIS_HASH, verifyAuditChain } from "@/lib/esign/audit";

type Entry = Parameters<typeof chainHash>[1] & { previousHash: string; currentHash: string };

/** Entries as written before who-acted was recorded (hash version 1: no userId, no hashVersion). */
function chain(n: number): Entry[] {
  const out: Entry[] = [];
  let previous = GENESIS_HASH;
  for (let i = 0; i < n; i++) {
    const base = {
      id: `e${i}`,
      documentId: "d",
      actionType: "viewed",
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      recipientId: null,
      ip: "10.0.0.1",
      userAgent: "UA",
      details: { i, nested: { b: 1, a: 2 } },
    };
    const currentHash = chainHash(previous, base);
    out.push({ ...base, previousHash: previous, currentHash });
    previous = currentHash;
  }
  return out;
}

describe("audit chain", () => {
  it("canonical JSON sorts keys at every level and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
  });

  it("verifies an intact chain and finds the first tampered entry", () => {
    const entries = chain(5);
    expect(verifyAuditChain(entries)).toBe(-1);
    const edited = entries.map((e, i) => (i === 2 ? { ...e, details: { ...e.details, i: 99 } } : e));
    expect(verifyAuditChain(edited)).toBe(2);
    const removed = entries.filter((_, i) => i !== 1);
    expect(verifyAuditChain(removed)).toBe(1);
    const reordered = [entries[0], entries[2], entries[1], entries[3]];
    expect(verifyAuditChain(reordered)).toBe(1);
  });

  it("hashes an entry written before versions exactly as it always did (a pinned hash from the version 1 code)", () => {
    const old = {
      id: "11111111-1111-4111-8111-111111111111",
      documentId: "22222222-2222-4222-8222-222222222222",
      actionType: "signed",
      timestamp: "2026-01-02T03:04:05.678Z",
      recipientId: "33333333-3333-4333-8333-333333333333",
      ip: "10.0.0.1",
      userAgent: "UA/1",
      details: { fields: 2, nested: { b: 1, a: [1, "x"] } },
    };
    const pinned = "460913d13f9757774057844c9d9b7b94a47f9499336a9466a962ee68d0f7844e";
    expect(chainHash(GENESIS_HASH, old)).toBe(pinned);
    // As the audit-trail reply shows such an entry now: userId null, hashVersion 1.
    expect(chainHash(GENESIS_HASH, { ...old, userId: null, hashVersion: 1 })).toBe(pinned);
  });

  it("covers userId and the version from version 2 on: a chain of old then new entries verifies, and editing either breaks it", () => {
    const old = chain(2);
    const entry = {
      id: "e-new",
      documentId: "d",
      actionType: "voided",
      timestamp: new Date(Date.UTC(2026, 10, 26)).toISOString(),
      recipientId: null,
      userId: "44444444-4444-4444-8444-444444444444",
      ip: null,
      userAgent: null,
      details: { reason: "r" },
      hashVersion: AUDIT_HASH_VERSION,
    };
    const previousHash = old[1].currentHash;
    const mixed = [...old, { ...entry, previousHash, currentHash: chainHash(previousHash, entry) }];
    expect(AUDIT_HASH_VERSION).toBe(2);
    expect(verifyAuditChain(mixed)).toBe(-1);
    expect(verifyAuditChain(mixed.map((e, i) => (i === 2 ? { ...e, userId: "55555555-5555-4555-8555-555555555555" } : e)))).toBe(2);
    expect(verifyAuditChain(mixed.map((e, i) => (i === 2 ? { ...e, userId: null } : e)))).toBe(2);
    // Passing a new entry off as an old one (dropping its version) does not verify either.
    expect(verifyAuditChain(mixed.map((e, i) => (i === 2 ? { ...e, hashVersion: 1 } : e)))).toBe(2);
  });
});

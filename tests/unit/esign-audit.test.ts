import { describe, expect, it } from "vitest";
import { canonicalJson, chainHash, GENESIS_HASH, verifyAuditChain, type AuditEntryJson } from "@/lib/esign/audit";

function chain(n: number): AuditEntryJson[] {
  const out: AuditEntryJson[] = [];
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
});

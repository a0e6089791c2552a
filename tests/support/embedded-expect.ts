// Assertions on signing error bodies, for vitest suites only (the Playwright specs share
// tests/support/embedded.ts, which therefore must not import vitest).
import { expect } from "vitest";
import type { ApiReply } from "./api";

/** A 7.4 error reply exactly: this status and { message, type, error, code } with message = error, type = code. */
export function expectSigningError(reply: ApiReply<any>, status: number, code: string): void {
  expect({ status: reply.status, body: reply.json }, reply.text).toEqual({
    status,
    body: { message: expect.any(String), type: code, error: expect.any(String), code },
  });
  expect(reply.json.message).toBe(reply.json.error);
}

/** A signer-endpoint error reply exactly: this status and { error, code } with a lowercase code. */
export function expectSignerError(reply: ApiReply<any>, status: number, code: string): void {
  expect({ status: reply.status, body: reply.json }, reply.text).toEqual({ status, body: { error: expect.any(String), code } });
}

import crypto from "node:crypto";

/** Constant-time comparison of two secrets of any length (both are hashed to equal length first). */
export function sameSecret(presented: string, expected: string): boolean {
  const a = crypto.createHash("sha256").update(presented).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

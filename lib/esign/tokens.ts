// Emailed signing links carry a token derived from the recipient id with a server-side key, so a
// resend can mail the same link again, while the database stores only the token's hash.
import crypto from "node:crypto";

export function signingLinkToken(secret: string, recipientId: string): string {
  return crypto.createHmac("sha256", secret).update(`signing-link:${recipientId}`).digest("base64url");
}

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

export function signingLink(baseUrl: string, token: string): string {
  return `${baseUrl}/sign/${token}`;
}

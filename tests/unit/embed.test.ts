// The embed package's message filter (lib/sdk/embed.ts): only the framed signing page's own
// origin AND window are heard (docs/contract.md "Embedded signing"), and only well-formed package messages.
import { describe, expect, it } from "vitest";
import { acceptMessage, signingOrigin } from "@/lib/sdk/embed";

const frame = { name: "the frame's window" };
const other = { name: "another window" };
const origin = "https://quire.example.com";
const completed = { type: "esign:completed", documentId: "d-1", status: "completed", event: "signing_complete", scope: "recipient" };

describe("acceptMessage", () => {
  it("accepts the completion message from the frame's window on the signing origin", () => {
    expect(acceptMessage({ origin, source: frame, data: completed }, origin, frame)).toEqual(completed);
    expect(acceptMessage({ origin, source: frame, data: { ...completed, event: "already_signed", extra: 1 } }, origin, frame)).toEqual({
      ...completed,
      event: "already_signed",
    });
  });

  it("ignores another origin, another window, or no window", () => {
    expect(acceptMessage({ origin: "https://evil.example.com", source: frame, data: completed }, origin, frame)).toBeNull();
    expect(acceptMessage({ origin: "http://quire.example.com", source: frame, data: completed }, origin, frame)).toBeNull();
    expect(acceptMessage({ origin, source: other, data: completed }, origin, frame)).toBeNull();
    expect(acceptMessage({ origin, source: null, data: completed }, origin, null)).toBeNull();
  });

  it("ignores malformed or unknown messages", () => {
    for (const data of [
      null,
      "esign:completed",
      { ...completed, event: "whatever" },
      { ...completed, documentId: 7 },
      { ...completed, status: "sent" },
      { ...completed, scope: "document" },
      { type: "esign:other" },
      { type: "esign:error", code: 5 },
    ]) {
      expect(acceptMessage({ origin, source: frame, data }, origin, frame)).toBeNull();
    }
  });

  it("passes declined and error messages through with their known fields only", () => {
    expect(acceptMessage({ origin, source: frame, data: { type: "esign:declined", documentId: "d-1", reason: "no", x: 1 } }, origin, frame)).toEqual({
      type: "esign:declined",
      documentId: "d-1",
      reason: "no",
    });
    expect(acceptMessage({ origin, source: frame, data: { type: "esign:error", code: "boom", message: "Boom" } }, origin, frame)).toEqual({
      type: "esign:error",
      documentId: undefined,
      code: "boom",
      message: "Boom",
    });
  });
});

describe("signingOrigin", () => {
  it("is the URL's origin; refuses relative and non-http URLs", () => {
    expect(signingOrigin("https://quire.example.com:8443/sign/open?token=abc")).toBe("https://quire.example.com:8443");
    expect(() => signingOrigin("/sign/open?token=abc")).toThrow(TypeError);
    expect(() => signingOrigin("javascript:alert(1)")).toThrow(TypeError);
  });
});

// Request ids accepted from callers, and the request paths written to the access log.
import { describe, expect, it } from "vitest";
import { loggablePath, requestIdFrom, saneRequestId } from "@/lib/http/request-id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const withId = (id?: string) => new Headers(id === undefined ? {} : { "x-request-id": id });

describe("request ids", () => {
  it("keeps a sane incoming id", () => {
    for (const id of ["a", "req-1", "01HXYZ.abc_def:42", "x".repeat(128)]) expect(requestIdFrom(withId(id))).toBe(id);
  });

  it("replaces a missing, empty, too long or unsafe id with a fresh UUID", () => {
    for (const id of [undefined, "", "x".repeat(129), "has space", 'quote"', "semi;colon", "a/b", "<script>"]) {
      const got = requestIdFrom(withId(id));
      expect(got, String(id)).toMatch(UUID);
    }
    expect(requestIdFrom(withId())).not.toBe(requestIdFrom(withId()));
    expect(saneRequestId(["a"])).toBeNull();
  });
});

describe("loggable paths", () => {
  it("drops the query string and replaces signing tokens", () => {
    const token = "AbCdEfGhIjKlMnOpQrStUvWxYz012345";
    expect(loggablePath(`http://h/sign/open?token=${token}`)).toBe("/sign/open");
    expect(loggablePath(`http://h/sign/${token}`)).toBe("/sign/:token");
    expect(loggablePath(`http://h/api/signer/${token}/passcode/verify`)).toBe("/api/signer/:token/passcode/verify");
    expect(loggablePath(`http://h/api/signer/${token}/page/1?s=session&w=800`)).toBe("/api/signer/:token/page/1");
    expect(loggablePath(`/sign/x/../${token}`)).toBe("/sign/:token");
    expect(loggablePath(`//evil/sign/${token}`)).toBe("//evil/sign/:token");
    expect(loggablePath(`http://h/api/signer/${token}/sign`)).toBe("/api/signer/:token/sign");
  });

  it("keeps ordinary API paths", () => {
    expect(loggablePath("http://h/v1/deliverable/123?limit=5")).toBe("/v1/deliverable/123");
    expect(loggablePath("http://h/esign/documents/abc/signing-url")).toBe("/esign/documents/abc/signing-url");
    expect(loggablePath("http://h/signature")).toBe("/signature");
  });
});
